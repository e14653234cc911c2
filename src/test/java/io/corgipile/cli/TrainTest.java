package io.corgipile.cli;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.randn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.LogCapture;
import io.corgipile.SharedSpark;
import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDTrainingSummary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The spark-submit training job, in this JVM: what it writes, prints, and every way it refuses. */
class TrainTest {
  private static final String FEATURES = String.join(",", HiggsShapedData.featureNames());
  /** A session that must not be asked for: bad arguments are reported before Spark starts. */
  private static final Supplier<SparkSession> NO_SESSION = () -> {
    throw new AssertionError("the job asked for a Spark session");
  };

  @TempDir
  static Path data;
  @TempDir
  Path out;

  private static String train;
  private static String test;
  private static String vectors;
  private LogCapture progress;

  @BeforeAll
  static void writeData() {
    SparkSession spark = SharedSpark.get();
    train = data.resolve("train").toString();
    test = data.resolve("test").toString();
    vectors = data.resolve("vectors").toString();
    Processes.writeHiggs(Path.of(train), Path.of(test));
    // a regression target of a vector column: y = 3 x1 - 2 x2 + 1 + noise
    new VectorAssembler().setInputCols(new String[] {"x1", "x2"}).setOutputCol("v")
        .transform(spark.range(5_000).select(randn(3).as("x1"), randn(4).as("x2"), randn(5).as("noise")))
        .select(col("v"), col("x1").multiply(3).minus(col("x2").multiply(2)).plus(1)
            .plus(col("noise").multiply(0.1)).as("y"))
        .coalesce(1).write().parquet(vectors);
  }

  @BeforeEach
  void captureProgress() {
    progress = new LogCapture(SGDTrainingSummary.PROGRESS_LOGGER);
  }

  @AfterEach
  void releaseProgress() {
    progress.close();
  }

  /** What one run printed and returned. */
  private record Result(int status, String out, String err) {}

  private static Result run(Supplier<SparkSession> session, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Train.run(args, session, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static Result train(String... args) {
    return run(SharedSpark::get, args);
  }

  private static String[] with(String[] base, String... more) {
    return Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new);
  }

  @Test
  void trainsEvaluatesSavesTheModelAndWritesMetrics() throws IOException {
    Path model = out.resolve("model");
    Path metrics = out.resolve("metrics.json");

    Result r = train("--input", train, "--features", FEATURES, "--epochs", "4", "--test", test, "--model",
        model.toString(), "--metrics", metrics.toString(), "--seed", "7", "--partitions", "2");

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("task").asText()).isEqualTo("classification");
    assertThat(m.get("settings").get("estimator").asText()).isEqualTo("SGDClassifier");
    assertThat(m.get("settings").get("loss").asText()).isEqualTo("logistic");
    assertThat(m.get("settings").get("seed").asLong()).isEqualTo(7);
    JsonNode training = m.get("training");
    assertThat(training.get("rowsPerEpoch").asLong()).isEqualTo(20_000);
    int epochs = training.get("epochs").asInt();
    assertThat(epochs).isBetween(1, 4);
    assertThat(training.get("objectiveHistory")).hasSize(epochs);
    JsonNode evaluation = m.get("test");
    assertThat(evaluation.get("rows").asLong()).isEqualTo(5_000);
    // about 53% ones: a model that learned nothing scores 0.53; the logistic truth about 0.65
    assertThat(evaluation.get("accuracy").asDouble()).isGreaterThan(0.6);
    assertThat(evaluation.get("areaUnderROC").asDouble()).isGreaterThan(0.65);
    assertThat(evaluation.get("logLoss").asDouble()).isPositive();

    // the saved pipeline assembles the raw columns itself, and scores as the metrics say
    PipelineModel loaded = PipelineModel.load(model.toString());
    long right = loaded.transform(SharedSpark.get().read().parquet(test))
        .filter(col("prediction").equalTo(col("label"))).count();
    assertThat(right / 5_000.0).isEqualTo(evaluation.get("accuracy").asDouble());

    assertThat(r.out()).startsWith("Trained SGDClassifier on 20,000 rows in " + epochs + " epochs")
        .contains("Test (5,000 rows): accuracy ", "Model: " + model);
    // the feature summary's line, the step size calibration's, then one progress line per epoch, with the time left
    List<String> all = progress.messages(Level.INFO);
    assertThat(all.get(0)).startsWith("SGDClassifier: features summarized for standardization in ");
    assertThat(all.get(1)).startsWith("SGDClassifier: stepSize ").contains(" chosen on 2,000 rows of partition 0 in ");
    List<String> lines = all.subList(2, all.size());
    assertThat(lines).hasSize(epochs);
    assertThat(lines.get(0)).startsWith("SGDClassifier epoch 1/4: objective ").contains(" rows/s), at most ");
    // nothing but the two outputs in the output folder: no temporary siblings left
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("model", "metrics.json");
    }
  }

  @Test
  void trainsARegressorOnOneVectorColumn() throws IOException {
    Path metrics = out.resolve("metrics.json");

    Result r = train("--input", vectors, "--label", "y", "--features", "v", "--task", "regression", "--loss",
        "huber", "--epochs", "5", "--test", vectors, "--metrics", metrics.toString());

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("settings").get("estimator").asText()).isEqualTo("SGDRegressor");
    assertThat(m.get("settings").get("loss").asText()).isEqualTo("huber");
    // a model that learned nothing has r2 0; huber's linear tails converge more slowly than squared
    assertThat(m.get("test").get("r2").asDouble()).isGreaterThan(0.8);
    assertThat(m.has("model")).isFalse();
  }

  @Test
  void labelsOfMoreThanTwoClassesTrainAMultinomialModel() throws IOException {
    String classes = data.resolve("classes").toString();
    SharedSpark.get().range(3_000).selectExpr("cast(id % 3 as double) as label",
        "cast(id % 3 as double) + rand(1) as x1", "rand(2) as x2").write().parquet(classes);
    Path metrics = out.resolve("metrics.json");

    Result r = train("--input", classes, "--features", "x1,x2", "--epochs", "3", "--test", classes, "--metrics",
        metrics.toString());

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("settings").get("loss").asText()).isEqualTo("softmax");
    assertThat(m.get("test").get("accuracy").asDouble()).isGreaterThan(0.9);
    assertThat(m.get("test").has("logLoss")).isTrue();
    assertThat(m.get("test").has("areaUnderROC")).isFalse(); // a binary measure
  }

  @Test
  void refusesToReplaceOutputsUnlessToldTo() throws IOException {
    Path metrics = out.resolve("metrics.json");
    Files.writeString(metrics, "earlier");
    String[] args = {"--input", train, "--features", FEATURES, "--epochs", "1", "--metrics", metrics.toString()};

    Result refused = train(args);
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.err()).startsWith("Cannot write the metrics to " + metrics
        + ": it exists; pass --overwrite to replace it");
    assertThat(progress.messages(Level.INFO)).as("refused before training").isEmpty();
    assertThat(Files.readString(metrics)).isEqualTo("earlier");

    Result replaced = train(with(args, "--overwrite"));
    assertThat(replaced.status()).as(replaced.err()).isZero();
    assertThat(new ObjectMapper().readTree(metrics.toFile()).get("training").get("epochs").asInt()).isEqualTo(1);
  }

  @Test
  void helpListsEveryArgumentWithoutStartingSpark() {
    Result r = run(NO_SESSION, "--input", "x", "--help");

    assertThat(r.status()).isZero();
    for (io.corgipile.options.CommandLine.Option o : TrainArguments.OPTIONS) {
      assertThat(r.out()).contains("--" + o.name());
    }
    assertThat(r.out()).startsWith("Usage: io.corgipile.cli.Train --input PATH --features COLS [options]")
        .contains("Exit status: 0 done, 1 training failed (the cause is printed), 2 bad arguments.");
  }

  @Test
  void helpShowsTheRealDefaultsAndChoices() {
    String help = TrainArguments.usage();

    assertThat(help).contains("(default " + new io.corgipile.ml.SGDClassifier().getMaxIter() + ";",
        "(default " + io.corgipile.source.ReadOptions.BUFFER_SIZE_DEFAULT + ")",
        "(default: the data source's, " + io.corgipile.source.ReadOptions.SEED_DEFAULT + ")",
        "Spark's default parallelism, at most the number of row groups",
        "classification: " + io.corgipile.ml.SGDClassifier.SUPPORTED_LOSSES.get(0) + " (default)",
        "regression: " + io.corgipile.ml.SGDRegressor.SUPPORTED_LOSSES.get(0) + " (default)",
        io.corgipile.shuffle.BufferSize.FORMAT);
    for (io.corgipile.shuffle.ShuffleMode mode : io.corgipile.shuffle.ShuffleMode.values()) {
      assertThat(help).contains(mode.optionValue()
          + (mode.optionValue().equals(io.corgipile.source.ReadOptions.SHUFFLE_DEFAULT) ? " (default)" : ""));
    }
    // today's values, so a drift of the help text shows here too
    assertThat(help).contains("--epochs N         most epochs to train (default 10; training may stop earlier",
        "--buffer SIZE      shuffle buffer per partition: auto (the larger of 10% of the partition's rows and 4 of"
            + " its row groups, at most the partition and a share of an executor's memory), a row count (100000), a"
            + " size of decoded rows (64m, 1g) or a share of the partition's rows (10%) (default auto)",
        "--shuffle MODE     corgipile (default), block, window or none",
        "--seed N           seed of the shuffle order (default: the data source's, 42)",
        "--loss LOSS        classification: logistic (default) or hinge; regression: squared (default) or huber",
        "--task TASK        classification (SGDClassifier, the default) or regression (SGDRegressor)");
  }

  static Stream<Arguments> badArguments() {
    String in = "--input=in";
    String f = "--features=a,b";
    return Stream.of(
        Arguments.of(new String[] {f}, "Cannot train: --input is required"),
        Arguments.of(new String[] {in}, "Cannot train: --features is required"),
        Arguments.of(new String[] {in, f, "extra"}, "Cannot use argument 'extra': expected an option such as --input"),
        Arguments.of(new String[] {in, f, "--epoch", "3"}, "Cannot use option --epoch: unknown; options are --input,"
            + " --label, --features, --task, --loss, --epochs, --buffer, --shuffle, --partitions, --seed, --test,"
            + " --model, --metrics, --overwrite, --help"),
        Arguments.of(new String[] {in, f, "--epochs"}, "Cannot use option --epochs: it needs a value (N)"),
        Arguments.of(new String[] {in, f, in}, "Cannot use option --input twice"),
        Arguments.of(new String[] {in, f, "--overwrite=yes"}, "Cannot use option --overwrite: it takes no value"),
        Arguments.of(new String[] {in, "--features=a,,b"}, "Cannot use --features 'a,,b': expected a comma list of"
            + " column names"),
        Arguments.of(new String[] {in, f, "--task", "ranking"}, "Cannot use --task 'ranking': expected"
            + " classification, regression"),
        Arguments.of(new String[] {in, f, "--shuffle", "full"}, "Cannot use --shuffle 'full': expected corgipile,"
            + " block, window, none"),
        Arguments.of(new String[] {in, f, "--buffer", "ten"}, "Cannot use --buffer 'ten': expected auto (the larger"
            + " of 10% of the partition's rows and 4 of its row groups, at most the partition and a share of an"
            + " executor's memory), a row count (100000), a size of decoded rows (64m, 1g) or a share of the"
            + " partition's rows (10%)"),
        Arguments.of(new String[] {in, f, "--epochs", "0"}, "Cannot use --epochs '0': expected an integer >= 1 and"
            + " <= 2147483647"),
        Arguments.of(new String[] {in, f, "--epochs", "many"}, "Cannot use --epochs 'many': expected an integer"
            + " >= 1 and <= 2147483647"),
        Arguments.of(new String[] {in, f, "--partitions", "-2"}, "Cannot use --partitions '-2': expected an integer"
            + " >= 1 and <= 2147483647"),
        Arguments.of(new String[] {in, f, "--seed", "1.5"}, "Cannot use --seed '1.5': expected a 64-bit integer"),
        Arguments.of(new String[] {in, f, "--loss", "squared"}, "Cannot use --loss 'squared': expected logistic or"
            + " hinge for classification"),
        Arguments.of(new String[] {in, f, "--task", "regression", "--loss", "hinge"}, "Cannot use --loss 'hinge':"
            + " expected squared or huber for regression"));
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void badArgumentsExitWithStatus2AndSayWhichBeforeSparkStarts(String[] args, String message) {
    Result r = run(NO_SESSION, args);

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(message + "\nRun with --help for the arguments.\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void columnsTheInputLacksAreBadArguments() {
    String columns = "its columns are id, label, " + String.join(", ", HiggsShapedData.featureNames());
    assertThat(train("--input", train, "--features", FEATURES, "--label", "target"))
        .isEqualTo(new Result(2, "", "Cannot use --label 'target': " + train + " has no such column; " + columns
            + "\nRun with --help for the arguments.\n"));
    assertThat(train("--input", train, "--features", "f1,f99"))
        .isEqualTo(new Result(2, "", "Cannot use --features: " + train + " has no column 'f99'; " + columns
            + "\nRun with --help for the arguments.\n"));
  }

  @Test
  void aNonNumericFeatureIsABadArgument() {
    String strings = data.resolve("strings").toString();
    SharedSpark.get().range(10).selectExpr("cast(id as string) as name", "0.0 as label").write().parquet(strings);

    assertThat(train("--input", strings, "--features", "name").err()).startsWith("Cannot use --features: column"
        + " 'name' is string; features are numeric columns or one vector column\n");
  }

  @Test
  void failuresExitWithStatus1AndTheCause() throws IOException {
    Result missing = train("--input", out.resolve("nothing-here").toString(), "--features", "f1");
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err()).startsWith("Cannot train: ").contains("nothing-here");

    // labels 0, 0.5, 1, 1.5, 2: the estimator's own error, with the value
    String labels = data.resolve("labels").toString();
    SharedSpark.get().range(100).selectExpr("cast(id % 5 as double) / 2 as label", "cast(id as double) as x")
        .write().parquet(labels);
    Result r = train("--input", labels, "--features", "x", "--epochs", "1");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).startsWith("Cannot train: Cannot train SGDClassifier: a row has label ")
        .contains("allowed labels are the integers 0 to 2");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void causesNameTheRootWhenItSaysSomethingElse() {
    Exception wrapped = new RuntimeException("Job aborted", new IOException("disk full"));
    assertThat(Train.causes(wrapped)).isEqualTo("Job aborted\nCaused by IOException: disk full");
    Exception same = new RuntimeException("Cannot read x: disk full", new IOException("disk full"));
    assertThat(Train.causes(same)).isEqualTo("Cannot read x: disk full");
  }

  @Test
  void writesNothingWhenWritingFails() throws IOException {
    Path target = out.resolve("model");
    Files.writeString(target, "previous");
    OutputPath output = new OutputPath(SharedSpark.get(), "model", target.toString(), true);

    List<String> written = new ArrayList<>();
    assertThatThrownBy(() -> output.write(path -> {
      written.add(path);
      Files.writeString(Path.of(path), "half");
      throw new IOException("disk full");
    })).hasMessage("disk full");

    assertThat(written).hasSize(1);
    assertThat(Files.readString(target)).isEqualTo("previous");
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("model");
    }
  }
}
