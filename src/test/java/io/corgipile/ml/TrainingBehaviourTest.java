package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.udf;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.TaskContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Determinism, regularization and the row formats the trainer reads. */
class TrainingBehaviourTest {
  /** Rows each task attempt has seen, for failing a task midway (local mode: one JVM). */
  private static final Map<Long, Long> ROWS_SEEN = new ConcurrentHashMap<>();

  @TempDir static Path dir;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = dir.resolve("data").toString();
    TrainingData.logistic(8_000, 6, 21, 2)
        .write()
        .option("parquet.block.row.count.limit", 250)
        .parquet(table);
  }

  private static Dataset<Row> corgipile() {
    return TrainingData.spark().read().format("corgipile").option("partitions", "2").load(table);
  }

  private static double[] coefficients(SGDClassifier classifier, Dataset<Row> data) {
    SGDClassificationModel model = classifier.setMaxIter(3).fit(data);
    double[] w = Arrays.copyOf(model.coefficients().toArray(), model.numFeatures() + 1);
    w[model.numFeatures()] = model.intercept();
    return w;
  }

  @Test
  void sameSeedDataAndPartitionsGiveTheSameModelBitForBit() {
    double[] first = coefficients(new SGDClassifier(), corgipile());
    double[] second = coefficients(new SGDClassifier(), corgipile());
    assertThat(second).containsExactly(first);
  }

  @Test
  void theSeedParamChangesTheCorgipileOrderAndSoTheModel() {
    double[] byDefault = coefficients(new SGDClassifier(), corgipile());
    double[] seeded = coefficients(new SGDClassifier().setSeed(7), corgipile());
    double[] sourceSeeded =
        coefficients(
            new SGDClassifier(),
            corgipile()
                .sparkSession()
                .read()
                .format("corgipile")
                .option("partitions", "2")
                .option("seed", "7")
                .load(table));
    assertThat(seeded).isNotEqualTo(byDefault);
    assertThat(seeded).containsExactly(sourceSeeded);
  }

  @Test
  void aTaskRetriedAfterAFailureGivesTheSameModel() {
    double[] clean = coefficients(new SGDClassifier(), corgipile());
    // Fails the first attempt of partition 0 midway in every epoch; local[2,2] retries it once.
    UDF1<Double, Double> failOnce =
        label -> {
          TaskContext task = TaskContext.get();
          if (task.partitionId() == 0
              && task.attemptNumber() == 0
              && ROWS_SEEN.merge(task.taskAttemptId(), 1L, Long::sum) > 1000) {
            throw new IllegalStateException("injected failure");
          }
          return label;
        };
    Dataset<Row> failing =
        corgipile()
            .withColumn(
                "label",
                udf(failOnce, DataTypes.DoubleType).asNondeterministic().apply(col("label")));
    assertThat(coefficients(new SGDClassifier(), failing)).containsExactly(clean);
  }

  /**
   * Without a weight column, training rows are the label and the feature columns as a scan of them
   * in that order holds them, read where the buffer holds them; a weight column of ones goes
   * through the rows copied with their weight: the same model, bit for bit.
   */
  @Test
  void aWeightColumnOfOnesTrainsTheModelOfNoWeightColumnBitForBit() {
    String columns = dir.resolve("columns").toString();
    TrainingData.logisticColumns(6_000, 5, 23, 2)
        .select("label", "x0", "x1", "x2", "x3", "x4")
        .withColumn("w", org.apache.spark.sql.functions.lit(1.0))
        .write()
        .option("parquet.block.row.count.limit", 250)
        .parquet(columns);
    Dataset<Row> data =
        TrainingData.spark().read().format("corgipile").option("partitions", "2").load(columns);
    String[] features = {"x0", "x1", "x2", "x3", "x4"};
    double[] unweighted = coefficients(new SGDClassifier().setFeaturesCols(features), data);
    double[] ones =
        coefficients(new SGDClassifier().setFeaturesCols(features).setWeightCol("w"), data);
    assertThat(ones).containsExactly(unweighted);
  }

  @Test
  void l1GivesExactZerosOnIrrelevantFeatures() {
    // features 0-3 carry the label, features 4-11 are noise
    Dataset<Row> columns = TrainingData.logisticColumns(10_000, 4, 31, 2);
    for (int i = 4; i < 12; i++) {
      columns = columns.withColumn("x" + i, org.apache.spark.sql.functions.randn(100 + i));
    }
    Dataset<Row> data = TrainingData.assemble(columns, 12);
    double[] w = coefficients(new SGDClassifier().setRegParam(0.02).setElasticNetParam(1.0), data);
    for (int i = 0; i < 4; i++) {
      assertThat(w[i]).as("coefficient %d", i).isNotZero();
    }
    for (int i = 4; i < 12; i++) {
      assertThat(w[i]).as("coefficient %d", i).isEqualTo(0.0);
    }
    double[] unregularized = coefficients(new SGDClassifier(), data);
    assertThat(Arrays.stream(unregularized, 4, 12).filter(x -> x == 0.0).count()).isZero();
  }

  @Test
  void l2ShrinksTheCoefficients() {
    Dataset<Row> data = corgipile();
    assertThat(norm(coefficients(new SGDClassifier().setRegParam(0.1), data)))
        .isLessThan(0.8 * norm(coefficients(new SGDClassifier(), data)));
  }

  private static double norm(double[] w) {
    return Math.sqrt(Arrays.stream(w, 0, w.length - 1).map(x -> x * x).sum());
  }

  @Test
  void sparseAndDenseVectorsTrainTheSameModel() {
    Dataset<Row> dense = TrainingData.spark().read().parquet(table).coalesce(2);
    UDF1<Vector, Vector> toSparse = Vector::toSparse;
    Dataset<Row> sparse =
        dense.withColumn(
            "features", udf(toSparse, SQLDataTypes.VectorType()).apply(col("features")));
    // elastic net, so the sparse path's L1 bookkeeping is compared too
    SGDClassifier classifier = new SGDClassifier().setRegParam(0.01).setElasticNetParam(0.5);
    assertThat(coefficients(classifier, sparse)).containsExactly(coefficients(classifier, dense));
  }

  @Test
  void rowsOfWeightZeroChangeNothing() {
    // with no regularization and a schedule that depends on the epoch only, a zero gradient is no
    // update
    Dataset<Row> data =
        TrainingData.spark()
            .read()
            .parquet(table)
            .coalesce(1)
            .withColumn("w", expr("if(id % 3 = 0, 0.0, 1.0)"))
            .withColumn("label", expr("if(w = 0, 1 - label, label)"));
    SGDClassifier classifier = new SGDClassifier().setStepSchedule("decay").setWeightCol("w");
    double[] weighted = coefficients(classifier, data);
    double[] without = coefficients(classifier, data.filter("w > 0"));
    assertThat(weighted).containsExactly(without);
    assertThat(coefficients(new SGDClassifier().setStepSchedule("decay"), data))
        .isNotEqualTo(weighted);
  }

  @Test
  void theRegressorIsDeterministicToo() {
    Dataset<Row> data = TrainingData.linear(5_000, 4, 41, 2);
    SGDRegressionModel first = new SGDRegressor().setLoss("huber").fit(data);
    SGDRegressionModel second = new SGDRegressor().setLoss("huber").fit(data);
    assertThat(second.coefficients().toArray()).containsExactly(first.coefficients().toArray());
    assertThat(second.intercept()).isEqualTo(first.intercept());
  }
}
