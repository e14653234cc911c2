package io.corgipile.cli;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.randn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.LogCapture;
import io.corgipile.SharedSpark;
import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.ScheduledLassoModel;
import io.corgipile.ml.ScheduledLassoParams;
import io.corgipile.source.ReadOptions;
import io.corgipile.table.delta.DeltaFixtures;
import io.corgipile.table.iceberg.IcebergFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
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
  private static final Supplier<SparkSession> NO_SESSION =
      () -> {
        throw new AssertionError("the job asked for a Spark session");
      };

  /** A session asked for once every check that needs no Spark passed. */
  private static final Supplier<SparkSession> SPARK_WOULD_START =
      () -> {
        throw new IllegalStateException("Spark would start here");
      };

  @TempDir static Path data;
  @TempDir Path out;

  private static String train;
  private static String test;
  private static String vectors;
  private static String sparse;
  private LogCapture progress;

  @BeforeAll
  static void writeData() {
    SparkSession spark = SharedSpark.get();
    train = data.resolve("train").toString();
    test = data.resolve("test").toString();
    vectors = data.resolve("vectors").toString();
    Processes.writeHiggs(Path.of(train), Path.of(test));
    // a regression target of a vector column: y = 3 x1 - 2 x2 + 1 + noise
    new VectorAssembler()
        .setInputCols(new String[] {"x1", "x2"})
        .setOutputCol("v")
        .transform(
            spark.range(5_000).select(randn(3).as("x1"), randn(4).as("x2"), randn(5).as("noise")))
        .select(
            col("v"),
            col("x1")
                .multiply(3)
                .minus(col("x2").multiply(2))
                .plus(1)
                .plus(col("noise").multiply(0.1))
                .as("y"))
        .coalesce(1)
        .write()
        .parquet(vectors);
    // for the lasso, numeric columns: y = 3 x1 - 2 x2 + 1 + noise, x3 unrelated; two files, two
    // partitions
    sparse = data.resolve("sparse").toString();
    spark
        .range(2_000)
        .select(randn(6).as("x1"), randn(7).as("x2"), randn(8).as("x3"), randn(9).as("noise"))
        .select(
            col("x1"),
            col("x2"),
            col("x3"),
            col("x1")
                .multiply(3)
                .minus(col("x2").multiply(2))
                .plus(1)
                .plus(col("noise").multiply(0.1))
                .as("y"))
        .repartition(2)
        .write()
        .parquet(sparse);
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
    int status =
        Train.run(
            args,
            session,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(
        status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
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

    Result r =
        train(
            "--input",
            train,
            "--features",
            FEATURES,
            "--epochs",
            "4",
            "--test",
            test,
            "--model",
            model.toString(),
            "--metrics",
            metrics.toString(),
            "--seed",
            "7",
            "--partitions",
            "2");

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("task").asText()).isEqualTo("classification");
    assertThat(m.get("settings").get("estimator").asText()).isEqualTo("SGDClassifier");
    assertThat(m.get("settings").get("loss").asText()).isEqualTo("logistic");
    assertThat(m.get("settings").get("deltaCompression").asText())
        .isEqualTo(io.corgipile.ml.SGDParams.DEFAULT_DELTA_COMPRESSION);
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
    long right =
        loaded
            .transform(SharedSpark.get().read().parquet(test))
            .filter(col("prediction").equalTo(col("label")))
            .count();
    assertThat(right / 5_000.0).isEqualTo(evaluation.get("accuracy").asDouble());

    assertThat(r.out())
        .startsWith("Trained SGDClassifier on 20,000 rows in " + epochs + " epochs")
        .contains("Test (5,000 rows): accuracy ", "Model: " + model);
    // the feature summary's line, the step size calibration's, then one progress line per epoch,
    // with the time left
    List<String> all = progress.messages(Level.INFO);
    assertThat(all.get(0)).startsWith("SGDClassifier: features summarized for standardization in ");
    assertThat(all.get(1))
        .startsWith("SGDClassifier: stepSize ")
        .contains(" chosen on 2,000 rows drawn from every partition in ");
    List<String> lines = all.subList(2, all.size());
    assertThat(lines).hasSize(epochs);
    assertThat(lines.get(0))
        .startsWith("SGDClassifier epoch 1/4: objective ")
        .contains(" rows/s), at most ");
    // nothing but the two outputs in the output folder: no temporary siblings left
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("model", "metrics.json");
    }
  }

  @Test
  void trainsARegressorOnOneVectorColumn() throws IOException {
    Path metrics = out.resolve("metrics.json");

    Result r =
        train(
            "--input",
            vectors,
            "--label",
            "y",
            "--features",
            "v",
            "--task",
            "regression",
            "--loss",
            "huber",
            "--epochs",
            "5",
            "--delta-compression",
            "INT8",
            "--test",
            vectors,
            "--metrics",
            metrics.toString());

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("settings").get("estimator").asText()).isEqualTo("SGDRegressor");
    assertThat(m.get("settings").get("loss").asText()).isEqualTo("huber");
    assertThat(m.get("settings").get("deltaCompression").asText()).isEqualTo("int8");
    // a model that learned nothing has r2 0; huber's linear tails converge more slowly than squared
    assertThat(m.get("test").get("r2").asDouble()).isGreaterThan(0.8);
    assertThat(m.has("model")).isFalse();
  }

  @Test
  void labelsOfMoreThanTwoClassesTrainAMultinomialModel() throws IOException {
    String classes = data.resolve("classes").toString();
    SharedSpark.get()
        .range(3_000)
        .selectExpr(
            "cast(id % 3 as double) as label",
            "cast(id % 3 as double) + rand(1) as x1", "rand(2) as x2")
        .write()
        .parquet(classes);
    Path metrics = out.resolve("metrics.json");

    Result r =
        train(
            "--input",
            classes,
            "--features",
            "x1,x2",
            "--epochs",
            "3",
            "--test",
            classes,
            "--metrics",
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
    String[] args = {
      "--input", train, "--features", FEATURES, "--epochs", "1", "--metrics", metrics.toString()
    };

    Result refused = run(NO_SESSION, args); // refused before Spark starts
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.err())
        .startsWith(
            "Cannot write the metrics to "
                + metrics
                + ": it exists; pass --overwrite to replace it");
    assertThat(progress.messages(Level.INFO)).as("refused before training").isEmpty();
    assertThat(Files.readString(metrics)).isEqualTo("earlier");

    Result replaced = train(with(args, "--overwrite"));
    assertThat(replaced.status()).as(replaced.err()).isZero();
    assertThat(new ObjectMapper().readTree(metrics.toFile()).get("training").get("epochs").asInt())
        .isEqualTo(1);
  }

  @Test
  void helpListsEveryArgumentWithoutStartingSpark() {
    Result r = run(NO_SESSION, "--input", "x", "--help");

    assertThat(r.status()).isZero();
    for (io.corgipile.options.CommandLine.Option o : TrainArguments.OPTIONS) {
      assertThat(r.out()).contains("--" + o.name());
    }
    assertThat(r.out())
        .startsWith("Usage: io.corgipile.cli.Train --input PATH --features COLS [options]")
        .contains(
            "Exit status: 0 done, 1 training failed (the cause is printed), 2 bad arguments.");
  }

  @Test
  void helpShowsTheRealDefaultsAndChoices() {
    String help = TrainArguments.usage();

    assertThat(help)
        .contains(
            "(default " + new io.corgipile.ml.SGDClassifier().getMaxIter() + ";",
            "(default " + io.corgipile.source.ReadOptions.BUFFER_SIZE_DEFAULT + ")",
            "(default: the data source's, " + io.corgipile.source.ReadOptions.SEED_DEFAULT + ")",
            "Spark's default parallelism, at most the number of blocks",
            "classification: "
                + io.corgipile.ml.SGDClassifier.SUPPORTED_LOSSES.get(0)
                + " (default)",
            "regression: " + io.corgipile.ml.SGDRegressor.SUPPORTED_LOSSES.get(0) + " (default)",
            io.corgipile.shuffle.BufferSize.FORMAT);
    for (io.corgipile.shuffle.ShuffleMode mode : io.corgipile.shuffle.ShuffleMode.values()) {
      assertThat(help)
          .contains(
              mode.optionValue()
                  + (mode.optionValue().equals(io.corgipile.source.ReadOptions.SHUFFLE_DEFAULT)
                      ? " (default)"
                      : ""));
    }
    // today's values, so a drift of the help text shows here too
    assertThat(help)
        .contains(
            "--epochs N         most epochs to train (default 10; training may stop earlier",
            "--buffer SIZE      shuffle buffer per partition: auto (the larger of 10% of the"
                + " partition's rows and 4 of its row groups, at most the partition and a share of"
                + " an executor's memory), a row count (100000), a size of decoded rows (64m, 1g)"
                + " or a share of the partition's rows (10%) (default auto)",
            "--shuffle MODE     corgipile (default), block, window or none",
            "--seed N           seed of the shuffle order and, for lasso, of the scheduler's draws"
                + " (default: the data source's, 42)",
            "--loss LOSS        classification: logistic (default) or hinge; regression: squared"
                + " (default) or huber",
            "--delta-compression NAME how a partition's model change travels to the driver each"
                + " round: none (default) or int8 (with error feedback)",
            "--task TASK        classification (SGDClassifier, the default), regression"
                + " (SGDRegressor) or lasso (ScheduledLasso)");
  }

  @Test
  void helpShowsTheLassoOptionsWithTheEstimatorsDefaultsAndChoices() {
    String help = TrainArguments.usage();
    String lassoSection = help.substring(help.indexOf("Options of --task lasso only"));

    for (TrainArguments.LassoOption o : TrainArguments.LASSO_OPTIONS) {
      assertThat(lassoSection).contains("  --" + o.name() + " ");
    }
    assertThat(help)
        .contains("Options of --task classification and regression only:\n  --loss LOSS ");
    // the defaults of ScheduledLassoParams, the one home, as the help writes numbers
    assertThat(lassoSection)
        .contains(
            "(>= 0; default " + TrainArguments.text(ScheduledLassoParams.DEFAULT_REG_PARAM) + ")",
            "(in [0, 1]; default "
                + TrainArguments.text(ScheduledLassoParams.DEFAULT_ELASTIC_NET_PARAM)
                + ")",
            "(>= 0, 0: automatic; default " + ScheduledLassoParams.DEFAULT_SCHEDULE_SIZE + ")",
            "(>= 1; default "
                + TrainArguments.text(ScheduledLassoParams.DEFAULT_CANDIDATE_FACTOR)
                + ")",
            "(in [0, 1]; default "
                + TrainArguments.text(ScheduledLassoParams.DEFAULT_CORRELATION_THRESHOLD)
                + ")",
            "(> 0; default "
                + TrainArguments.text(ScheduledLassoParams.DEFAULT_PRIORITY_FLOOR)
                + ")",
            "(>= 1; default " + ScheduledLassoParams.DEFAULT_MAX_ITER + ")",
            "(>= 0; default " + TrainArguments.text(ScheduledLassoParams.DEFAULT_TOL) + ")",
            "(>= 1; default " + ScheduledLassoParams.DEFAULT_REFRESH_INTERVAL + ")",
            String.join(", ", ScheduledLassoParams.SCHEDULERS)
                + " (default "
                + ScheduledLassoParams.SCHEDULERS.get(0)
                + ")");
    // --seed's default is the lasso's too
    assertThat(new ScheduledLasso().getSeed()).isEqualTo(ReadOptions.SEED_DEFAULT);
    // today's values, so a drift of the help text shows here too
    assertThat(lassoSection)
        .contains(
            "  --scheduler NAME          how a round's coefficients are picked:"
                + " priority+dependency, priority, random (default priority+dependency)\n",
            "  --schedule-size N         coefficients updated together in a round (L); 0 chooses"
                + " them from the data: with the dependency check a round keeps every candidate it"
                + " lets through and a pass's candidates are the non-zero coefficients and as many"
                + " more drawn by priority; without it, 32 (>= 0, 0: automatic; default 0)\n",
            "  --max-iter N              the most rounds (a round updates the coefficients the"
                + " scheduler picks together; with the dependency check one pass over the data"
                + " serves several) (>= 1; default 100000)\n",
            "(>= 0; default 0.000001)\n",
            "  --fit-intercept BOOL      whether to fit an intercept term (true or false; default"
                + " true)\n");
  }

  static Stream<Arguments> badArguments() {
    String in = "--input=in";
    String f = "--features=a,b";
    return Stream.of(
        Arguments.of(new String[] {f}, "Cannot train: --input is required"),
        Arguments.of(new String[] {in}, "Cannot train: --features is required"),
        Arguments.of(
            new String[] {in, f, "extra"},
            "Cannot use argument 'extra': expected an option such as --input"),
        Arguments.of(
            new String[] {in, f, "--epoch", "3"},
            "Cannot use option --epoch: unknown; options are --input, --label, --features, --task,"
                + " --loss, --epochs, --delta-compression, --reg-param, --elastic-net-param,"
                + " --scheduler, --schedule-size, --candidate-factor, --correlation-threshold,"
                + " --priority-floor, --max-iter, --tol, --refresh-interval, --fit-intercept,"
                + " --standardization, --buffer, --shuffle, --partitions, --seed, --test, --model,"
                + " --metrics, --overwrite, --help"),
        Arguments.of(
            new String[] {in, f, "--epochs"}, "Cannot use option --epochs: it needs a value (N)"),
        Arguments.of(new String[] {in, f, in}, "Cannot use option --input twice"),
        Arguments.of(
            new String[] {in, f, "--overwrite=yes"},
            "Cannot use option --overwrite: it takes no value"),
        Arguments.of(
            new String[] {in, "--features=a,,b"},
            "Cannot use --features 'a,,b': expected a comma list of" + " column names"),
        Arguments.of(
            new String[] {in, f, "--task", "ranking"},
            "Cannot use --task 'ranking': expected" + " classification, regression, lasso"),
        Arguments.of(
            new String[] {in, f, "--shuffle", "full"},
            "Cannot use --shuffle 'full': expected corgipile," + " block, window, none"),
        Arguments.of(
            new String[] {in, f, "--buffer", "ten"},
            "Cannot use --buffer 'ten': expected auto (the larger of 10% of the partition's rows"
                + " and 4 of its row groups, at most the partition and a share of an executor's"
                + " memory), a row count (100000), a size of decoded rows (64m, 1g) or a share of"
                + " the partition's rows (10%)"),
        Arguments.of(
            new String[] {in, f, "--epochs", "0"},
            "Cannot use --epochs '0': expected an integer >= 1 and" + " <= 2147483647"),
        Arguments.of(
            new String[] {in, f, "--epochs", "many"},
            "Cannot use --epochs 'many': expected an integer" + " >= 1 and <= 2147483647"),
        Arguments.of(
            new String[] {in, f, "--partitions", "-2"},
            "Cannot use --partitions '-2': expected an integer" + " >= 1 and <= 2147483647"),
        Arguments.of(
            new String[] {in, f, "--delta-compression", "fp16"},
            "Cannot use --delta-compression 'fp16': expected none, int8"),
        Arguments.of(
            new String[] {in, f, "--seed", "1.5"},
            "Cannot use --seed '1.5': expected a 64-bit integer"),
        Arguments.of(
            new String[] {in, f, "--loss", "squared"},
            "Cannot use --loss 'squared': expected logistic or" + " hinge for classification"),
        Arguments.of(
            new String[] {in, f, "--task", "regression", "--loss", "hinge"},
            "Cannot use --loss 'hinge':" + " expected squared or huber for regression"));
  }

  /** The lasso's options: each value the param refuses, named with what the param allows. */
  static Stream<Arguments> badLassoValues() {
    return Stream.of(
        Arguments.of("--reg-param", "-1", "a number >= 0"),
        Arguments.of("--reg-param", "NaN", "a number >= 0"),
        Arguments.of("--reg-param", "1e400", "a number >= 0"),
        Arguments.of("--elastic-net-param", "1.5", "a number in [0, 1]"),
        Arguments.of("--scheduler", "shotgun", "priority+dependency, priority, random"),
        Arguments.of("--schedule-size", "-1", "an integer >= 0, 0: automatic"),
        Arguments.of("--schedule-size", "2.5", "an integer >= 0, 0: automatic"),
        Arguments.of("--candidate-factor", "0.5", "a number >= 1"),
        Arguments.of("--correlation-threshold", "-0.1", "a number in [0, 1]"),
        Arguments.of("--priority-floor", "0", "a number > 0"),
        Arguments.of("--max-iter", "0", "an integer >= 1"),
        Arguments.of("--max-iter", "many", "an integer >= 1"),
        Arguments.of("--tol", "1d", "a number >= 0"),
        Arguments.of("--refresh-interval", "0", "an integer >= 1"),
        Arguments.of("--fit-intercept", "yes", "true or false"),
        Arguments.of("--standardization", "1", "true or false"));
  }

  @ParameterizedTest
  @MethodSource("badLassoValues")
  void badLassoValuesExitWithStatus2AndSayWhatTheParamAllows(
      String option, String value, String allowed) {
    Result r = run(NO_SESSION, "--input=in", "--features=a", "--task", "lasso", option, value);

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "Cannot use "
                + option
                + " '"
                + value
                + "': expected "
                + allowed
                + "\nRun with --help for the arguments.\n");
  }

  @Test
  void everyLassoOptionHasABadValueCase() {
    assertThat(badLassoValues().map(a -> (String) a.get()[0]).distinct())
        .containsExactlyInAnyOrderElementsOf(
            TrainArguments.LASSO_OPTIONS.stream().map(o -> "--" + o.name()).toList());
  }

  /** Options of some tasks only are refused with the others, naming the tasks they apply to. */
  static Stream<Arguments> optionsOfOtherTasks() {
    return Stream.of(
        Arguments.of(
            new String[] {"--task", "lasso", "--loss", "squared"},
            "Cannot use --loss with --task lasso: it applies to --task classification or"
                + " regression"),
        Arguments.of(
            new String[] {"--task", "lasso", "--epochs", "3"},
            "Cannot use --epochs with --task lasso: it applies to --task classification or"
                + " regression"),
        Arguments.of(
            new String[] {"--task", "lasso", "--delta-compression", "int8"},
            "Cannot use --delta-compression with --task lasso: it applies to --task classification"
                + " or regression"),
        Arguments.of(
            new String[] {"--scheduler", "random"},
            "Cannot use --scheduler with --task classification (the default): it applies to --task"
                + " lasso"),
        Arguments.of(
            new String[] {"--task", "regression", "--reg-param", "0.1"},
            "Cannot use --reg-param with --task regression: it applies to --task lasso"),
        Arguments.of(
            new String[] {"--task", "classification", "--max-iter", "5"},
            "Cannot use --max-iter with --task classification: it applies to --task lasso"));
  }

  @ParameterizedTest
  @MethodSource("optionsOfOtherTasks")
  void optionsOfOtherTasksAreRefusedBeforeSparkStarts(String[] args, String message) {
    Result r = run(NO_SESSION, with(new String[] {"--input=in", "--features=a"}, args));

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(message + "\nRun with --help for the arguments.\n");
  }

  @Test
  void everyParamOfTheLassoHasAnOption() {
    List<String> columns = List.of("featuresCol", "labelCol", "predictionCol");
    List<String> params =
        java.util.Arrays.stream(new ScheduledLasso().params())
            .map(p -> p.name())
            .filter(name -> !columns.contains(name) && !name.equals("seed"))
            .toList(); // the seed is --seed's
    assertThat(TrainArguments.LASSO_OPTIONS.stream().map(TrainArguments.LassoOption::param))
        .containsExactlyInAnyOrderElementsOf(params);
  }

  @Test
  void lassoOptionsParseAsTheirParamsTakeThem() {
    TrainArguments none =
        TrainArguments.parse(new String[] {"--input=in", "--features=a", "--task", "LASSO"});
    assertThat(none.task()).isEqualTo(TrainArguments.Task.LASSO);
    assertThat(none.lassoParams()).as("the estimator's defaults apply").isEmpty();

    TrainArguments some =
        TrainArguments.parse(
            new String[] {
              "--input=in",
              "--features=a",
              "--task=lasso",
              "--reg-param=.5",
              "--scheduler",
              " Priority ",
              "--max-iter",
              "7",
              "--fit-intercept",
              "FALSE",
              "--tol",
              "1e-3"
            });
    assertThat(some.lassoParams())
        .containsExactly(
            Map.entry("regParam", 0.5),
            Map.entry("scheduler", "priority"),
            Map.entry("maxIter", 7),
            Map.entry("tol", 1e-3),
            Map.entry("fitIntercept", false));
  }

  @Test
  void lassoTrainsOnNumericColumnsEvaluatesAndSavesTheAssemblingPipeline() throws IOException {
    Path model = out.resolve("model");
    Path metrics = out.resolve("metrics.json");

    Result r =
        train(
            "--task",
            "lasso",
            "--input",
            sparse,
            "--label",
            "y",
            "--features",
            "x1,x2,x3",
            "--reg-param",
            "0.05",
            "--test",
            sparse,
            "--model",
            model.toString(),
            "--metrics",
            metrics.toString(),
            "--seed",
            "3",
            "--partitions",
            "2");

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("task").asText()).isEqualTo("lasso");
    JsonNode settings = m.get("settings");
    assertThat(settings.get("estimator").asText()).isEqualTo("ScheduledLasso");
    assertThat(settings.get("regParam").asDouble()).isEqualTo(0.05);
    // the params not given are written with the estimator's defaults
    assertThat(settings.get("scheduler").asText())
        .isEqualTo(ScheduledLassoParams.SCHEDULERS.get(0));
    assertThat(settings.get("maxIter").asInt()).isEqualTo(ScheduledLassoParams.DEFAULT_MAX_ITER);
    assertThat(settings.get("seed").asLong()).isEqualTo(3);
    assertThat(settings.get("partitions").asInt()).isEqualTo(2);
    assertThat(settings.has("loss")).isFalse();
    assertThat(settings.has("maxEpochs")).isFalse();
    assertThat(settings.has("deltaCompression")).isFalse();
    JsonNode training = m.get("training");
    assertThat(training.get("rows").asLong()).isEqualTo(2_000);
    int rounds = training.get("rounds").asInt();
    assertThat(rounds).isBetween(1, ScheduledLassoParams.DEFAULT_MAX_ITER - 1); // tol stopped it
    for (String history :
        List.of("objectiveHistory", "secondsHistory", "updatesHistory", "rejectedPerRound")) {
      assertThat(training.get(history)).as(history).hasSize(rounds + 1);
    }
    JsonNode objective = training.get("objectiveHistory");
    assertThat(objective.get(rounds).asDouble()).isLessThan(objective.get(0).asDouble() / 10);
    JsonNode evaluation = m.get("test");
    assertThat(evaluation.get("rows").asLong()).isEqualTo(2_000);
    // noise 0.1, and the penalty shrinks the two coefficients by about 0.05 each
    assertThat(evaluation.get("rmse").asDouble()).isLessThan(0.2);
    assertThat(evaluation.get("r2").asDouble()).isGreaterThan(0.99);
    assertThat(evaluation.has("mae")).isTrue();

    // the saved pipeline assembles the raw columns itself, and scores as the metrics say
    PipelineModel loaded = PipelineModel.load(model.toString());
    assertThat(loaded.stages()).hasSize(2);
    assertThat(loaded.stages()[0]).isInstanceOf(VectorAssembler.class);
    ScheduledLassoModel lasso = (ScheduledLassoModel) loaded.stages()[1];
    Vector w = lasso.coefficients();
    assertThat(w.apply(0)).isCloseTo(3 - 0.05, offset(0.05));
    assertThat(w.apply(1)).isCloseTo(-2 + 0.05, offset(0.05));
    assertThat(w.apply(2)).as("the unrelated feature's coefficient").isZero();
    assertThat(lasso.getSeed()).isEqualTo(3);
    double rmse =
        new RegressionEvaluator()
            .setLabelCol("y")
            .setMetricName("rmse")
            .evaluate(loaded.transform(SharedSpark.get().read().parquet(sparse)));
    assertThat(rmse).isCloseTo(evaluation.get("rmse").asDouble(), offset(1e-9));

    assertThat(r.out())
        .startsWith("Trained ScheduledLasso on 2,000 rows in " + rounds + " rounds (")
        .contains("Test (2,000 rows): rmse ", "Model: " + model);
    assertThat(progress.messages(Level.INFO)).as("no SGD progress lines").isEmpty();
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("model", "metrics.json");
    }
  }

  @Test
  void everyLassoOptionReachesTheEstimator() throws IOException {
    // a value other than the default for every option, and the param value it must set
    Map<String, Object[]> given = new LinkedHashMap<>();
    given.put("reg-param", new Object[] {"0.01", 0.01});
    given.put("elastic-net-param", new Object[] {"0.5", 0.5});
    given.put("scheduler", new Object[] {"random", "random"});
    given.put("schedule-size", new Object[] {"1", 1});
    given.put("candidate-factor", new Object[] {"3", 3.0});
    given.put("correlation-threshold", new Object[] {"0.5", 0.5});
    given.put("priority-floor", new Object[] {"0.002", 0.002});
    given.put("max-iter", new Object[] {"7", 7});
    given.put("tol", new Object[] {"0", 0.0});
    given.put("refresh-interval", new Object[] {"3", 3});
    given.put("fit-intercept", new Object[] {"false", false});
    given.put("standardization", new Object[] {"false", false});
    assertThat(given.keySet())
        .as("a case for every lasso option")
        .containsExactlyInAnyOrderElementsOf(
            TrainArguments.LASSO_OPTIONS.stream().map(o -> o.name()).toList());
    List<String> args =
        new ArrayList<>(
            List.of(
                "--task",
                "lasso",
                "--input",
                vectors,
                "--label",
                "y",
                "--features",
                "v",
                "--seed",
                "11",
                "--model",
                out.resolve("model").toString(),
                "--metrics",
                out.resolve("metrics.json").toString()));
    given.forEach((option, value) -> args.addAll(List.of("--" + option, (String) value[0])));

    Result r = train(args.toArray(new String[0]));

    assertThat(r.status()).as(r.err()).isZero();
    JsonNode m = new ObjectMapper().readTree(out.resolve("metrics.json").toFile());
    // one vector column: the lasso alone, no assembly
    PipelineModel loaded = PipelineModel.load(out.resolve("model").toString());
    assertThat(loaded.stages()).hasSize(1);
    ScheduledLassoModel saved = (ScheduledLassoModel) loaded.stages()[0];
    for (TrainArguments.LassoOption option : TrainArguments.LASSO_OPTIONS) {
      Object expected = given.get(option.name())[1];
      Object defaultValue = saved.getDefault(saved.getParam(option.param())).get();
      assertThat(expected).as("--%s is not the default", option.name()).isNotEqualTo(defaultValue);
      assertThat(saved.getOrDefault(saved.getParam(option.param())))
          .as("saved %s", option.param())
          .isEqualTo(expected);
      assertThat(
              new ObjectMapper().convertValue(m.get("settings").get(option.param()), Object.class))
          .as("metrics %s", option.param())
          .isEqualTo(expected);
    }
    assertThat(saved.getSeed()).isEqualTo(11);
    // what the estimator did with them: 7 rounds (tol 0 runs them all), one update a round, no
    // intercept
    JsonNode training = m.get("training");
    assertThat(training.get("rounds").asInt()).isEqualTo(7);
    assertThat(training.get("updatesHistory").get(7).asLong()).isEqualTo(7);
    assertThat(saved.intercept()).isZero();
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void badArgumentsExitWithStatus2AndSayWhichBeforeSparkStarts(String[] args, String message) {
    Result r = run(NO_SESSION, args);

    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(message + "\nRun with --help for the arguments.\n");
    assertThat(r.out()).isEmpty();
  }

  /**
   * Issue 39: the columns come from a data file's footer and the partition folders, before Spark
   * starts.
   */
  /**
   * A Delta table's files name its columns physically under column mapping, so only the table's
   * schema says which columns it has: {@code feature} is a renamed column of this one.
   */
  @Test
  void trainsOnADeltaTableByItsOwnColumnNames() throws IOException, InterruptedException {
    String table = DeltaFixtures.tables().resolve(DeltaFixtures.MAPPED_BY_ID).toString();
    Result r = train("--input", table, "--features", "feature", "--epochs", "1");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("Trained SGDClassifier on 450 rows in 1 epoch");
  }

  /**
   * An Iceberg table too, its live rows only: 1,314 of the 1,571 written, the others removed by
   * equality deletes; three classes, as {@code label} is {@code id % 3}.
   */
  @Test
  void trainsOnAnIcebergTableByItsOwnColumnNames() throws IOException {
    String table = IcebergFixtures.tables().resolve(IcebergFixtures.EQUALITY_DELETES).toString();
    Result r = train("--input", table, "--features", "x", "--epochs", "1");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("Trained SGDClassifier on 1,314 rows in 1 epoch");
  }

  @Test
  void columnsTheInputLacksAreBadArgumentsBeforeSparkStarts() {
    String columns =
        "its columns are id, label, " + String.join(", ", HiggsShapedData.featureNames());
    assertThat(run(NO_SESSION, "--input", train, "--features", FEATURES, "--label", "target"))
        .isEqualTo(
            new Result(
                2,
                "",
                "Cannot use --label 'target': "
                    + train
                    + " has no such column; "
                    + columns
                    + "\nRun with --help for the arguments.\n"));
    assertThat(run(NO_SESSION, "--input", train, "--features", "f1,f99"))
        .isEqualTo(
            new Result(
                2,
                "",
                "Cannot use --features: "
                    + train
                    + " has no column 'f99'; "
                    + columns
                    + "\nRun with --help for the arguments.\n"));

    // partition folders' keys are columns too; hidden files and Spark's markers are no data
    String partitioned = data.resolve("partitioned").toString();
    SharedSpark.get()
        .range(10)
        .selectExpr("cast(id % 2 as double) as label", "cast(id as double) as x", "id % 2 as day")
        .write()
        .partitionBy("day")
        .parquet(partitioned);
    assertThat(run(NO_SESSION, "--input", partitioned, "--features", "x,day,nope").err())
        .startsWith(
            "Cannot use --features: "
                + partitioned
                + " has no column 'nope'; its columns are label, x, day\n");
  }

  @Test
  void aNonNumericFeatureIsABadArgumentBeforeSparkStarts() {
    String strings = data.resolve("strings").toString();
    SharedSpark.get()
        .range(10)
        .selectExpr("cast(id as string) as name", "0.0 as label")
        .write()
        .parquet(strings);

    assertThat(run(NO_SESSION, "--input", strings, "--features", "name").err())
        .startsWith(
            "Cannot use --features:"
                + " column 'name' is string; features are numeric columns or one vector column\n");
  }

  @Test
  void inputAndTestThatDoNotExistOrHoldNoDataAreBadArgumentsBeforeSparkStarts() throws IOException {
    String missing = out.resolve("nothing-here").toString();
    assertThat(run(NO_SESSION, "--input", missing, "--features", "f1"))
        .isEqualTo(
            new Result(
                2,
                "",
                "Cannot use --input "
                    + missing
                    + ": no such file or folder"
                    + "\nRun with --help for the arguments.\n"));
    assertThat(run(NO_SESSION, "--input", train, "--features", "f1", "--test", missing).err())
        .startsWith("Cannot use --test " + missing + ": no such file or folder\n");
    // globs match as Spark's do: these pass, and Spark would start next
    assertThat(
            run(
                SPARK_WOULD_START,
                "--input",
                data.resolve("train/*.parquet").toString(),
                "--features",
                "f1",
                "--test",
                data.resolve("t?st").toString(),
                "--model",
                out.resolve("m").toString()))
        .isEqualTo(new Result(1, "", "Cannot train: Spark would start here\n"));

    Path empty = Files.createDirectories(out.resolve("empty"));
    Files.writeString(empty.resolve("_SUCCESS"), "");
    Files.writeString(empty.resolve(".part-0.parquet.crc"), "");
    assertThat(run(NO_SESSION, "--input", empty.toString(), "--features", "f1").err())
        .startsWith(
            "Cannot use"
                + " --input "
                + empty
                + ": it holds no data files (names that start with '_' or '.' are skipped)\n");

    Path notParquet = Files.createDirectories(out.resolve("csv"));
    Files.writeString(notParquet.resolve("data.csv"), "a,b\n1,2\n");
    assertThat(run(NO_SESSION, "--input", notParquet.toString(), "--features", "a").err())
        .startsWith(
            "Cannot use"
                + " --input "
                + notParquet
                + ": file:"
                + notParquet.resolve("data.csv")
                + " is no Parquet file Spark can read (");
  }

  @Test
  void failuresExitWithStatus1AndTheCause() throws IOException {
    // labels 0, 0.5, 1, 1.5, 2: the estimator's own error, with the value
    String labels = data.resolve("labels").toString();
    SharedSpark.get()
        .range(100)
        .selectExpr("cast(id % 5 as double) / 2 as label", "cast(id as double) as x")
        .write()
        .parquet(labels);
    Result r = train("--input", labels, "--features", "x", "--epochs", "1");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("Cannot train: Cannot train SGDClassifier: a row has label ")
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
    OutputPath output =
        new OutputPath(
            SharedSpark.get().sparkContext().hadoopConfiguration(),
            "model",
            target.toString(),
            true);

    List<String> written = new ArrayList<>();
    assertThatThrownBy(
            () ->
                output.write(
                    path -> {
                      written.add(path);
                      Files.writeString(Path.of(path), "half");
                      throw new IOException("disk full");
                    }))
        .hasMessage("disk full");

    assertThat(written).hasSize(1);
    assertThat(Files.readString(target)).isEqualTo("previous");
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("model");
    }
  }
}
