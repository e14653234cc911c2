package io.corgipile.ml.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.ml.sgd.StartingModel;
import org.junit.jupiter.api.Test;

class ServerStepTest {
  private static RoundJob.Result mean(double[] w, double b) {
    return new RoundJob.Result(w, new double[] {b}, 1, 0, 1, 0, 7, 0, 0, 0, null);
  }

  @Test
  void stepOneWithoutMomentumGivesTheMeanItself() {
    double[] w = {0.1, -0.3};
    StartingModel next =
        new ServerStep(1, 0)
            .next(new StartingModel(new double[] {5, 5}, new double[] {2}, 3, null), mean(w, 0.7));
    assertThat(next.coefficients()).isSameAs(w);
    assertThat(next.intercepts()).containsExactly(0.7);
    assertThat(next.updatesPerPartition()).isEqualTo(7);
  }

  @Test
  void momentumCarriesTheAveragedChangeFromRoundToRound() {
    ServerStep step = new ServerStep(2, 0.5);
    // round 1 from zeros (no model yet): u = 1, next = 0 + 2 * 1
    StartingModel first = step.next(StartingModel.initial(1), mean(new double[] {1}, 1));
    assertThat(first.coefficients()).containsExactly(2);
    assertThat(first.intercepts()).containsExactly(2);
    // round 2: the mean moved 0.5 from 2: u = 0.5 * 1 + 0.5 = 1, next = 2 + 2 * 1
    StartingModel second = step.next(first, mean(new double[] {2.5}, 2.5));
    assertThat(second.coefficients()[0]).isCloseTo(4, within(1e-12));
    assertThat(second.intercepts()[0]).isCloseTo(4, within(1e-12));
  }
}
