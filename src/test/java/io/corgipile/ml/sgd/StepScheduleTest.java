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
  void
      averagingPPartitionsEveryRoundHoldsStepSizeForPUpdatesThenDecaysAsTheSequentialRateAtPtTimesP() {
    int p = 16;
    assertThat(StepSchedule.INVSQRT.rate(0.1, 1, p)).isEqualTo(0.1);
    assertThat(StepSchedule.INVSQRT.rate(0.1, p, p)).isEqualTo(0.1);
    // update 4P: sequential at 4P^2 is 0.1 / (2P), times P
    assertThat(StepSchedule.INVSQRT.rate(0.1, 4L * p, p)).isEqualTo(0.05);
    assertThat(StepSchedule.INVSQRT.rate(0.1, 4L * p, p))
        .isEqualTo(p * StepSchedule.INVSQRT.rate(0.1, 4L * p * p, 1));
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
