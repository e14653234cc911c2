package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stepSchedule=adagrad} trained end to end: over rounds, epochs, classes and compressed
 * deltas.
 */
class AdaGradTrainingTest {
  private static final int FEATURES = 8;
  @TempDir static Path dir;
  private static Dataset<Row> corgipile;
  private static Dataset<Row> test;

  @BeforeAll
  static void writeTable() {
    String table = dir.resolve("sorted").toString();
    TrainingData.logistic(20_000, FEATURES, 41, 2)
        .orderBy("label", "id")
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 500)
        .parquet(table);
    corgipile =
        TrainingData.spark().read().format("corgipile").option("partitions", "4").load(table);
    test = TrainingData.logistic(10_000, FEATURES, 42, 2);
  }

  private static double accuracy(Dataset<Row> predictions) {
    return new MulticlassClassificationEvaluator().setMetricName("accuracy").evaluate(predictions);
  }

  private static SGDClassifier adagrad() {
    return new SGDClassifier().setStepSchedule("adagrad").setSeed(3);
  }

  @Test
  void reachesLogisticRegressionOnLabelSortedDataOverCorgipile() {
    double lr = accuracy(new LogisticRegression().fit(corgipile).transform(test));
    assertThat(accuracy(adagrad().fit(corgipile).transform(test))).isGreaterThan(lr - 0.01);
  }

  @Test
  void theSameSeedGivesTheSameModelBitForBitOverRoundsAndCompressedDeltas() {
    for (String compression : new String[] {"none", "int8"}) {
      SGDClassificationModel first =
          adagrad().setDeltaCompression(compression).setMaxIter(3).fit(corgipile);
      SGDClassificationModel second =
          adagrad().setDeltaCompression(compression).setMaxIter(3).fit(corgipile);
      assertThat(second.coefficients().toArray()).containsExactly(first.coefficients().toArray());
      assertThat(second.intercept()).isEqualTo(first.intercept());
      assertThat(first.summary().roundsPerEpoch()[0]).isGreaterThan(1);
    }
  }

  /**
   * The sums carry over rounds and epochs: the steps keep shrinking, so later epochs move the model
   * less.
   */
  @Test
  void trainsMultinomialAndWithL1() {
    Dataset<Row> classes = MultinomialTest.clusters(6_000, 4, 5, 1, 2);
    Dataset<Row> classesTest = MultinomialTest.clusters(3_000, 4, 5, 2, 2);
    double lr = accuracy(new LogisticRegression().fit(classes).transform(classesTest));
    assertThat(accuracy(adagrad().fit(classes).transform(classesTest))).isGreaterThan(lr - 0.01);

    SGDClassificationModel sparse = adagrad().setRegParam(0.1).setElasticNetParam(1).fit(corgipile);
    assertThat(sparse.coefficients().toArray()).contains(0.0);
    assertThat(accuracy(sparse.transform(test))).isGreaterThan(0.55);
  }

  @Test
  void standardizationReportsTheOriginalScale() {
    SGDClassificationModel model = adagrad().setMaxIter(2).fit(corgipile);
    SGDClassificationModel unscaled =
        adagrad().setMaxIter(2).setStandardization(false).fit(corgipile);
    // standardized or not, the features here are about N(0, 1): about the same model
    for (int j = 0; j < FEATURES; j++) {
      assertThat(model.coefficients().apply(j))
          .isCloseTo(unscaled.coefficients().apply(j), within(0.3));
    }
  }
}
