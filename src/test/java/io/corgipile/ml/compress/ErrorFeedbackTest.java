package io.corgipile.ml.compress;

import static io.corgipile.ml.compress.QuantizedDeltaTest.randomDelta;
import static io.corgipile.ml.compress.QuantizedDeltaTest.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ErrorFeedbackTest {
  private static final int N = 600;

  /** A run id no other test uses: the store is one per JVM. */
  private static String newRun() {
    return "test-" + UUID.randomUUID();
  }

  /**
   * Deltas whose int8 rounding errs the same way every round: a chunk spans [-1, 1], so one step is
   * 2/255, and coordinate 1 is 0.3 steps above a code every round.
   */
  private static double[] biasedDelta(int round) {
    double[] delta = randomDelta(N, round);
    delta[0] = -1;
    delta[2] = 1;
    delta[1] = -1 + 0.3 * 2 / 255;
    for (int j = 3; j < QuantizedDelta.CHUNK; j++) {
      delta[j] = Math.max(-1, Math.min(1, delta[j]));
    }
    return delta;
  }

  private static double maxAbs(double[] v) {
    return Arrays.stream(v).map(Math::abs).max().orElse(0);
  }

  @Test
  void theDecodedDeltasTrackTheTrueOnesWithinOneRoundsError() {
    String run = newRun();
    ErrorFeedback feedback = new ErrorFeedback(DeltaCompression.INT8, run, 3);
    int rounds = 50;
    double[] trueSum = new double[N];
    double[] sentSum = new double[N];
    double[] withoutFeedback = new double[N];
    double lastBound = 0;
    for (int round = 0; round < rounds; round++) {
      double[] delta = biasedDelta(round);
      double[] combined = delta.clone();
      if (round > 0) {
        ResidualStore.read(run, 3, round - 1).orElseThrow().addTo(combined);
      }
      // both signs: the chunk spares a level to put zero on its grid
      lastBound =
          (Arrays.stream(combined).max().orElseThrow()
                  - Arrays.stream(combined).min().orElseThrow())
              / 254
              / 2;
      QuantizedDelta payload = feedback.compress(round, delta);
      assertThat(payload.residualLost()).isFalse();
      payload.addTo(sentSum, 1);
      QuantizedDelta.dense(delta, DeltaCompression.INT8).addTo(withoutFeedback, 1);
      for (int j = 0; j < N; j++) {
        trueSum[j] += delta[j];
      }
    }
    double[] error = new double[N];
    double[] drift = new double[N];
    for (int j = 0; j < N; j++) {
      error[j] = sentSum[j] - trueSum[j];
      drift[j] = withoutFeedback[j] - trueSum[j];
    }
    // what the driver got misses only the last residual, at most half a step of the last round
    assertThat(maxAbs(error)).isLessThanOrEqualTo(lastBound * (1 + 1e-9));
    // without feedback, coordinate 1 loses 0.3 steps every round
    assertThat(Math.abs(drift[1])).isGreaterThan(rounds * 0.29 * 2 / 255);
  }

  @Test
  void sparseDeltasCarryTheResidualsCoordinatesToo() {
    String run = newRun();
    ErrorFeedback feedback = new ErrorFeedback(DeltaCompression.INT8, run, 0);
    double[] trueSum = new double[N];
    double[] sentSum = new double[N];
    int[][] touched = {{0, 5, 9, 400}, {5, 6, 599}, {}, {1, 400}};
    for (int round = 0; round < touched.length; round++) {
      double[] values =
          Arrays.stream(touched[round]).mapToDouble(j -> Math.sin(j + 0.5) * 3).toArray();
      QuantizedDelta payload = feedback.compress(round, N, touched[round], values);
      payload.addTo(sentSum, 1);
      for (int i = 0; i < values.length; i++) {
        trueSum[touched[round][i]] += values[i];
      }
      Residual residual = ResidualStore.read(run, 0, round).orElseThrow();
      double[] missing = new double[N];
      residual.addTo(missing);
      for (int j = 0; j < N; j++) {
        assertThat(sentSum[j] + missing[j]).isCloseTo(trueSum[j], within(1e-12));
      }
      assertThat(residual.indices()).doesNotContain(2, 3, 100);
    }
  }

  @Test
  void aRetriedRoundSendsTheSameBytesAndLeavesTheNextRoundAlone() {
    String run = newRun();
    ErrorFeedback first = new ErrorFeedback(DeltaCompression.INT8, run, 1);
    first.compress(0, biasedDelta(0));
    byte[] round1 = serialize(first.compress(1, biasedDelta(1)));
    byte[] retried =
        serialize(new ErrorFeedback(DeltaCompression.INT8, run, 1).compress(1, biasedDelta(1)));
    assertThat(retried).isEqualTo(round1);
    byte[] round2 = serialize(first.compress(2, biasedDelta(2)));

    String failureFree = newRun();
    ErrorFeedback once = new ErrorFeedback(DeltaCompression.INT8, failureFree, 1);
    once.compress(0, biasedDelta(0));
    once.compress(1, biasedDelta(1));
    assertThat(serialize(once.compress(2, biasedDelta(2)))).isEqualTo(round2);
  }

  @Test
  void aMissingResidualRestartsAtZeroAndIsReported() {
    String run = newRun();
    ErrorFeedback feedback = new ErrorFeedback(DeltaCompression.INT8, run, 2);
    double[] delta = biasedDelta(7);
    QuantizedDelta payload = feedback.compress(7, delta);
    assertThat(payload.residualLost()).isTrue();
    assertThat(payload.decode())
        .containsExactly(QuantizedDelta.dense(delta, DeltaCompression.INT8).decode());
    assertThat(feedback.compress(8, delta).residualLost()).isFalse();
    assertThat(feedback.compress(0, delta).residualLost())
        .as("round 0 has no previous round")
        .isFalse();
  }

  @Test
  void noneSendsTheDeltaAsIsAndStoresNothing() {
    String run = newRun();
    ErrorFeedback feedback = new ErrorFeedback(DeltaCompression.NONE, run, 0);
    double[] delta = randomDelta(N, 9);
    assertThat(feedback.compress(5, delta).decode()).containsExactly(delta);
    QuantizedDelta sparse = feedback.compress(6, N, new int[] {4}, new double[] {0.1});
    assertThat(sparse.residualLost()).isFalse();
    assertThat(sparse.payloadBytes()).isEqualTo(1 + 8);
    assertThat(ResidualStore.read(run, 0, 5)).isEmpty();
  }

  @Test
  void theResidualMustFitTheDelta() {
    Residual previous = new Residual(3, null, new double[3]);
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

  @Test
  void aPartitionKeepsAtMostTwoRounds() {
    String run = newRun();
    Residual residual = new Residual(1, null, new double[] {0.5});
    for (int round = 0; round <= 5; round++) {
      ResidualStore.write(run, 4, round, residual);
    }
    assertThat(ResidualStore.read(run, 4, 3)).isEmpty();
    assertThat(ResidualStore.read(run, 4, 4)).contains(residual);
    assertThat(ResidualStore.read(run, 4, 5)).contains(residual);
    // a late attempt of an earlier round writes nothing; a retry does not replace what is there
    ResidualStore.write(run, 4, 3, residual);
    assertThat(ResidualStore.read(run, 4, 3)).isEmpty();
    Residual other = new Residual(1, null, new double[] {-1});
    ResidualStore.write(run, 4, 5, other);
    assertThat(ResidualStore.read(run, 4, 5)).contains(residual);
    ResidualStore.clear(run);
    assertThat(ResidualStore.read(run, 4, 5)).isEmpty();
  }

  @Test
  void theStoreKeepsTheRunsUsedLast() {
    Residual residual = new Residual(1, null, new double[] {0.5});
    String[] runs = new String[ResidualStore.RUNS_KEPT];
    for (int i = 0; i < runs.length; i++) {
      runs[i] = newRun();
      ResidualStore.write(runs[i], 0, 0, residual);
    }
    ResidualStore.read(runs[0], 0, 0); // reading keeps run 0 in use
    String newest = newRun();
    ResidualStore.write(newest, 0, 0, residual);
    assertThat(ResidualStore.read(runs[1], 0, 0)).as("the least recently used run").isEmpty();
    runs[1] = newest;
    for (String kept : runs) {
      assertThat(ResidualStore.read(kept, 0, 0)).contains(residual);
    }
  }
}
