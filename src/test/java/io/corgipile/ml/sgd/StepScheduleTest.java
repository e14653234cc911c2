package io.corgipile.ml.sgd;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StepScheduleTest {
  @Test
  void invsqrtDecaysWithAPartitionsUpdates() {
    assertThat(StepSchedule.INVSQRT.rate(0.1, 1, 1)).isEqualTo(0.1);
    assertThat(StepSchedule.INVSQRT.rate(0.1, 4, 1)).isEqualTo(0.05);
    assertThat(StepSchedule.INVSQRT.rate(0.1, 7, 1))
        .isEqualTo(0.1 / Math.sqrt(7)); // bit for bit as before
  }

  @Test
  void averagingPPartitionsEveryRoundScalesTheSequentialRateAtPtByPToTheThreeQuarters() {
    int p = 16; // sqrt(P) = 4
    assertThat(StepSchedule.INVSQRT.rate(0.1, 1, p)).isEqualTo(0.1);
    assertThat(StepSchedule.INVSQRT.rate(0.1, 4, p)).isEqualTo(0.1); // capped up to sqrt(P)
    assertThat(StepSchedule.INVSQRT.rate(0.1, 16, p)).isEqualTo(0.05);
    // between the linear rule (P times the sequential rate at update P t) and the square-root rule
    // (sqrt(P) times): P^(3/4) = 8 times
    assertThat(StepSchedule.INVSQRT.rate(0.1, 16, p))
        .isEqualTo(8 * StepSchedule.INVSQRT.rate(0.1, 16L * p, 1));
  }

  @Test
  void theOtherSchedulesIgnoreTheUpdatesAndThePartitions() {
    for (StepSchedule schedule : new StepSchedule[] {StepSchedule.CONSTANT, StepSchedule.DECAY}) {
      assertThat(schedule.rate(0.1, 1, 1)).isEqualTo(0.1);
      assertThat(schedule.rate(0.1, 1000, 64)).isEqualTo(0.1);
    }
    assertThat(StepSchedule.DECAY.epochRate(0.1, 0.5, 2)).isEqualTo(0.025);
  }
}
