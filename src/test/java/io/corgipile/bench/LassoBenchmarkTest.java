package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lasso benchmark's arguments, true model and summary (its runs need minutes: scripts/bench
 * lasso).
 */
class LassoBenchmarkTest {
  @Test
  void argumentsHaveTheDocumentedDefaultsAndRefuseWhatIsNotAllowed() {
    LassoBenchmark.Settings s = LassoBenchmark.Settings.parse(new String[0]);
    assertThat(s.rows()).isEqualTo(100_000);
    assertThat(s.features()).isEqualTo(1000);
    assertThat(s.block()).isEqualTo(25);
    assertThat(s.sizes()).containsExactly(8, 32, 128);
    assertThat(s.schedulers()).containsExactly("priority+dependency", "priority", "random");
    assertThat(s.table())
        .isEqualTo(Path.of("target/bench-data/lasso-100000-1000-b25-c0.9-s10-seed1"));
    LassoBenchmark.Settings set =
        LassoBenchmark.Settings.parse(
            new String[] {
              "--rows",
              "2_000",
              "--sizes",
              "4,16",
              "--schedulers",
              "random",
              "--floors",
              "1e-4,1e-2",
              "--candidate-factor",
              "3"
            });
    assertThat(set.rows()).isEqualTo(2000);
    assertThat(set.sizes()).containsExactly(4, 16);
    assertThat(set.floors()).containsExactly(1e-4, 1e-2);
    assertThat(set.candidateFactor()).isEqualTo(3.0);
    assertThatThrownBy(
            () -> LassoBenchmark.Settings.parse(new String[] {"--schedulers", "shotgun"}))
        .hasMessage(
            "Cannot use scheduler 'shotgun': allowed values are priority+dependency, priority,"
                + " random");
    assertThatThrownBy(() -> LassoBenchmark.Settings.parse(new String[] {"--lambda", "1"}))
        .hasMessageStartingWith("Cannot read option --lambda: options are --rows [100000]");
  }

  @Test
  void theTrueModelHasACoefficientOnEveryStrideThFeature() {
    assertThat(LassoBenchmark.trueCoefficient(0, 10)).isEqualTo(1.0);
    assertThat(LassoBenchmark.trueCoefficient(10, 10)).isEqualTo(-(1 + 3 / 7.0));
    assertThat(LassoBenchmark.trueCoefficient(5, 10)).isZero();
  }

  @Test
  void theSummaryJudgesBothGoalsFromTheRuns() {
    LassoBenchmark.Settings s = LassoBenchmark.Settings.parse(new String[] {"--sizes", "8,128"});
    List<LassoBenchmark.Outcome> outcomes =
        List.of(
            new LassoBenchmark.Outcome(
                "mllib", "owlqn", 0, 98, 0, 30.0, 6.0, 100, "maxIter 100, tol 1.0E-6", 30.0),
            new LassoBenchmark.Outcome(
                "priority+dependency L=128",
                "priority+dependency",
                128,
                2000,
                50_000,
                40.0,
                5.9999999,
                100,
                "converged (tol 1.0E-8)",
                25.0),
            new LassoBenchmark.Outcome(
                "random L=128",
                "random",
                128,
                11,
                1408,
                5.0,
                1e8,
                -1,
                "diverged at round 11",
                Double.NaN));
    String summary = LassoBenchmark.summary(s, outcomes, 6.0, 30.0);
    assertThat(summary)
        .contains(
            "| priority+dependency L=128 | 2000 | 50,000 | 40.0 | 5.999999900 | -1.67e-08 | 100 |"
                + " converged (tol 1.0E-8) | 25.0 | 1.20x |")
        .contains(
            "| random L=128 | 11 | 1,408 | 5.0 | 100000000.0 | 1.67e+07 |  | diverged at round 11 |"
                + " not reached |  |")
        .contains(
            "- Goal, time: priority+dependency L=128 reached MLlib's objective (relative gap"
                + " 1.0E-4) in 25.0 s, MLlib took 30.0 s (1.20x): met.")
        .contains("- Goal, L=128: random diverged at round 11");
  }
}
