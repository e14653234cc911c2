package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fitting the cost model to pilot epochs: which terms a pilot can tell apart, and what it predicts.
 */
class RoundCostModelTest {
  /** An epoch costing 0.5 s + 0.02 s per task + 0.1 s per round + 3 s per MiB, exactly. */
  private static RoundCostModel.Observation epoch(int tasks, int rounds, double mebibytes) {
    return new RoundCostModel.Observation(
        tasks, rounds, mebibytes, 0.5 + 0.02 * tasks + 0.1 * rounds + 3 * mebibytes);
  }

  @Test
  void findsEveryCostWhenThePilotVariesTheTermsApart() {
    List<RoundCostModel.Observation> pilot =
        List.of(
            epoch(2, 1, 0.01),
            epoch(20, 10, 0.05),
            epoch(8, 1, 0.2),
            epoch(88, 11, 0.1),
            epoch(16, 8, 0.4));

    RoundCostModel model = RoundCostModel.fit(pilot);

    assertThat(model.describe())
        .isEqualTo("0.500 s + 0.0200 s per task + 0.1000 s per round + 3.0000 s per MiB");
    assertThat(model.predict(256, 2, 0.6)).isCloseTo(epoch(256, 2, 0.6).seconds(), within(1e-9));
  }

  /**
   * Bytes that grow with tasks (Spark's metrics per task result) cannot be told from tasks: the
   * model leaves them out, and tasks carry their cost, instead of an arbitrary split between the
   * two.
   */
  @Test
  void leavesOutBytesThatGrowWithTasksAndChargesTheirCostToTasks() {
    List<RoundCostModel.Observation> pilot = new ArrayList<>();
    for (int[] run : new int[][] {{2, 1}, {20, 10}, {8, 1}, {88, 11}}) {
      double mebibytes =
          run[0] * 0.0015 + run[1] * 0.0001 * (run[0] % 3); // nearly proportional to tasks
      pilot.add(
          new RoundCostModel.Observation(
              run[0], run[1], mebibytes, 0.5 + 0.02 * run[0] + 0.1 * run[1]));
    }

    RoundCostModel model = RoundCostModel.fit(pilot);

    assertThat(model.describe()).endsWith("+ 0.0000 s per MiB");
    assertThat(model.predict(256, 2, 0.4)).isCloseTo(0.5 + 0.02 * 256 + 0.1 * 2, within(0.01));
  }

  @Test
  void leavesOutTermsThePilotDoesNotVary() {
    List<RoundCostModel.Observation> pilot =
        List.of(
            new RoundCostModel.Observation(2, 1, 0.01, 1.0),
            new RoundCostModel.Observation(8, 1, 0.01, 1.6));

    RoundCostModel model = RoundCostModel.fit(pilot);

    assertThat(model.describe())
        .isEqualTo("0.800 s + 0.1000 s per task + 0.0000 s per round + 0.0000 s per MiB");
  }

  /** A cost that would come out negative (noise) is left out and the others fitted again. */
  @Test
  void noCostIsNegative() {
    List<RoundCostModel.Observation> pilot =
        List.of(
            new RoundCostModel.Observation(2, 1, 0, 1.0),
            new RoundCostModel.Observation(8, 1, 0, 0.9),
            new RoundCostModel.Observation(20, 10, 0, 2.0),
            new RoundCostModel.Observation(88, 11, 0, 2.1));

    RoundCostModel model = RoundCostModel.fit(pilot);

    assertThat(model.describe()).doesNotContain("-");
    assertThat(model.predict(88, 11, 0)).isGreaterThan(model.predict(8, 1, 0));
  }
}
