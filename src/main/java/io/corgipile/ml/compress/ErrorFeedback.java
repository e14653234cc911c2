package io.corgipile.ml.compress;

import java.util.Arrays;

/**
 * Error feedback for compressed deltas (as in Bagua's and 1-bit SGD's low-precision communication):
 * a partition compresses its round's delta plus what compression lost of its earlier deltas, its
 * residual, and returns the new residual {@code (delta + residual) - decoded} with the payload.
 * What the driver receives over all rounds then sums to the true deltas up to the last round's
 * quantization error, instead of an error growing round by round.
 *
 * <p>Tasks keep nothing between rounds: the driver keeps each partition's latest residual and sends
 * it with the partition's next task, so a retried task, or one that Spark runs on another executor
 * (after its executor was lost, for one), computes from the same inputs and sends the same bytes.
 * The residual travels as an INT8 payload itself ({@link QuantizedDelta#compact}): in float64 it
 * would cost more than the uncompressed delta. What its own rounding loses, at most half a step of
 * a grid about 254 times finer than the payload's, is dropped; the next round adds the decoded
 * residual, the same bits on every run.
 *
 * <p>Pure functions of their arguments, bit for bit the same on every JVM.
 */
public final class ErrorFeedback {
  private ErrorFeedback() {}

  /**
   * What one round sends.
   *
   * @param payload the round's delta plus the previous residual, compressed
   * @param residual what compressing lost, compressed, for the partition's next round; null with
   *     {@link DeltaCompression#NONE}, which loses nothing
   */
  public record Step(QuantizedDelta payload, QuantizedDelta residual) {}

  /**
   * Compresses the dense {@code delta} plus {@code previous} (null: zero), dense.
   *
   * @param previous the residual the partition's previous round returned
   */
  public static Step dense(double[] delta, QuantizedDelta previous, DeltaCompression compression) {
    if (compression == DeltaCompression.NONE) {
      return new Step(QuantizedDelta.dense(delta, compression), null);
    }
    double[] combined = delta.clone();
    if (previous != null) {
      requireSize(previous, combined.length);
      previous.addTo(combined, 1.0);
    }
    QuantizedDelta payload = QuantizedDelta.dense(combined, compression);
    double[] decoded = payload.decodedValues();
    for (int j = 0; j < combined.length; j++) {
      combined[j] -= decoded[j];
    }
    return new Step(payload, QuantizedDelta.compact(combined.length, null, combined, compression));
  }

  /**
   * Compresses the sparse delta that is {@code values} at {@code indices} (strictly increasing) and
   * zero elsewhere among its {@code size} coordinates, plus {@code previous} (null: zero), over the
   * coordinates either holds, sparse.
   *
   * @param previous the residual the partition's previous round returned
   */
  public static Step sparse(
      int size,
      int[] indices,
      double[] values,
      QuantizedDelta previous,
      DeltaCompression compression) {
    if (compression == DeltaCompression.NONE) {
      return new Step(QuantizedDelta.sparse(size, indices, values, compression), null);
    }
    QuantizedDelta.checkSparse(size, indices, values);
    int[] heldIndices = new int[0];
    double[] heldValues = new double[0];
    if (previous != null) {
      requireSize(previous, size);
      heldValues = previous.decodedValues();
      heldIndices = previous.indices();
      if (heldIndices == null) {
        heldIndices = new int[size];
        Arrays.setAll(heldIndices, j -> j);
      }
    }
    int[] union = new int[indices.length + heldIndices.length];
    double[] combined = new double[union.length];
    int n = 0;
    for (int i = 0, k = 0; i < indices.length || k < heldIndices.length; ) {
      boolean fromDelta =
          k == heldIndices.length || (i < indices.length && indices[i] <= heldIndices[k]);
      boolean fromHeld =
          i == indices.length || (k < heldIndices.length && heldIndices[k] <= indices[i]);
      int index = fromDelta ? indices[i] : heldIndices[k];
      double value = (fromDelta ? values[i++] : 0) + (fromHeld ? heldValues[k++] : 0);
      if (fromDelta || value != 0) { // a residual's coordinate that decodes to 0 holds nothing
        union[n] = index;
        combined[n++] = value;
      }
    }
    union = Arrays.copyOf(union, n);
    combined = Arrays.copyOf(combined, n);
    QuantizedDelta payload = QuantizedDelta.sparse(size, union, combined, compression);
    double[] decoded = payload.decodedValues();
    for (int i = 0; i < n; i++) {
      combined[i] -= decoded[i];
    }
    return new Step(payload, QuantizedDelta.compact(size, union, combined, compression));
  }

  private static void requireSize(QuantizedDelta residual, int deltaSize) {
    if (residual.size() != deltaSize) {
      throw new IllegalArgumentException(
          "Cannot add a residual of "
              + residual.size()
              + " coordinates to a delta of "
              + deltaSize
              + "; a partition's deltas must keep their number of coordinates from round to round");
    }
  }
}
