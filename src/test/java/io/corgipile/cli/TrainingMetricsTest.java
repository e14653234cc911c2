package io.corgipile.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The metrics file and the result line, without Spark: the same JSON as a map of the same values
 * gives.
 */
class TrainingMetricsTest {
  private static final TrainingMetrics.Settings SETTINGS =
      new TrainingMetrics.Settings("SGDClassifier", sgdParams(), "corgipile", "10%", null, 7L);
  private static final TrainingMetrics.Training TRAINING =
      new TrainingMetrics.Epochs(
          20_000,
          3,
          2,
          1.25,
          new double[] {0.69, 0.61},
          new double[] {0.5, 0.25},
          new double[] {40_000, 80_000});

  private static Map<String, Object> sgdParams() {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("loss", "logistic");
    params.put("maxEpochs", 4);
    return params;
  }

  private static TrainingMetrics metrics(TrainingMetrics.Test test) {
    return new TrainingMetrics(
        "in", "classification", "label", List.of("f1", "f2"), SETTINGS, TRAINING, test, null);
  }

  private static TrainingMetrics.Test test() {
    Map<String, Double> scores = new LinkedHashMap<>();
    scores.put("accuracy", 0.64391);
    scores.put("logLoss", 0.6268);
    return new TrainingMetrics.Test("t", 5_000, scores);
  }

  @Test
  void writesTheKeysInOrderWithNullSettingsAndWithoutAbsentParts() throws Exception {
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("estimator", "SGDClassifier");
    settings.put("loss", "logistic");
    settings.put("maxEpochs", 4);
    settings.put("shuffle", "corgipile");
    settings.put("buffer", "10%");
    settings.put("partitions", null);
    settings.put("seed", 7L);
    Map<String, Object> training = new LinkedHashMap<>();
    training.put("rowsPerEpoch", 20_000L);
    training.put("skippedRowsPerEpoch", 3L);
    training.put("epochs", 2);
    training.put("seconds", 1.25);
    training.put("objectiveHistory", new double[] {0.69, 0.61});
    training.put("secondsPerEpoch", new double[] {0.5, 0.25});
    training.put("rowsPerSecond", new double[] {40_000, 80_000});
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("input", "in");
    expected.put("task", "classification");
    expected.put("label", "label");
    expected.put("features", List.of("f1", "f2"));
    expected.put("settings", settings);
    expected.put("training", training);
    String withoutTest =
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(expected) + "\n";
    assertThat(metrics(null).json()).isEqualTo(withoutTest);

    Map<String, Object> test = new LinkedHashMap<>();
    test.put("path", "t");
    test.put("rows", 5_000L);
    test.put("accuracy", 0.64391);
    test.put("logLoss", 0.6268);
    expected.put("test", test);
    expected.put("model", "m");
    assertThat(metrics(test()).withModel("m").json())
        .isEqualTo(
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(expected)
                + "\n");
  }

  @Test
  void theLassoWritesItsParamsAndItsRounds() throws Exception {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("regParam", 0.05);
    params.put("scheduler", "priority");
    params.put("scheduleSize", 32);
    params.put("fitIntercept", true);
    TrainingMetrics lasso =
        new TrainingMetrics(
            "in",
            "lasso",
            "y",
            List.of("x1", "x2"),
            new TrainingMetrics.Settings("ScheduledLasso", params, "corgipile", "auto", 2, null),
            new TrainingMetrics.Rounds(
                2_000,
                2,
                0.75,
                new double[] {4.5, 1.2, 1.1},
                new double[] {0.25, 0.5, 0.75},
                new long[] {0, 2, 4},
                new int[] {0, 0, 1}),
            null,
            null);

    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("estimator", "ScheduledLasso");
    settings.putAll(params);
    settings.put("shuffle", "corgipile");
    settings.put("buffer", "auto");
    settings.put("partitions", 2);
    settings.put("seed", null);
    Map<String, Object> training = new LinkedHashMap<>();
    training.put("rows", 2_000L);
    training.put("rounds", 2);
    training.put("seconds", 0.75);
    training.put("objectiveHistory", new double[] {4.5, 1.2, 1.1});
    training.put("secondsHistory", new double[] {0.25, 0.5, 0.75});
    training.put("updatesHistory", new long[] {0, 2, 4});
    training.put("rejectedPerRound", new int[] {0, 0, 1});
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("input", "in");
    expected.put("task", "lasso");
    expected.put("label", "y");
    expected.put("features", List.of("x1", "x2"));
    expected.put("settings", settings);
    expected.put("training", training);
    assertThat(lasso.json())
        .isEqualTo(
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(expected)
                + "\n");
    assertThat(lasso.resultLine())
        .isEqualTo("Trained ScheduledLasso on 2,000 rows in 2 rounds (0.8 s).");
  }

  @Test
  void resultLineSaysWhatWasTrainedAndHowWell() {
    assertThat(metrics(null).resultLine())
        .isEqualTo("Trained SGDClassifier on 20,000 rows in 2 epochs (1.3 s).");
    assertThat(metrics(test()).withModel("m").resultLine())
        .isEqualTo(
            "Trained SGDClassifier on 20,000 rows in 2"
                + " epochs (1.3 s). Test (5,000 rows): accuracy 0.6439 logLoss 0.6268. Model: m.");
  }
}
