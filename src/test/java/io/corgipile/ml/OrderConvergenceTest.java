package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.rand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The point of the project: on label-sorted data, SGD over the {@code corgipile} source reaches the
 * accuracy of SGD over a fully shuffled copy, while storage order does not.
 */
class OrderConvergenceTest {
  private static final long ROWS = 40_000;
  private static final int FEATURES = 10;

  @TempDir
  static Path dir;
  private static String sorted;
  private static String shuffled;
  private static Dataset<Row> test;

  @BeforeAll
  static void writeTables() {
    Dataset<Row> data = TrainingData.logistic(ROWS, FEATURES, 11, 2);
    sorted = dir.resolve("sorted").toString();
    shuffled = dir.resolve("shuffled").toString();
    // row groups of 500 rows: 80 blocks, 4 per partition and 10% buffer
    data.orderBy(col("label"), col("id")).coalesce(1).write().option("parquet.block.row.count.limit", 500)
        .parquet(sorted);
    data.orderBy(rand(5)).coalesce(1).write().option("parquet.block.row.count.limit", 500).parquet(shuffled);
    test = TrainingData.logistic(10_000, FEATURES, 12, 2).cache();
  }

  private static DataFrameReader corgipile(String shuffle) {
    return TrainingData.spark().read().format("corgipile").option("shuffle", shuffle).option("bufferSize", "10%")
        .option("partitions", "2");
  }

  private static double accuracy(SGDClassifier classifier, Dataset<Row> training) {
    SGDClassificationModel model = classifier.setTol(0).fit(training);
    return new MulticlassClassificationEvaluator().setMetricName("accuracy").evaluate(model.transform(test));
  }

  @Test
  void withTheDefaultsCorgipileMatchesAFullShuffle() {
    double fullShuffle = accuracy(new SGDClassifier(), corgipile("none").load(shuffled));
    double corgipile = accuracy(new SGDClassifier(), corgipile("corgipile").load(sorted));
    assertThat(corgipile).isCloseTo(fullShuffle, within(0.005));
  }

  @Test
  void withThePapersStepScheduleStorageOrderFailsWhereCorgipileDoesNot() {
    // the CorgiPile paper's schedule: the step shrinks only by 0.95 per epoch
    SGDClassifier paper = new SGDClassifier().setStepSchedule("decay").setStepSize(0.003);
    double fullShuffle = accuracy(paper, corgipile("none").load(shuffled));
    double corgipile = accuracy(paper, corgipile("corgipile").load(sorted));
    double storageOrder = accuracy(paper, corgipile("none").option("partitions", "1").load(sorted));

    assertThat(corgipile).isCloseTo(fullShuffle, within(0.01));
    // In storage order every epoch ends on 20,000 positives in a row, and a step that stays large
    // leaves the model predicting 1 nearly everywhere, which half the test rows contradict.
    assertThat(storageOrder).isLessThan(fullShuffle - 0.1);
  }
}
