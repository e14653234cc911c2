package io.corgipile.ml.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.TrainingData;
import io.corgipile.ml.common.FitJobs;
import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.sgd.LossFunction;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.SGDTask;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Partition models summed by slices of coordinates give what collecting them gives. */
class ScatterReduceTest {
  private static LinearFit fit(SGDRegressor estimator, Dataset<Row> data, long directBytes) {
    SGDConfig config =
        SGDConfig.of(
            estimator,
            SGDTask.REGRESSION,
            "features",
            "label",
            0,
            LossFunction.named(estimator.getLoss(), estimator.getEpsilon()));
    // in a fit's jobs, as the estimators run the optimizer: the thread's scope is restored after
    return FitJobs.run(data, "test", () -> new SGDOptimizer(config, directBytes).optimize(data));
  }

  /** With int8, the residuals of error feedback come back through the reducers too. */
  @ParameterizedTest(name = "deltaCompression {0}")
  @ValueSource(strings = {"none", "int8"})
  void reducingBySlicesGivesTheCollectedModelBitForBit(String compression) {
    Dataset<Row> data = TrainingData.linear(4_000, 7, 11, 5);
    SGDRegressor estimator =
        new SGDRegressor()
            .setMaxIter(4)
            .setTol(0)
            .setRegParam(0.01)
            .setDeltaCompression(compression);
    LinearFit collected = fit(estimator, data, Long.MAX_VALUE);
    LinearFit reduced = fit(estimator, data, 0);
    assertThat(reduced.coefficients("r").toArray())
        .containsExactly(collected.coefficients("c").toArray());
    assertThat(reduced.intercept("r")).isEqualTo(collected.intercept("c"));
    assertThat(reduced.summary("r").objectiveHistory())
        .containsExactly(collected.summary("c").objectiveHistory());
  }
}
