package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.LogCapture;
import io.corgipile.ml.sync.SGDOptimizer;
import io.corgipile.source.ReadScope;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What training reports: the summary, one log line per epoch, the cached-input warning, and the
 * local properties it leaves alone.
 */
class TrainingSummaryTest {
  private static final int FEATURES = 4;
  private static final long ROWS = 2000;
  private static final Pattern EPOCH_LINE =
      Pattern.compile(
          "SGDClassifier epoch (\\d+)/(\\d+): objective (\\S+), ([\\d,]+) rows, (?:\\d+ rounds?,"
              + " )?(\\S+) s \\(([\\d,]+) rows/s\\), (last epoch|at most ([\\d,]+) s left)");
  private static final String[] LOCAL_PROPERTIES = {
    ReadScope.EPOCH, ReadScope.SEED, "spark.job.description"
  };

  private static Dataset<Row> data;
  private LogCapture log;

  @BeforeAll
  static void makeData() {
    data = TrainingData.logistic(ROWS, FEATURES, 21, 2);
  }

  @BeforeEach
  void captureLog() {
    log = new LogCapture(SGDOptimizer.class);
  }

  @AfterEach
  void releaseLog() {
    log.close();
  }

  private static SGDClassifier classifier(int maxIter, double tol) {
    return new SGDClassifier().setMaxIter(maxIter).setTol(tol).setStepSize(0.05);
  }

  @Test
  void classifierSummaryHasOneEntryPerEpoch() {
    SGDClassificationModel model = classifier(4, 0).fit(data);

    assertThat(model.hasSummary()).isTrue();
    assertSummary(model.summary(), 4, ROWS);
  }

  @Test
  void regressorSummaryHasOneEntryPerEpoch() {
    SGDRegressionModel model =
        new SGDRegressor().setMaxIter(3).setTol(0).fit(TrainingData.linear(1500, 3, 23, 2));

    assertThat(model.hasSummary()).isTrue();
    assertSummary(model.summary(), 3, 1500);
  }

  /**
   * {@code epochs} entries of {@code rows} rows each; finite objectives that fell over training.
   */
  private static void assertSummary(SGDTrainingSummary summary, int epochs, long rows) {
    assertThat(summary.totalIterations()).isEqualTo(epochs);
    double[] objectives = summary.objectiveHistory();
    assertThat(objectives).hasSize(epochs);
    assertThat(Arrays.stream(objectives)).allMatch(Double::isFinite);
    assertThat(objectives[epochs - 1]).isLessThan(objectives[0]);
    assertThat(summary.rowsPerEpoch()).hasSize(epochs).containsOnly(rows);
    double[] seconds = summary.secondsPerEpoch();
    assertThat(seconds).hasSize(epochs);
    assertThat(Arrays.stream(seconds)).allMatch(s -> s > 0);
    double[] rates = summary.rowsPerSecond();
    assertThat(rates).hasSize(epochs);
    for (int i = 0; i < epochs; i++) {
      assertThat(rates[i]).isCloseTo(rows / seconds[i], within(1e-9 * rates[i]));
    }
    assertThat(summary.skippedRows()).isZero();
  }

  @Test
  void keepsTheModelOfEveryEpoch() {
    SGDClassificationModel model = classifier(4, 0).fit(data);
    SGDClassificationModel shorter = classifier(2, 0).fit(data);
    SGDTrainingSummary summary = model.summary();

    assertThat(summary.coefficientsHistory()).hasSize(4);
    assertThat(summary.interceptHistory()).hasSize(4);
    assertThat(summary.coefficientsHistory()[3]).isEqualTo(model.coefficients());
    assertThat(summary.interceptHistory()[3]).isEqualTo(model.intercept());
    // training is deterministic, so epoch 2 of a 4-epoch run is the model of a 2-epoch run
    assertThat(summary.coefficientsHistory()[1]).isEqualTo(shorter.coefficients());
    assertThat(summary.interceptHistory()[1]).isEqualTo(shorter.intercept());
    assertThat(summary.coefficientsHistory()[0]).isNotEqualTo(summary.coefficientsHistory()[1]);
  }

  /** Patience: a tol no epoch meets stops training after nIterNoChange epochs past the first. */
  @Test
  void largeTolStopsTrainingAfterNIterNoChangeEpochs() {
    assertThat(classifier(10, 0.5).setNIterNoChange(3).fit(data).summary().totalIterations())
        .isEqualTo(4);
  }

  @Test
  void largeTolStopsTrainingEarly() {
    SGDTrainingSummary summary = classifier(10, 0.5).fit(data).summary();

    assertThat(summary.totalIterations()).isBetween(2, 9);
    assertThat(summary.objectiveHistory()).hasSize(summary.totalIterations());
    assertThat(summary.rowsPerEpoch()).hasSize(summary.totalIterations());
    assertThat(epochLines())
        .hasSize(summary.totalIterations())
        .allSatisfy(line -> assertThat(line).contains("/10: objective"));
  }

  @Test
  void logsOneInfoLinePerEpochMatchingTheSummary() {
    SGDTrainingSummary summary = classifier(4, 0).fit(data).summary();

    assertThat(log.messages(Level.INFO).get(0))
        .matches(
            "SGDClassifier: features summarized for standardization in \\d+\\.\\d\\d s \\(scaled"
                + " and centered\\)");
    List<String> lines = epochLines();
    assertThat(lines).hasSize(4);
    assertThat(log.messages(Level.INFO)).hasSize(5);
    for (int i = 0; i < 4; i++) {
      Matcher m = EPOCH_LINE.matcher(lines.get(i));
      assertThat(m.matches()).as("line %s", lines.get(i)).isTrue();
      assertThat(m.group(1)).isEqualTo(Integer.toString(i + 1));
      assertThat(m.group(2)).isEqualTo("4");
      assertThat(m.group(3)).isEqualTo(format("%.6f", summary.objectiveHistory()[i]));
      assertThat(m.group(4)).isEqualTo("2,000");
      assertThat(m.group(5)).isEqualTo(format("%.2f", summary.secondsPerEpoch()[i]));
      assertThat(m.group(6)).isEqualTo(format("%,.0f", summary.rowsPerSecond()[i]));
      // time left: the mean epoch so far times the epochs left
      double meanSeconds =
          Arrays.stream(summary.secondsPerEpoch(), 0, i + 1).average().getAsDouble();
      assertThat(m.group(7))
          .isEqualTo(
              i == 3
                  ? "last epoch"
                  : "at most " + format("%,.0f", (3 - i) * meanSeconds) + " s left");
    }
    assertThat(log.messages(Level.WARN)).isEmpty();
  }

  /** The INFO lines of the epochs, without the feature summary's. */
  private List<String> epochLines() {
    return log.messages(Level.INFO).stream()
        .filter(line -> line.matches(".* epoch \\d+/\\d+: objective .*"))
        .toList();
  }

  private static String format(String pattern, double value) {
    return String.format(Locale.ROOT, pattern, value);
  }

  @Test
  void warnsWhenTheInputReadsCachedData() {
    Dataset<Row> cachedInput = TrainingData.logistic(1000, FEATURES, 24, 2);
    assertThat(warningsTraining(cachedInput, cachedInput))
        .singleElement()
        .asString()
        .startsWith("SGDClassifier reads a cached input");

    // cached upstream of the features: the training input still reads the cache
    Dataset<Row> cachedColumns = TrainingData.logisticColumns(1000, FEATURES, 25, 2);
    assertThat(warningsTraining(cachedColumns, TrainingData.assemble(cachedColumns, FEATURES)))
        .singleElement()
        .asString()
        .contains("reads a cached input");
  }

  @Test
  void isQuietAboutCachingWhenTheInputIsNotCached() {
    classifier(2, 0).fit(data);
    assertThat(log.messages(Level.WARN)).isEmpty();
  }

  /** The warnings of training on {@code input} while {@code cached} is cached. */
  private List<String> warningsTraining(Dataset<Row> cached, Dataset<Row> input) {
    cached.cache();
    try {
      log.clear();
      classifier(2, 0).fit(input);
      return log.messages(Level.WARN);
    } finally {
      cached.unpersist(true);
    }
  }

  @Test
  void summaryCountsSkippedRows() {
    Dataset<Row> withInvalid =
        data.withColumn("label", when(col("id").lt(3), lit(-1.0)).otherwise(col("label")));
    SGDTrainingSummary summary =
        classifier(2, 0).setHandleInvalid("skip").fit(withInvalid).summary();

    assertThat(summary.skippedRows()).isEqualTo(3);
    assertThat(summary.rowsPerEpoch()).containsExactly(ROWS - 3, ROWS - 3);
    assertThat(log.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("left out 3 invalid rows per epoch");
  }

  @Test
  void restoresTheCallersLocalProperties() {
    assertLocalPropertiesRestored(
        new String[] {"7", "3", "my job"}, () -> classifier(3, 0).setSeed(5).fit(data));
  }

  @Test
  void leavesUnsetLocalPropertiesUnset() {
    assertLocalPropertiesRestored(
        new String[] {null, null, null}, () -> classifier(3, 0).setSeed(5).fit(data));
  }

  @Test
  void restoresLocalPropertiesWhenTrainingFails() {
    assertLocalPropertiesRestored(
        new String[] {"7", null, "my job"},
        () ->
            assertThatThrownBy(
                    () -> classifier(3, 0).setSeed(5).fit(data.withColumn("label", lit(0.5))))
                .hasMessageContaining("allowed labels are 0 and 1"));
  }

  /**
   * A failed Spark job throws the checked {@code SparkException}, undeclared: an executor's
   * InvalidTrainingDataException must still reach the caller as the driver's own, not wrapped.
   */
  @Test
  void executorDataErrorsReachTheCallerAsInvalidTrainingDataException() {
    assertThatThrownBy(() -> classifier(2, 0).fit(data.withColumn("label", lit(-1.0))))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessageStartingWith(
            "Cannot train SGDClassifier: a row has label -1.0 in column 'label'");
  }

  /**
   * Sets {@link #LOCAL_PROPERTIES} to {@code before}, runs {@code training}, and checks they are as
   * before.
   */
  private static void assertLocalPropertiesRestored(String[] before, Runnable training) {
    SparkContext sc = TrainingData.spark().sparkContext();
    try {
      for (int i = 0; i < LOCAL_PROPERTIES.length; i++) {
        sc.setLocalProperty(LOCAL_PROPERTIES[i], before[i]);
      }
      training.run();
      String[] after =
          Arrays.stream(LOCAL_PROPERTIES).map(sc::getLocalProperty).toArray(String[]::new);
      assertThat(after).containsExactly(before);
    } finally {
      for (String key : LOCAL_PROPERTIES) {
        sc.setLocalProperty(key, null);
      }
    }
  }
}
