package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The gradient-averaging baseline of the scale benchmark, on tiny data made here. */
class GradAvgBaselineTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("features", SQLDataTypes.VectorType())
          .add("label", DataTypes.DoubleType);

  /** {@code rows} as a DataFrame of {@code partitions} partitions, in order. */
  private static Dataset<Row> frame(List<Row> rows, int partitions) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SharedSpark.get().sparkContext());
    return SharedSpark.get().createDataFrame(jsc.parallelize(rows, partitions), SCHEMA);
  }

  private static Row row(Vector x, double y) {
    return RowFactory.create(x, y);
  }

  /**
   * Row i is the one-hot vector of coordinate i with label 1: its gradient moves coordinate i
   * alone, upwards, so a coefficient above 0 says its row was visited, and the rows counted say how
   * often.
   */
  @Test
  void anEpochVisitsEveryRowExactlyOnce() {
    int n = 37;
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      rows.add(row(Vectors.sparse(n, new int[] {i}, new double[] {1}), 1));
    }
    // 12, 12 and 13 rows: mini-batches of 4, so 4 steps, the smaller partitions' last of 0 rows
    List<GradAvgBaseline.EpochResult> epochs = GradAvgBaseline.train(frame(rows, 3), 2, 4, 1.0, 7);

    GradAvgBaseline.EpochResult first = epochs.get(0);
    assertThat(first.steps()).isEqualTo(4);
    assertThat(first.rows()).isEqualTo(n);
    assertThat(java.util.Arrays.stream(first.coefficients()).min().orElseThrow()).isPositive();
    assertThat(epochs.get(1).rows()).isEqualTo(n);
    assertThat(first.bytesToExecutors()).isPositive();
    assertThat(first.bytesFromExecutors()).isPositive();
  }

  @Test
  void aSeedGivesTheSameModelBitForBitAndAnotherSeedAnother() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      double a = Math.sin(i);
      double b = Math.cos(3 * i);
      rows.add(row(Vectors.dense(a, b, a * b), a - 0.5 * b > 0.1 ? 1 : 0));
    }
    Dataset<Row> train = frame(rows, 4);

    GradAvgBaseline.EpochResult once = GradAvgBaseline.train(train, 2, 5, 1.0, 3).get(1);
    GradAvgBaseline.EpochResult again = GradAvgBaseline.train(train, 2, 5, 1.0, 3).get(1);
    GradAvgBaseline.EpochResult otherSeed = GradAvgBaseline.train(train, 2, 5, 1.0, 4).get(1);

    assertThat(again.coefficients()).isEqualTo(once.coefficients());
    assertThat(again.intercept()).isEqualTo(once.intercept());
    assertThat(otherSeed.coefficients()).isNotEqualTo(once.coefficients());
  }

  /**
   * One row per partition, one step from w = 0, b = 0: both residuals are sigmoid(0) - 1 = -0.5, so
   * the mean gradient is -0.5 * ((1, 2) + (3, -1)) / 2 = (-1, -0.25) with -0.5 for the intercept,
   * and a step of 0.5 gives w = (0.5, 0.125), b = 0.25, all exact in binary.
   */
  @Test
  void aStepIsTheLearningRateTimesTheMeanLogisticGradient() {
    Dataset<Row> train =
        frame(List.of(row(Vectors.dense(1, 2), 1), row(Vectors.dense(3, -1), 1)), 2);

    GradAvgBaseline.EpochResult step = GradAvgBaseline.train(train, 1, 1, 0.5, 7).get(0);

    assertThat(step.steps()).isEqualTo(1);
    assertThat(step.coefficients()).containsExactly(0.5, 0.125);
    assertThat(step.intercept()).isEqualTo(0.25);
  }

  @Test
  void refusesStepsPerEpochBelowOne() {
    Dataset<Row> train = frame(List.of(row(Vectors.dense(1), 1)), 1);
    assertThatThrownBy(() -> GradAvgBaseline.train(train, 1, 0, 1.0, 7))
        .hasMessage("Cannot train gradavg with 0 steps per epoch: it needs at least 1");
  }
}
