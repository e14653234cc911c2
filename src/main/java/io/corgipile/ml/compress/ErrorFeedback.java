package io.corgipile.ml.compress;

import java.util.Arrays;
import java.util.Optional;

/**
 * Error feedback for compressed deltas (as in Bagua's and 1-bit SGD's low-precision communication):
 * a partition compresses its round's delta plus what compression lost of its earlier deltas, its
 * residual, and keeps {@code (delta + residual) - decoded} as the next residual. What the driver
 * receives over all rounds then sums to the true deltas up to the last round's quantization error,
 * instead of an error growing round by round.
 *
 * <p>One instance per task: round {@code k} of {@code partition} reads the residual written by its
 * round {@code k - 1} from this executor's {@link ResidualStore} and writes its own under {@code
 * k}, never in place, so a retried attempt of round {@code k} on the same executor reads the same
 * input and sends a bit-identical payload. When round {@code k - 1}'s residual is not on this
 * executor (Spark ran the task elsewhere, or the executor was lost), the residual restarts at zero
 * and the payload says {@link QuantizedDelta#residualLost()}: the model then differs from the
 * failure-free run's, by at most one round's quantization error, and training goes on. A partition
 * must compress every round, an empty delta too, or its next round finds no residual. With {@link
 * DeltaCompression#NONE} nothing is lost and nothing is stored.
 */
public final class ErrorFeedback {
  private final DeltaCompression compression;
  private final String run;
  private final int partition;

  /**
   * @param run the training run's id, chosen by the driver, the same in every round
   * @param partition the task's partition
   */
  public ErrorFeedback(DeltaCompression compression, String run, int partition) {
    this.compression = compression;
    this.run = run;
    this.partition = partition;
  }

  /** What one round sends and what it keeps for the next. */
  record Step(QuantizedDelta payload, Residual residual) {}

  /** Round {@code round}'s (from 0) payload of the dense {@code delta}. */
  public QuantizedDelta compress(int round, double[] delta) {
    if (compression == DeltaCompression.NONE) {
      return QuantizedDelta.dense(delta, compression);
    }
    Optional<Residual> previous = previous(round);
    return keep(round, previous, dense(delta, previous.orElse(null), compression));
  }

  /**
   * Round {@code round}'s (from 0) payload of the sparse delta that is {@code values} at {@code
   * indices} (strictly increasing) and zero elsewhere among its {@code size} coordinates; it also
   * carries the coordinates where the residual is not zero.
   */
  public QuantizedDelta compress(int round, int size, int[] indices, double[] values) {
    if (compression == DeltaCompression.NONE) {
      return QuantizedDelta.sparse(size, indices, values, compression);
    }
    Optional<Residual> previous = previous(round);
    return keep(round, previous, sparse(size, indices, values, previous.orElse(null), compression));
  }

  private Optional<Residual> previous(int round) {
    return round == 0 ? Optional.empty() : ResidualStore.read(run, partition, round - 1);
  }

  private QuantizedDelta keep(int round, Optional<Residual> previous, Step step) {
    ResidualStore.write(run, partition, round, step.residual());
    return round > 0 && previous.isEmpty() ? step.payload().withResidualLost() : step.payload();
  }

  /** Compresses {@code delta + previous} (null: zero), dense. */
  static Step dense(double[] delta, Residual previous, DeltaCompression compression) {
    double[] combined = delta.clone();
    if (previous != null) {
      previous.addTo(combined);
    }
    QuantizedDelta payload = QuantizedDelta.dense(combined, compression);
    double[] decoded = payload.decodedValues();
    for (int j = 0; j < combined.length; j++) {
      combined[j] -= decoded[j];
    }
    return new Step(payload, new Residual(combined.length, null, combined));
  }

  /**
   * Compresses {@code delta + previous} (null: zero) over the coordinates either holds, sparse; the
   * new residual keeps only its coordinates that are not zero.
   */
  static Step sparse(
      int size, int[] indices, double[] values, Residual previous, DeltaCompression compression) {
    QuantizedDelta.checkSparse(size, indices, values);
    if (previous != null) {
      previous.requireSize(size);
    }
    Residual held =
        previous == null ? new Residual(size, new int[0], new double[0]) : nonZeros(previous);
    int[] heldIndices = held.indices();
    double[] heldValues = held.values();
    int[] union = new int[indices.length + heldIndices.length];
    double[] combined = new double[union.length];
    int n = 0;
    for (int i = 0, k = 0; i < indices.length || k < heldIndices.length; n++) {
      boolean fromDelta =
          k == heldIndices.length || (i < indices.length && indices[i] <= heldIndices[k]);
      boolean fromHeld =
          i == indices.length || (k < heldIndices.length && heldIndices[k] <= indices[i]);
      union[n] = fromDelta ? indices[i] : heldIndices[k];
      combined[n] = (fromDelta ? values[i++] : 0) + (fromHeld ? heldValues[k++] : 0);
    }
    union = Arrays.copyOf(union, n);
    combined = Arrays.copyOf(combined, n);
    QuantizedDelta payload = QuantizedDelta.sparse(size, union, combined, compression);
    double[] decoded = payload.decodedValues();
    int kept = 0;
    for (int i = 0; i < n; i++) {
      double r = combined[i] - decoded[i];
      if (r != 0) {
        union[kept] = union[i];
        combined[kept++] = r;
      }
    }
    return new Step(
        payload, new Residual(size, Arrays.copyOf(union, kept), Arrays.copyOf(combined, kept)));
  }

  /** {@code residual} as its non-zero coordinates. */
  private static Residual nonZeros(Residual residual) {
    if (residual.indices() != null) {
      return residual;
    }
    double[] values = residual.values();
    int[] indices = new int[values.length];
    double[] kept = new double[values.length];
    int n = 0;
    for (int j = 0; j < values.length; j++) {
      if (values[j] != 0) {
        indices[n] = j;
        kept[n++] = values[j];
      }
    }
    return new Residual(residual.size(), Arrays.copyOf(indices, n), Arrays.copyOf(kept, n));
  }
}
