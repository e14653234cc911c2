package io.corgipile.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corgipile.ml.SGDTrainingSummary;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one run of {@link Train} did: written as the metrics JSON ({@link #json}, whose keys are
 * these components' names, in this order) and summed up in the console line ({@link #resultLine}).
 *
 * @param test the evaluation on the test data; null without {@code --test}, and then not written
 * @param model where the model was saved; null without {@code --model}, and then not written
 */
record TrainingMetrics(String input, String task, String label, List<String> features, Settings settings,
    Training training, Test test, String model) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * How the model was trained.
   *
   * @param partitions null (written as such) when the source chose them
   * @param seed null (written as such) when the source's default seed was used
   */
  record Settings(String estimator, String loss, int maxEpochs, String shuffle, String buffer, Integer partitions,
      Long seed) {}

  /** How training went: the last epoch's rows, and per epoch what the {@link SGDTrainingSummary} has. */
  record Training(long rowsPerEpoch, long skippedRowsPerEpoch, int epochs, double seconds, double[] objectiveHistory,
      double[] secondsPerEpoch, double[] rowsPerSecond) {
    static Training of(SGDTrainingSummary summary, double seconds) {
      return new Training(summary.rowsPerEpoch()[summary.totalIterations() - 1], summary.skippedRows(),
          summary.totalIterations(), seconds, summary.objectiveHistory(), summary.secondsPerEpoch(),
          summary.rowsPerSecond());
    }
  }

  /**
   * The evaluation on the test data.
   *
   * @param scores each evaluator metric by its name (accuracy, rmse, ...), in the order written
   */
  record Test(String path, long rows, Map<String, Double> scores) {}

  /** These metrics, with where the model was saved. */
  TrainingMetrics withModel(String path) {
    return new TrainingMetrics(input, task, label, features, settings, training, test, path);
  }

  /** The metrics file's text: pretty-printed JSON with a trailing newline. */
  String json() throws JsonProcessingException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("input", input);
    root.put("task", task);
    root.put("label", label);
    ArrayNode featureNames = root.putArray("features");
    features.forEach(featureNames::add);
    ObjectNode s = root.putObject("settings");
    s.put("estimator", settings.estimator());
    s.put("loss", settings.loss());
    s.put("maxEpochs", settings.maxEpochs());
    s.put("shuffle", settings.shuffle());
    s.put("buffer", settings.buffer());
    s.put("partitions", settings.partitions());
    s.put("seed", settings.seed());
    ObjectNode t = root.putObject("training");
    t.put("rowsPerEpoch", training.rowsPerEpoch());
    t.put("skippedRowsPerEpoch", training.skippedRowsPerEpoch());
    t.put("epochs", training.epochs());
    t.put("seconds", training.seconds());
    addAll(t.putArray("objectiveHistory"), training.objectiveHistory());
    addAll(t.putArray("secondsPerEpoch"), training.secondsPerEpoch());
    addAll(t.putArray("rowsPerSecond"), training.rowsPerSecond());
    if (test != null) {
      ObjectNode e = root.putObject("test");
      e.put("path", test.path());
      e.put("rows", test.rows());
      test.scores().forEach(e::put);
    }
    if (model != null) {
      root.put("model", model);
    }
    return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  private static void addAll(ArrayNode array, double[] values) {
    for (double v : values) {
      array.add(v);
    }
  }

  /** One line for the console: what was trained and how well. */
  String resultLine() {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Trained %s on %,d rows in %d epochs (%.1f s).",
        settings.estimator(), training.rowsPerEpoch(), training.epochs(), training.seconds()));
    if (test != null) {
      s.append(String.format(Locale.ROOT, " Test (%,d rows):", test.rows()));
      test.scores().forEach((name, value) -> s.append(String.format(Locale.ROOT, " %s %.4f", name, value)));
      s.append('.');
    }
    if (model != null) {
      s.append(" Model: ").append(model).append('.');
    }
    return s.toString();
  }
}
