package io.corgipile.ml.sync;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The patience rule of {@code tol} and {@code nIterNoChange}. */
class EarlyStoppingTest {
  /** Epochs (from 1) run until the rule stops, or all of them. */
  private static int epochsRun(EarlyStopping stopping, double... objectives) {
    for (int i = 0; i < objectives.length; i++) {
      if (stopping.stopsAfter(objectives[i])) {
        return i + 1;
      }
    }
    return objectives.length;
  }

  @Test
  void stopsAfterPatienceEpochsInARowWithoutARelativeImprovementOfTolOnTheBest() {
    EarlyStopping stopping = new EarlyStopping(1e-3, 3);
    // 0.8999 is lower than 0.9 but by less than tol: no improvement, though it becomes the best
    // that epoch 4 (0.89995) is compared with
    assertThat(epochsRun(stopping, 1.0, 0.9, 0.8999, 0.89995, 0.9, 0.5)).isEqualTo(5);
  }

  @Test
  void anImprovementStartsTheCountAgain() {
    EarlyStopping stopping = new EarlyStopping(1e-3, 2);
    // epoch 2 does not improve (1 in a row), epoch 3 does (0), epochs 4 and 5 do not (2): stop
    assertThat(epochsRun(stopping, 1.0, 1.0, 0.5, 0.5, 0.5, 0.1)).isEqualTo(5);
  }

  @Test
  void patienceOneStopsAtTheFirstEpochWithoutImprovement() {
    EarlyStopping stopping = new EarlyStopping(0.01, 1);
    assertThat(epochsRun(stopping, 1.0, 0.5, 0.6, 0.1)).isEqualTo(3);
  }

  @Test
  void tolZeroNeverStops() {
    EarlyStopping stopping = new EarlyStopping(0, 1);
    assertThat(epochsRun(stopping, 1.0, 0.7, 0.8, 0.9, 0.95)).isEqualTo(5);
  }

  @Test
  void aNonFiniteFirstObjectiveIsNoImprovementToCompareWith() {
    EarlyStopping stopping = new EarlyStopping(1e-4, 1);
    assertThat(stopping.stopsAfter(0.0)).isFalse();
    assertThat(stopping.stopsAfter(0.0)).isTrue();
  }
}
