package io.corgipile.ml.lasso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.TrainingData;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The automatic schedule where the pairwise dependency check and a pass's candidates fall short.
 */
class LassoSolverTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("label", DataTypes.DoubleType, false)
          .add("features", SQLDataTypes.VectorType(), false);

  /** Independent standard normal features, every coefficient of the true model non-zero. */
  private static Dataset<Row> rows(int n, int p, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] x = new double[p];
      double y = 0.5 * random.nextGaussian();
      for (int j = 0; j < p; j++) {
        x[j] = random.nextGaussian();
        y += (j % 2 == 0 ? 1.0 : -0.5) * x[j];
      }
      rows.add(RowFactory.create(y, Vectors.dense(x)));
    }
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(TrainingData.spark().sparkContext());
    return TrainingData.spark().createDataFrame(sc.parallelize(rows, 2), SCHEMA);
  }

  private static ScheduledLasso lasso() {
    return new ScheduledLasso().setRegParam(1e-3).setTol(1e-12).setMaxIter(20_000);
  }

  private static double finalObjective(LassoSolver.Result result) {
    double[] history = result.summary().objectiveHistory();
    return history[history.length - 1];
  }

  @Test
  void aSupportLargerThanAPassHoldsReachesTheOptimumOfOnePassHoldingAll() {
    Dataset<Row> data = rows(400, 40, 1);
    LassoSolver.Result all = new LassoSolver(lasso(), "label", "features").fit(data);
    // every coefficient non-zero, 40 of them, and a pass holds 16: 12 of the support and 4 more
    LassoSolver.Result bounded = new LassoSolver(lasso(), "label", "features", 4, 16).fit(data);
    assertThat(bounded.coefficients()).doesNotContain(0.0);
    assertThat(bounded.summary().passesHistory()).hasSizeGreaterThan(1);
    assertThat(finalObjective(bounded))
        .isCloseTo(finalObjective(all), within(1e-9 * finalObjective(all)));
    assertThat(bounded.coefficients()).containsExactly(all.coefficients(), within(1e-5));
  }

  @Test
  void manyWeaklyCorrelatedMovesAtOnceDoNotRaiseTheObjective() {
    // 1,000 rows of 300 independent features: hardly a pair is correlated beyond the dependency
    // check's 0.1, yet all 300 moved at once overshoot (the Gram matrix's largest eigenvalue, about
    // (1 + sqrt(300 / 1000))^2 = 2.4 times a feature's own square, is above 2)
    LassoSolver.Result result =
        new LassoSolver(lasso(), "label", "features").fit(rows(1_000, 300, 2));
    double[] history = result.summary().objectiveHistory();
    for (int round = 1; round < history.length; round++) {
      assertThat(history[round]).as("round %d", round).isLessThanOrEqualTo(history[round - 1]);
    }
  }
}
