package io.corgipile.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metrics file and the result line, without Spark: the same JSON as a map of the same values gives. */
class TrainingMetricsTest {
  private static final TrainingMetrics.Settings SETTINGS =
      new TrainingMetrics.Settings("SGDClassifier", "logistic", 4, "corgipile", "10%", null, 7L);
  private static final TrainingMetrics.Training TRAINING = new TrainingMetrics.Training(20_000, 3, 2, 1.25,
      new double[] {0.69, 0.61}, new double[] {0.5, 0.25}, new double[] {40_000, 80_000});

  private static TrainingMetrics metrics(TrainingMetrics.Test test) {
    return new TrainingMetrics("in", "classification", "label", List.of("f1", "f2"), SETTINGS, TRAINING, test, null);
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
    String withoutTest = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(expected) + "\n";
    assertThat(metrics(null).json()).isEqualTo(withoutTest);

    Map<String, Object> test = new LinkedHashMap<>();
    test.put("path", "t");
    test.put("rows", 5_000L);
    test.put("accuracy", 0.64391);
    test.put("logLoss", 0.6268);
    expected.put("test", test);
    expected.put("model", "m");
    assertThat(metrics(test()).withModel("m").json())
        .isEqualTo(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(expected) + "\n");
  }

  @Test
  void resultLineSaysWhatWasTrainedAndHowWell() {
    assertThat(metrics(null).resultLine()).isEqualTo("Trained SGDClassifier on 20,000 rows in 2 epochs (1.3 s).");
    assertThat(metrics(test()).withModel("m").resultLine()).isEqualTo("Trained SGDClassifier on 20,000 rows in 2"
        + " epochs (1.3 s). Test (5,000 rows): accuracy 0.6439 logLoss 0.6268. Model: m.");
  }
}
