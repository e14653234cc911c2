package io.corgipile.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.ml.ScheduledLassoSummary;
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
record TrainingMetrics(
    String input,
    String task,
    String label,
    List<String> features,
    Settings settings,
    Training training,
    Test test,
    String model) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * How the model was trained.
   *
   * @param params the estimator's own settings, written after {@code estimator} in this order: for
   *     the SGD tasks {@code loss}, {@code maxEpochs} and {@code deltaCompression}; for the lasso
   *     every param of its model (the defaults too) but the seed, by param name
   * @param partitions null (written as such) when the source chose them
   * @param seed null (written as such) when the default seed was used
   */
  record Settings(
      String estimator,
      Map<String, Object> params,
      String shuffle,
      String buffer,
      Integer partitions,
      Long seed) {}

  /** How training went: written as the {@code training} object; summed up in the result line. */
  sealed interface Training permits Epochs, Rounds {
    /** The rows trained on (the SGD tasks: in the last epoch). */
    long rows();

    /** Epochs or rounds run. */
    int iterations();

    /** What {@link #iterations} counts, plural: {@code epochs}, {@code rounds}. */
    String unit();

    /** The estimator's fit, in seconds. */
    double seconds();

    void write(ObjectNode t);
  }

  /**
   * The SGD tasks' training: the last epoch's rows, and per epoch what the {@link
   * SGDTrainingSummary} has.
   */
  record Epochs(
      long rowsPerEpoch,
      long skippedRowsPerEpoch,
      int epochs,
      double seconds,
      double[] objectiveHistory,
      double[] secondsPerEpoch,
      double[] rowsPerSecond)
      implements Training {
    static Epochs of(SGDTrainingSummary summary, double seconds) {
      return new Epochs(
          summary.rowsPerEpoch()[summary.totalIterations() - 1],
          summary.skippedRows(),
          summary.totalIterations(),
          seconds,
          summary.objectiveHistory(),
          summary.secondsPerEpoch(),
          summary.rowsPerSecond());
    }

    @Override
    public long rows() {
      return rowsPerEpoch;
    }

    @Override
    public int iterations() {
      return epochs;
    }

    @Override
    public String unit() {
      return "epochs";
    }

    @Override
    public void write(ObjectNode t) {
      t.put("rowsPerEpoch", rowsPerEpoch);
      t.put("skippedRowsPerEpoch", skippedRowsPerEpoch);
      t.put("epochs", epochs);
      t.put("seconds", seconds);
      addAll(t.putArray("objectiveHistory"), objectiveHistory);
      addAll(t.putArray("secondsPerEpoch"), secondsPerEpoch);
      addAll(t.putArray("rowsPerSecond"), rowsPerSecond);
    }
  }

  /**
   * The lasso's training, what its {@link ScheduledLassoSummary} has: the histories have one entry
   * more than there were rounds, index 0 being the start (the zero coefficients; the pass that read
   * and summarized the rows).
   *
   * @param secondsHistory seconds since the fit started, at the start and after each round
   * @param updatesHistory coefficient updates so far, at the start (0) and after each round
   * @param rejectedPerRound candidates the dependency check turned away, at the start (0) and in
   *     each round
   */
  record Rounds(
      long rows,
      int rounds,
      double seconds,
      double[] objectiveHistory,
      double[] secondsHistory,
      long[] updatesHistory,
      int[] rejectedPerRound)
      implements Training {
    static Rounds of(ScheduledLassoSummary summary, double seconds) {
      return new Rounds(
          summary.numRows(),
          summary.totalIterations(),
          seconds,
          summary.objectiveHistory(),
          summary.secondsHistory(),
          summary.updatesHistory(),
          summary.rejectedPerRound());
    }

    @Override
    public int iterations() {
      return rounds;
    }

    @Override
    public String unit() {
      return "rounds";
    }

    @Override
    public void write(ObjectNode t) {
      t.put("rows", rows);
      t.put("rounds", rounds);
      t.put("seconds", seconds);
      addAll(t.putArray("objectiveHistory"), objectiveHistory);
      addAll(t.putArray("secondsHistory"), secondsHistory);
      ArrayNode updates = t.putArray("updatesHistory");
      for (long u : updatesHistory) {
        updates.add(u);
      }
      ArrayNode rejected = t.putArray("rejectedPerRound");
      for (int r : rejectedPerRound) {
        rejected.add(r);
      }
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
    settings.params().forEach((name, value) -> s.set(name, MAPPER.valueToTree(value)));
    s.put("shuffle", settings.shuffle());
    s.put("buffer", settings.buffer());
    s.put("partitions", settings.partitions());
    s.put("seed", settings.seed());
    training.write(root.putObject("training"));
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
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "Trained %s on %,d rows in %d %s (%.1f s).",
                settings.estimator(),
                training.rows(),
                training.iterations(),
                training.unit(),
                training.seconds()));
    if (test != null) {
      s.append(String.format(Locale.ROOT, " Test (%,d rows):", test.rows()));
      test.scores()
          .forEach((name, value) -> s.append(String.format(Locale.ROOT, " %s %.4f", name, value)));
      s.append('.');
    }
    if (model != null) {
      s.append(" Model: ").append(model).append('.');
    }
    return s.toString();
  }
}
