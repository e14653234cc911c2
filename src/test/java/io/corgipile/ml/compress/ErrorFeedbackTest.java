package io.corgipile.ml.compress;

import static io.corgipile.ml.compress.QuantizedDeltaTest.randomDelta;
import static io.corgipile.ml.compress.QuantizedDeltaTest.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorFeedbackTest {
  private static final int N = 600;

  /**
   * Deltas whose int8 rounding errs the same way every round: a chunk spans [-1, 1], so one step is
   * 2/254 (both signs: a level is spared to put zero on the grid), and coordinate 1 is 0.3 steps
   * above a code every round.
   */
  private static double[] biasedDelta(int round) {
    double[] delta = randomDelta(N, round);
    delta[0] = -1;
    delta[2] = 1;
    delta[1] = -1 + 0.3 * 2 / 254;
    for (int j = 3; j < QuantizedDelta.CHUNK; j++) {
      delta[j] = Math.max(-1, Math.min(1, delta[j]));
    }
    return delta;
  }

  private static double maxAbs(double[] v) {
    return Arrays.stream(v).map(Math::abs).max().orElse(0);
  }

  /** Half a step of a grid over {@code values} (min to max; both signs: 254 steps). */
  private static double halfStep(double[] values) {
    double min = Arrays.stream(values).min().orElse(0);
    double max = Arrays.stream(values).max().orElse(0);
    return (max - min) / (min < 0 && max > 0 ? 254 : 255) / 2;
  }

  /**
   * Follows a partition's rounds as the driver and its tasks run them: each round adds the residual
   * the previous one returned, and keeps the sums of the true deltas, of the decoded payloads (what
   * the driver added) and of what rounding the residuals lost.
   */
  private static final class Rounds {
    final double[] trueSum = new double[N];
    final double[] sentSum = new double[N];
    final double[] residualRoundingSum = new double[N];
    final List<Double> residualErrors = new ArrayList<>();
    final List<Double> payloadHalfSteps = new ArrayList<>();
    QuantizedDelta residual;

    /** One round of {@code delta} given at {@code indices} (null: dense). */
    ErrorFeedback.Step round(int[] indices, double[] delta) {
      double[] dense = new double[N];
      for (int i = 0; i < delta.length; i++) {
        dense[indices == null ? i : indices[i]] = delta[i];
      }
      double[] combined = dense.clone();
      if (residual != null) {
        residual.addTo(combined, 1);
      }
      ErrorFeedback.Step step =
          indices == null
              ? ErrorFeedback.dense(delta, residual, DeltaCompression.INT8)
              : ErrorFeedback.sparse(N, indices, delta, residual, DeltaCompression.INT8);
      double[] sent = step.payload().decode();
      double[] kept = step.residual().decode();
      payloadHalfSteps.add(halfStep(combinedAt(step.payload(), combined)));
      double error = 0;
      for (int j = 0; j < N; j++) {
        double trueResidual = combined[j] - sent[j];
        double rounding = kept[j] - trueResidual;
        error = Math.max(error, Math.abs(rounding));
        residualRoundingSum[j] += rounding;
        trueSum[j] += dense[j];
        sentSum[j] += sent[j];
      }
      residualErrors.add(error);
      residual = step.residual();
      return step;
    }

    /** {@code combined} at the coordinates {@code payload} carries. */
    private static double[] combinedAt(QuantizedDelta payload, double[] combined) {
      int[] indices = payload.indices();
      return indices == null
          ? combined
          : Arrays.stream(indices).mapToDouble(j -> combined[j]).toArray();
    }

    /**
     * The identity of error feedback: what the driver got, plus the residual still to send, minus
     * what the residuals' own rounding added, is the sum of the true deltas.
     */
    void checkIdentity() {
      double[] pending = residual.decode();
      for (int j = 0; j < N; j++) {
        assertThat(sentSum[j] + pending[j] - residualRoundingSum[j])
            .as("coordinate %d", j)
            .isCloseTo(trueSum[j], within(1e-12));
      }
    }
  }

  @Test
  void theDecodedPayloadsTrackTheTrueDeltasUpToTheLastRoundsErrorAndTheResidualsRounding() {
    Rounds rounds = new Rounds();
    int count = 50;
    double[] withoutFeedback = new double[N];
    for (int round = 0; round < count; round++) {
      double[] delta = biasedDelta(round);
      rounds.round(null, delta);
      QuantizedDelta.dense(delta, DeltaCompression.INT8).addTo(withoutFeedback, 1);
      // the residual's own rounding is second order: its grid is about 254 times finer
      assertThat(rounds.residualErrors.get(round))
          .isLessThanOrEqualTo(rounds.payloadHalfSteps.get(round) / 254 * (1 + 1e-6));
    }
    rounds.checkIdentity();
    double lastBound = rounds.payloadHalfSteps.get(count - 1);
    double roundingBound = rounds.residualErrors.stream().mapToDouble(Double::doubleValue).sum();
    double[] error = new double[N];
    for (int j = 0; j < N; j++) {
      error[j] = rounds.sentSum[j] - rounds.trueSum[j];
    }
    // the last residual (half a step, plus its rounding) and what the residuals' rounding added
    assertThat(maxAbs(error)).isLessThanOrEqualTo((lastBound + 2 * roundingBound) * (1 + 1e-9));
    assertThat(roundingBound).isLessThan(0.25 * lastBound);
    // without feedback, coordinate 1 loses 0.3 steps every round; with it, less than one step
    double step = 2.0 / 254;
    assertThat(Math.abs(withoutFeedback[1] - rounds.trueSum[1])).isGreaterThan(count * 0.29 * step);
    assertThat(Math.abs(error[1])).isLessThan(step);
  }

  @Test
  void sparseDeltasCarryTheResidualsCoordinatesToo() {
    Rounds rounds = new Rounds();
    int[][] touched = {{0, 5, 9, 400}, {5, 6, 599}, {}, {1, 400}};
    for (int[] indices : touched) {
      double[] values = Arrays.stream(indices).mapToDouble(j -> Math.sin(j + 0.5) * 3).toArray();
      ErrorFeedback.Step step = rounds.round(indices, values);
      rounds.checkIdentity();
      assertThat(step.residual().indices()).doesNotContain(2, 3, 100);
    }
  }

  @Test
  void roundsMayAlternateBetweenDenseAndSparse() {
    Rounds rounds = new Rounds();
    rounds.round(new int[] {4, 17, 300}, new double[] {0.3, -0.7, 1.1});
    assertThat(rounds.residual.indices()).isNotNull(); // few coordinates: sparse
    rounds.round(null, biasedDelta(1));
    assertThat(rounds.residual.indices()).isNull(); // a dense round's residual is dense
    rounds.checkIdentity();
    ErrorFeedback.Step sparse = rounds.round(new int[] {8}, new double[] {0.25});
    rounds.checkIdentity();
    // the dense residual's coordinates travel with the sparse delta, where it is not zero
    assertThat(sparse.payload().indices().length).isGreaterThan(N / 2);
    rounds.round(null, biasedDelta(2));
    rounds.checkIdentity();
  }

  /**
   * A retried task, or one rerun on another executor, gets the residual its partition returned last
   * from the driver, and so sends the same bytes.
   */
  @Test
  void theSameDeltaAndResidualGiveTheSameBytes() {
    QuantizedDelta residual = null;
    for (int round = 0; round < 5; round++) {
      ErrorFeedback.Step first =
          ErrorFeedback.dense(biasedDelta(round), residual, DeltaCompression.INT8);
      QuantizedDelta sentBack = QuantizedDeltaTest.throughKryo(residual);
      ErrorFeedback.Step retried =
          ErrorFeedback.dense(biasedDelta(round), sentBack, DeltaCompression.INT8);
      assertThat(serialize(retried.payload())).isEqualTo(serialize(first.payload()));
      assertThat(serialize(retried.residual())).isEqualTo(serialize(first.residual()));
      residual = first.residual();
    }
  }

  /**
   * What the driver sends a task arrives whole. (Through Java serialization: Spark's Kryo cannot
   * write records, the partitions' results included, so training needs the default serializer.)
   */
  @Test
  void aPartitionsResidualTravelsWhole() throws Exception {
    QuantizedDelta residual =
        ErrorFeedback.dense(biasedDelta(3), null, DeltaCompression.INT8).residual();
    for (PartitionResidual sent :
        new PartitionResidual[] {
          new PartitionResidual(5, residual), new PartitionResidual(2, null)
        }) {
      PartitionResidual read = QuantizedDeltaTest.deserialize(serialize(sent));
      assertThat(read.partition()).isEqualTo(sent.partition());
      assertThat(read.residual() == null ? null : serialize(read.residual()))
          .isEqualTo(sent.residual() == null ? null : serialize(sent.residual()));
    }
  }

  @Test
  void theResidualCostsAboutOneByteACoordinate() {
    int n = 4096;
    ErrorFeedback.Step step = ErrorFeedback.dense(randomDelta(n, 3), null, DeltaCompression.INT8);
    long int8 = QuantizedDelta.valueBytes(n, DeltaCompression.INT8);
    assertThat(step.payload().payloadBytes()).isEqualTo(int8);
    assertThat(step.residual().payloadBytes()).isEqualTo(int8);
    assertThat(8.0 * n / (2 * int8)).isGreaterThan(3.7);
  }

  @Test
  void noneSendsTheDeltaAsIsAndNoResidual() {
    double[] delta = randomDelta(N, 9);
    ErrorFeedback.Step dense = ErrorFeedback.dense(delta, null, DeltaCompression.NONE);
    assertThat(dense.payload().decode()).containsExactly(delta);
    assertThat(dense.residual()).isNull();
    ErrorFeedback.Step sparse =
        ErrorFeedback.sparse(N, new int[] {4}, new double[] {0.1}, null, DeltaCompression.NONE);
    assertThat(sparse.payload().payloadBytes()).isEqualTo(1 + 8);
    assertThat(sparse.residual()).isNull();
  }

  @Test
  void theResidualMustFitTheDelta() {
    QuantizedDelta previous =
        QuantizedDelta.dense(new double[] {0.1, 0, -1}, DeltaCompression.INT8);
    assertThatThrownBy(() -> ErrorFeedback.dense(new double[4], previous, DeltaCompression.INT8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot add a residual of 3 coordinates to a delta of 4; a partition's deltas must keep"
                + " their number of coordinates from round to round");
    assertThatThrownBy(
            () ->
                ErrorFeedback.sparse(4, new int[0], new double[0], previous, DeltaCompression.INT8))
        .hasMessage(
            "Cannot add a residual of 3 coordinates to a delta of 4; a partition's deltas must keep"
                + " their number of coordinates from round to round");
  }
}
