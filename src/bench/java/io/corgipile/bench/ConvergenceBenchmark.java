package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.xxhash64;

import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import io.corgipile.options.EnumChoice;
import io.corgipile.source.ReadScope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.classification.LinearSVC;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF0;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * The convergence and speed experiments of issue 4: every shuffle strategy trains the same {@link
 * SGDClassifier} on the same label- or date-sorted data, next to MLlib's batch solvers; every epoch
 * is measured (objective, test accuracy and AUC, seconds, bytes read, how well the stream mixes
 * labels), and {@link BenchReport} writes CSVs, plots and a summary.
 *
 * <p>Each measured run has a JVM of its own, started by this one after it prepared the data, and
 * first trains the same strategy for {@value #WARM_UP_EPOCHS} epochs on the test table: in one
 * shared JVM the order of the runs decided which strategy looked faster (none 0.53 s against block
 * 0.45 s per epoch in one order, about equal in the other, on docs/benchmarks/results/small's
 * data).
 *
 * <p>Usage: {@code ConvergenceBenchmark [small|full|tiny] [--out DIR] [--data DIR] [--datasets
 * LIST] [--epochs N] [--partitions N] [--in-process]}.
 */
public final class ConvergenceBenchmark {
  static final double[] SWEEP_PERCENTS = {1, 2, 5, 10, 20};
  static final double BUFFER_PERCENT = 10;
  static final int WARM_UP_EPOCHS = 2;

  /**
   * The datasets a run can measure; {@link #DEFAULT_DATASETS} unless {@code --datasets} says
   * otherwise.
   */
  static final List<String> DATASETS = List.of("higgs", "flights", "separable", "classes");

  static final List<String> DEFAULT_DATASETS = List.of("higgs", "flights");
  static final List<String> STRATEGIES =
      List.of(
          "none",
          "window",
          "block",
          "corgipile",
          "shuffle-once",
          "full-shuffle",
          "mllib-lr",
          "mllib-svc");

  private ConvergenceBenchmark() {}

  /** How big a run is. */
  enum Size {
    TINY(20_000, 20_000, 2),
    SMALL(200_000, 300_000, 10),
    FULL(11_000_000, Long.MAX_VALUE, 10);

    final long higgsRows;
    final long flightsRows;
    final int epochs;

    Size(long higgsRows, long flightsRows, int epochs) {
      this.higgsRows = higgsRows;
      this.flightsRows = flightsRows;
      this.epochs = epochs;
    }
  }

  /**
   * The run's settings. {@code run} and {@code records} are set only in a JVM measuring one run for
   * its parent: which run, and the CSV file its records go to.
   */
  record Settings(
      Size size,
      Path out,
      Path data,
      List<String> datasets,
      int epochs,
      int partitions,
      boolean inProcess,
      boolean resume,
      RunSpec run,
      Path records,
      List<String> strategies,
      String sgdParams) {
    /**
     * The options; {@code --run} and {@code --records} are the parent's, for a JVM measuring one
     * run.
     */
    static final CommandLine COMMAND_LINE =
        new CommandLine(
            "run the benchmark",
            List.of(
                new Option("out", "DIR", "results folder"),
                new Option("data", "DIR", "generated and downloaded data"),
                new Option("datasets", "LIST", "comma list among " + String.join(",", DATASETS)),
                new Option("epochs", "N", "epochs per SGD run"),
                new Option("partitions", "N", "Spark partitions and local cores"),
                new Option(
                    "strategies",
                    "LIST",
                    "only these strategies, at the 10% buffer, without the buffer sweep:"
                        + " comma list among "
                        + String.join(",", STRATEGIES)),
                new Option(
                    "sgd-params",
                    "LIST",
                    "params of the SGD strategies' SGDClassifier other than its defaults:"
                        + " comma list of name=value (maxIter and tol are the benchmark's)"),
                Option.flag("in-process", "measure every run in this JVM"),
                Option.flag("resume", "keep the runs already in the results folder's CSVs"),
                new Option(
                    "memory-limit",
                    "SIZE",
                    "run in a memory cgroup of this size (set up by scripts/bench)"),
                new Option(
                    "read-limit",
                    "RATE",
                    "with --memory-limit, reads capped at RATE bytes/s per disk (set up by "
                        + "scripts/bench)"),
                new Option(
                    "run", "SPEC", "measure only this run (dataset:experiment:strategy:percent)"),
                new Option("records", "FILE", "the CSV file the run's records go to")),
            1);

    static Settings parse(String[] argv) {
      Arguments args = COMMAND_LINE.parse(argv);
      Size size =
          args.positional().isEmpty()
              ? Size.SMALL
              : args.choice("size", args.positional().get(0), Size.values());
      RunSpec run = args.optional("run").map(RunSpec::parse).orElse(null);
      Path records = args.optional("records").map(Path::of).orElse(null);
      if ((run == null) != (records == null)) {
        throw new IllegalArgumentException(
            "Cannot run the benchmark: --run and --records go together");
      }
      String limit = args.optional("memory-limit").orElse(null);
      args.optional("read-limit")
          .ifPresent(
              rate -> {
                ReadLimit.parseRate(rate);
                if (limit == null) {
                  throw new IllegalArgumentException(
                      "Cannot use --read-limit without --memory-limit: the data would be read "
                          + "from the page cache");
                }
              });
      if (limit != null) {
        MemoryCgroup.parseLimit(limit);
        if (System.getenv("BENCH_CGROUP") == null) {
          throw new IllegalArgumentException(
              "Cannot run the benchmark with --memory-limit "
                  + limit
                  + ": this JVM is in no memory cgroup; start it through scripts/bench, which sets"
                  + " one up (BENCH_CGROUP)");
        }
      }
      return new Settings(
          size,
          args.path("out", BenchReport.RESULTS.resolve(EnumChoice.text(size))),
          args.path("data", Path.of("target/bench-data")),
          args.optional("datasets").map(d -> List.of(d.split(","))).orElse(DEFAULT_DATASETS),
          args.atLeast("epochs", size.epochs, 1),
          args.atLeast("partitions", 2, 1),
          args.flag("in-process"),
          args.flag("resume"),
          run,
          records,
          args.optional("strategies").map(ConvergenceBenchmark::strategies).orElse(null),
          args.optional("sgd-params").orElse(""));
    }

    /** The runs over {@code dataset} these settings measure. */
    List<RunSpec> plan(String dataset) {
      List<RunSpec> all = ConvergenceBenchmark.plan(dataset);
      return strategies == null
          ? all
          : all.stream()
              .filter(
                  r ->
                      r.experiment().equals(BenchReport.STRATEGIES)
                          && strategies.contains(r.strategy()))
              .toList();
    }

    /** The arguments that make a JVM measure {@code spec} under these settings. */
    List<String> childArgs(RunSpec spec, Path recordsFile) {
      return List.of(
          EnumChoice.text(size),
          "--data",
          data.toString(),
          "--epochs",
          Integer.toString(epochs),
          "--partitions",
          Integer.toString(partitions),
          "--run",
          spec.arg(),
          "--records",
          recordsFile.toString(),
          "--sgd-params",
          sgdParams);
    }
  }

  /** One measured training run: a strategy, at a buffer size, for an experiment, on a dataset. */
  record RunSpec(String dataset, String experiment, String strategy, double percent) {
    String arg() {
      return String.join(":", dataset, experiment, strategy, percentText(percent));
    }

    static RunSpec parse(String arg) {
      String[] parts = arg.split(":");
      if (parts.length != 4 || !STRATEGIES.contains(parts[2])) {
        throw new IllegalArgumentException(
            "Cannot run the benchmark: --run takes dataset:experiment:strategy:percent"
                + " with a strategy among "
                + STRATEGIES
                + ", not '"
                + arg
                + "'");
      }
      return new RunSpec(parts[0], parts[1], parts[2], Double.parseDouble(parts[3]));
    }

    /** The sweep's 10% point is the strategies' corgipile run: not measured twice. */
    boolean isStrategiesCorgipileRun() {
      return experiment.equals(BenchReport.BUFFER_SWEEP) && percent == BUFFER_PERCENT;
    }
  }

  private static List<String> strategies(String list) {
    List<String> chosen = List.of(list.split(","));
    for (String s : chosen) {
      if (!STRATEGIES.contains(s)) {
        throw new IllegalArgumentException(
            "Cannot run the benchmark: --strategies takes a comma list among "
                + String.join(",", STRATEGIES)
                + ", not '"
                + s
                + "'");
      }
    }
    return chosen;
  }

  /**
   * {@code sgd} with the params of {@code list} ("name=value,..."), each value read as its param's
   * type.
   */
  static SGDClassifier withParams(SGDClassifier sgd, String list) {
    for (String pair : list.isEmpty() ? new String[0] : list.split(",")) {
      String[] nameValue = pair.split("=", 2);
      if (nameValue.length != 2 || !sgd.hasParam(nameValue[0])) {
        throw new IllegalArgumentException(
            "Cannot run the benchmark: --sgd-params takes name=value pairs of"
                + " SGDClassifier params, not '"
                + pair
                + "'");
      }
      Param<Object> param = sgd.getParam(nameValue[0]);
      String value = nameValue[1];
      sgd.set(
          param,
          param instanceof DoubleParam
              ? Double.valueOf(value)
              : param instanceof IntParam
                  ? Integer.valueOf(value)
                  : param instanceof LongParam
                      ? Long.valueOf(value)
                      : param instanceof BooleanParam ? Boolean.valueOf(value) : value);
    }
    return sgd;
  }

  /** The datasets of more than two classes: LinearSVC, binary only, sits them out. */
  static final List<String> MULTICLASS_DATASETS = List.of("classes");

  /**
   * The runs over one dataset: every strategy at a 10% buffer, then corgipile at every sweep size.
   */
  static List<RunSpec> plan(String dataset) {
    List<RunSpec> plan = new ArrayList<>();
    STRATEGIES.stream()
        .filter(s -> !(s.equals("mllib-svc") && MULTICLASS_DATASETS.contains(dataset)))
        .forEach(s -> plan.add(new RunSpec(dataset, BenchReport.STRATEGIES, s, BUFFER_PERCENT)));
    for (double percent : SWEEP_PERCENTS) {
      plan.add(new RunSpec(dataset, BenchReport.BUFFER_SWEEP, "corgipile", percent));
    }
    return plan;
  }

  public static void main(String[] args) throws Exception {
    Settings settings = Settings.parse(args);
    if (settings.run() != null) {
      measureOne(settings);
    } else if (settings.inProcess()) {
      SparkSession spark = session(settings);
      try {
        run(spark, settings);
      } finally {
        spark.stop();
      }
    } else {
      runForked(settings);
    }
  }

  private static SparkSession session(Settings settings) {
    return SparkSession.builder()
        .appName("corgipile-bench")
        .master(System.getProperty("spark.master", "local[" + settings.partitions() + "]"))
        .config("spark.ui.enabled", "false")
        .getOrCreate();
  }

  /**
   * Every run in this JVM (the tests, {@code --in-process}); writes the report and returns its
   * records.
   */
  static List<EpochRecord> run(SparkSession spark, Settings settings)
      throws IOException, InterruptedException {
    Report report = new Report(settings, spark, false);
    Map<String, Experiments> experiments = new HashMap<>();
    measureAll(
        prepare(spark, settings, report),
        report,
        (data, spec) ->
            experiments
                .computeIfAbsent(data.name(), name -> new Experiments(spark, settings, data))
                .measure(spec));
    return report.write();
  }

  /** Prepares the data here, then measures every run in a JVM of its own. */
  private static void runForked(Settings settings) throws IOException, InterruptedException {
    Report report;
    List<Dataset> datasets;
    SparkSession spark = session(settings);
    try {
      report = new Report(settings, spark, true);
      datasets = prepare(spark, settings, report);
    } finally {
      spark.stop();
    }
    System.gc(); // G1 hands the heap of the data preparation back, for the measuring JVMs
    measureAll(datasets, report, (data, spec) -> fork(settings, spec));
    report.write();
  }

  /** How a run is measured: here, or in a JVM of its own. */
  private interface Measurer {
    List<EpochRecord> measure(Dataset data, RunSpec spec) throws IOException, InterruptedException;
  }

  private static void measureAll(List<Dataset> datasets, Report report, Measurer measurer)
      throws InterruptedException {
    for (Dataset data : datasets) {
      for (RunSpec spec : report.settings.plan(data.name())) {
        if (report.has(spec)) {
          continue; // measured by the run this one resumes
        }
        if (spec.isStrategiesCorgipileRun()) {
          report.addStrategiesCorgipileRun(data, spec);
          continue;
        }
        try {
          report.add(data, spec, measurer.measure(data, spec));
        } catch (IOException e) { // one failed run (out of memory, say) should not lose the others
          System.err.println("[bench] " + e.getMessage());
          report.note(e.getMessage() + "; it is missing from the tables.");
        }
        report.checkpoint();
      }
    }
  }

  /** Measures {@code spec} in a new JVM with this one's options and class path. */
  static List<EpochRecord> fork(Settings settings, RunSpec spec)
      throws IOException, InterruptedException {
    Path records = Files.createTempFile("corgipile-bench-", ".csv");
    try {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
      command.addAll(
          List.of(
              "-cp", System.getProperty("java.class.path"), ConvergenceBenchmark.class.getName()));
      command.addAll(settings.childArgs(spec, records));
      int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
      if (exit != 0) {
        throw new IOException(
            "Cannot measure run "
                + spec.arg()
                + ": the JVM measuring it exited with status "
                + exit
                + " (its error is in the output above)");
      }
      return ReportCsv.read(records);
    } finally {
      Files.deleteIfExists(records);
    }
  }

  /** The child's side of {@link #fork}: measures one run and writes its records. */
  private static void measureOne(Settings settings) throws IOException {
    SparkSession spark = session(settings);
    try {
      RunSpec spec = settings.run();
      Dataset data = dataset(spark, settings, spec.dataset(), false);
      BenchReport.writeString(
          settings.records(), ReportCsv.csv(new Experiments(spark, settings, data).measure(spec)));
    } finally {
      spark.stop();
    }
  }

  private static List<Dataset> prepare(SparkSession spark, Settings settings, Report report) {
    List<Dataset> prepared = new ArrayList<>();
    for (String name : settings.datasets()) {
      try {
        Dataset data = dataset(spark, settings, name, true);
        report.describe(data);
        prepared.add(data);
      } catch (RuntimeException e) {
        String why = "Dataset " + name + " left out: " + e.getMessage();
        System.err.println("[bench] " + why);
        report.note(why);
      }
    }
    return prepared;
  }

  private static Dataset dataset(
      SparkSession spark, Settings settings, String name, boolean shuffleCopy) {
    return switch (name) {
      case "higgs" -> higgs(spark, settings, shuffleCopy);
      case "flights" -> flights(spark, settings, shuffleCopy);
      case "separable" -> separable(spark, settings, shuffleCopy);
      case "classes" -> classes(spark, settings, shuffleCopy);
      default ->
          throw new IllegalArgumentException(
              "Cannot run the benchmark: unknown dataset '"
                  + name
                  + "'; datasets are "
                  + String.join(", ", DATASETS));
    };
  }

  /** The records of the run, and what the summary says around them. */
  private static final class Report {
    private final Settings settings;
    private final String header;
    private final StringBuilder datasets = new StringBuilder();
    private final StringBuilder notes = new StringBuilder();
    private final List<EpochRecord> records = new ArrayList<>();

    Report(Settings settings, SparkSession spark, boolean forked) {
      this.settings = settings;
      this.header =
          String.format(
              Locale.ROOT,
              "Run: `%s` (%s), size %s, %d epochs, %d partitions, Spark %s local[%d] on a %d-core"
                  + " machine, %s; %s, after %d warm-up epochs of the same strategy on the test"
                  + " table.%n",
              System.getenv().getOrDefault("BENCH_COMMAND", "ConvergenceBenchmark"),
              System.getenv().getOrDefault("BENCH_CODE", "code version unknown"),
              EnumChoice.text(settings.size()),
              settings.epochs(),
              settings.partitions(),
              spark.version(),
              settings.partitions(),
              Runtime.getRuntime().availableProcessors(),
              java.time.LocalDate.now(),
              forked ? "each run in a JVM of its own" : "every run in one JVM",
              WARM_UP_EPOCHS);
      if (settings.resume()) {
        loadEarlierRuns();
      }
    }

    /**
     * With {@code --resume}, the runs a stopped run of the same settings already wrote to the
     * results folder: they are kept, and only the others are measured.
     */
    private void loadEarlierRuns() {
      try {
        for (String experiment : List.of(BenchReport.STRATEGIES, BenchReport.BUFFER_SWEEP)) {
          Path csv = settings.out().resolve(experiment + ".csv");
          if (Files.exists(csv)) {
            records.addAll(ReportCsv.read(csv));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot resume from " + settings.out() + ": " + e.getMessage(), e);
      }
      long runs = BenchRun.group(records).size();
      note(
          "Resumed: "
              + runs
              + " runs come from an earlier invocation of the benchmark on the same data,"
              + " which "
              + settings.out()
              + " held when this one started.");
    }

    /** Whether {@code spec} was measured: by this run, or by the run it resumes. */
    boolean has(RunSpec spec) {
      return records.stream()
          .anyMatch(
              r ->
                  r.dataset().equals(spec.dataset())
                      && r.experiment().equals(spec.experiment())
                      && r.strategy().equals(spec.strategy())
                      && (Double.isNaN(r.bufferPercent()) || r.bufferPercent() == spec.percent()));
    }

    void describe(Dataset data) {
      datasets.append("- ").append(data.description()).append('\n');
    }

    void note(String note) {
      notes.append(note).append('\n');
    }

    void add(Dataset data, RunSpec spec, List<EpochRecord> measured) {
      for (EpochRecord r : measured) {
        // the shuffled copy's cost comes before shuffle-once's first epoch
        records.add(
            spec.strategy().equals("shuffle-once")
                ? r.withCumulativeSeconds(r.cumulativeSeconds() + data.shuffleSeconds())
                : r);
      }
    }

    /** The sweep's 10% point: a copy of the strategies' corgipile run. */
    void addStrategiesCorgipileRun(Dataset data, RunSpec spec) {
      records.stream()
          .filter(
              r ->
                  r.dataset().equals(data.name())
                      && r.experiment().equals(BenchReport.STRATEGIES)
                      && r.strategy().equals("corgipile"))
          .toList()
          .forEach(r -> records.add(r.withExperiment(spec.experiment())));
    }

    /**
     * A long run writes its report after every run, so stopping it early keeps what it measured.
     */
    void checkpoint() {
      if (settings.size() == Size.FULL) {
        write();
      }
    }

    List<EpochRecord> write() {
      try {
        BenchReport.write(settings.out(), records, header + "\n" + datasets, notes.toString());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write the report to " + settings.out(), e);
      }
      System.err.println("[bench] wrote " + settings.out().resolve(BenchReport.SUMMARY));
      return records;
    }
  }

  /**
   * {@code 10} for 10.0, {@code 0.5} for 0.5: as the bufferSize option and the reports write it.
   */
  static String percentText(double percent) {
    return java.math.BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString();
  }

  /** A dataset's tables and how to turn its columns into features. */
  record Dataset(
      String name,
      String sortedTrain,
      String shuffledTrain,
      double shuffleSeconds,
      String test,
      PipelineStage[] featureStages,
      String description) {}

  private static Dataset higgs(SparkSession spark, Settings settings, boolean shuffleCopy) {
    return generated(
        spark,
        settings,
        shuffleCopy,
        "higgs",
        HiggsShapedData::generate,
        HiggsShapedData.featureStages(),
        String.format(
            Locale.ROOT,
            "higgs: %,d generated HIGGS-shaped rows (28"
                + " dense features), sorted by label; test: other generated rows.",
            settings.size().higgsRows));
  }

  /**
   * Issue 12's first example of defaults that undertrain: features uniform on [0, 1], unscaled (no
   * StandardScaler: the estimator's standardization is what is measured), label 1 where f0 + f1 >
   * 1, so the classes are separable and MLlib's LogisticRegression gets every test row right.
   */
  private static Dataset separable(SparkSession spark, Settings settings, boolean shuffleCopy) {
    return generated(
        spark,
        settings,
        shuffleCopy,
        "separable",
        ConvergenceBenchmark::separableRows,
        assembled(SEPARABLE_FEATURES),
        String.format(
            Locale.ROOT,
            "separable: %,d generated rows of %d features uniform on [0, 1], unscaled, label"
                + " f0 + f1 > 1, sorted by label; test: other generated rows.",
            settings.size().higgsRows,
            SEPARABLE_FEATURES));
  }

  /**
   * Issue 12's multiclass set: {@value #CLASSES} classes of overlapping Gaussian clusters in
   * {@value #CLASS_FEATURES} dimensions, sorted by class, where storage order hurts most; MLlib's
   * LogisticRegression (family auto) fits it multinomial.
   */
  private static Dataset classes(SparkSession spark, Settings settings, boolean shuffleCopy) {
    return generated(
        spark,
        settings,
        shuffleCopy,
        "classes",
        ConvergenceBenchmark::classRows,
        assembled(CLASS_FEATURES),
        String.format(
            Locale.ROOT,
            "classes: %,d generated rows, %d classes of Gaussian clusters (unit variance, centers"
                + " N(0, %.2f^2) per coordinate) in %d dimensions, sorted by class; test: other"
                + " generated rows.",
            settings.size().higgsRows,
            CLASSES,
            CLASS_SPREAD,
            CLASS_FEATURES));
  }

  private static final int CLASSES = 10;
  private static final int CLASS_FEATURES = 50;

  /**
   * The spread of the cluster centers: chosen so the classes overlap (LogisticRegression about 0.8
   * accurate).
   */
  private static final double CLASS_SPREAD = 0.35;

  /**
   * Columns {@code id, f0 .. f49, label}: label uniform over the classes, features the class's
   * center plus unit noise; the same rows for the same seed and partitions, and the same centers
   * for every seed.
   */
  static org.apache.spark.sql.Dataset<Row> classRows(
      SparkSession spark, long rows, long seed, int partitions) {
    java.util.Random centers = new java.util.Random(CLASSES);
    org.apache.spark.sql.Dataset<Row> d =
        spark
            .range(0, rows, 1, partitions)
            .toDF()
            .withColumn(
                "label", functions.floor(rand(seed * 1000 + 999).multiply(CLASSES)).cast("double"));
    for (int j = 0; j < CLASS_FEATURES; j++) {
      Column[] center = new Column[CLASSES];
      for (int k = 0; k < CLASSES; k++) {
        center[k] = functions.lit(CLASS_SPREAD * centers.nextGaussian());
      }
      d =
          d.withColumn(
              "f" + j,
              functions
                  .randn(seed * 1000 + j)
                  .plus(
                      functions.element_at(
                          functions.array(center), col("label").cast("int").plus(1))));
    }
    return d;
  }

  /** The feature stages of a generated set: columns {@code f0 .. f<n-1>} assembled, unscaled. */
  private static PipelineStage[] assembled(int numFeatures) {
    String[] features = new String[numFeatures];
    Arrays.setAll(features, i -> "f" + i);
    return new PipelineStage[] {
      new VectorAssembler().setInputCols(features).setOutputCol("features")
    };
  }

  /** Rows of a generated set: the same for the same seed and partitions. */
  @FunctionalInterface
  interface RowGenerator {
    org.apache.spark.sql.Dataset<Row> rows(
        SparkSession spark, long rows, long seed, int partitions);
  }

  /**
   * A generated set of the size's {@code higgsRows} rows, sorted by label, and other generated rows
   * as its test set, written under the data folder unless they are there already.
   */
  private static Dataset generated(
      SparkSession spark,
      Settings settings,
      boolean shuffleCopy,
      String name,
      RowGenerator generator,
      PipelineStage[] features,
      String description) {
    long rows = settings.size().higgsRows;
    Path dir = settings.data().resolve(name + "-" + rows);
    String sorted = dir.resolve("train-sorted-by-label").toString();
    String test = dir.resolve("test").toString();
    if (!Files.exists(Path.of(test, "_SUCCESS"))) {
      System.err.printf(Locale.ROOT, "[bench] generating %,d %s rows under %s%n", rows, name, dir);
      // At least 100 row groups, so a 10% buffer holds 5 of a partition's, and at most 4 MB each of
      // HIGGS-shaped rows (about 18,000), so the full size has about 600, as bench-scan's table.
      generator
          .rows(spark, rows, 1, settings.partitions())
          .orderBy(col("label"), col("id"))
          .coalesce(1)
          .write()
          .mode("overwrite")
          .option("parquet.block.row.count.limit", Math.max(100, Math.min(18_000, rows / 100)))
          .parquet(sorted);
      generator
          .rows(spark, Math.min(200_000, Math.max(2_000, rows / 5)), 2, settings.partitions())
          .write()
          .mode("overwrite")
          .parquet(test);
    }
    return withShuffledCopy(spark, shuffleCopy, name, sorted, test, features, dir, description);
  }

  private static final int SEPARABLE_FEATURES = 4;

  /** Columns {@code id, f0 .. f3, label}; the same rows for the same seed and partitions. */
  static org.apache.spark.sql.Dataset<Row> separableRows(
      SparkSession spark, long rows, long seed, int partitions) {
    org.apache.spark.sql.Dataset<Row> d = spark.range(0, rows, 1, partitions).toDF();
    for (int i = 0; i < SEPARABLE_FEATURES; i++) {
      d = d.withColumn("f" + i, rand(seed * 1000 + i));
    }
    return d.withColumn(
        "label", functions.when(col("f0").plus(col("f1")).gt(1), 1.0).otherwise(0.0));
  }

  private static Dataset flights(SparkSession spark, Settings settings, boolean shuffleCopy) {
    Path dir = settings.data().resolve("flights");
    Path source = FlightsData.fetch(dir);
    long rows = Math.min(settings.size().flightsRows, FLIGHTS_ROWS);
    // about 150 row groups, as the 10% buffer then holds several of a partition's
    FlightsData.Prepared prepared =
        FlightsData.prepare(
            spark,
            source,
            dir.resolve("prepared-" + EnumChoice.text(settings.size())),
            rows,
            (int) Math.max(1_000, rows / 150));
    return withShuffledCopy(
        spark,
        shuffleCopy,
        "flights",
        prepared.train().toString(),
        prepared.test().toString(),
        FlightsData.featurePipeline().getStages(),
        dir.resolve("shuffled-" + settings.size().name()),
        String.format(
            Locale.ROOT,
            "flights: %,d training rows of flights-3m in date order (%d row groups), %,d test rows;"
                + " %.1f%% delayed over 15 minutes; origin, destination, weekday and hour one-hot"
                + " (sparse vectors), distance standardized.",
            prepared.trainRows(),
            prepared.trainRowGroups(),
            prepared.testRows(),
            100 * prepared.trainPositiveShare()));
  }

  private static final long FLIGHTS_ROWS = 3_000_000;

  /**
   * Writes the copy shuffled with orderBy(rand()) and times it: the cost shuffle-once pays. Without
   * {@code shuffleCopy} (a JVM measuring one run) the copy its parent wrote is used, untimed.
   */
  private static Dataset withShuffledCopy(
      SparkSession spark,
      boolean shuffleCopy,
      String name,
      String sorted,
      String test,
      PipelineStage[] features,
      Path dir,
      String description) {
    String shuffled = dir.resolve("train-shuffled-once").toString();
    double seconds = Double.NaN;
    if (shuffleCopy) {
      long start = System.nanoTime();
      spark.read().parquet(sorted).orderBy(rand(7)).write().mode("overwrite").parquet(shuffled);
      seconds = (System.nanoTime() - start) / 1e9;
    }
    return new Dataset(name, sorted, shuffled, seconds, test, features, description);
  }

  /** The runs over one dataset. */
  private static final class Experiments {
    private final SparkSession spark;
    private final Settings settings;
    private final Dataset data;
    private final ReadMetrics metrics;
    private final BufferPeak buffers;
    private final boolean memoryLimited;

    Experiments(SparkSession spark, Settings settings, Dataset data) {
      this.spark = spark;
      this.settings = settings;
      this.data = data;
      this.metrics = ReadMetrics.register(spark);
      this.buffers = BufferPeak.register(spark);
      this.memoryLimited = MemoryCgroup.current().isPresent();
    }

    /**
     * Under --memory-limit every run starts with none of its data in the page cache, wherever the
     * pages are charged (the data was prepared, and earlier runs read it, maybe outside the
     * cgroup).
     */
    private void evictUnderMemoryLimit() {
      if (memoryLimited) {
        List<java.nio.file.Path> files =
            new ArrayList<>(List.of(java.nio.file.Path.of(data.sortedTrain())));
        if (data.shuffledTrain() != null) {
          files.add(java.nio.file.Path.of(data.shuffledTrain()));
        }
        PageCache.evict(files);
      }
    }

    /**
     * Trains {@code spec}'s strategy briefly on the test table, then measures it on the training
     * table.
     */
    List<EpochRecord> measure(RunSpec spec) {
      System.err.printf(
          Locale.ROOT,
          "[bench] %s: %s %s%n",
          data.name(),
          spec.experiment(),
          spec.strategy()
              + (isBuffered(spec.strategy()) ? " " + percentText(spec.percent()) + "%" : ""));
      // loads and compiles what the measured run uses, on other rows
      PipelineStage warmUp = solver(spec.strategy());
      warmUp.set(warmUp.getParam("maxIter"), WARM_UP_EPOCHS);
      pipeline(warmUp).fit(input(spec, data.test(), data.test()));
      if (spec.strategy().startsWith("mllib-")) {
        return List.of(batch(spec));
      }
      return sgd(spec, input(spec, data.sortedTrain(), data.shuffledTrain()));
    }

    /**
     * Every SGD strategy trains the same classifier, for all epochs; MLlib's solvers keep their
     * defaults.
     */
    private PipelineStage solver(String strategy) {
      return switch (strategy) {
        case "mllib-lr" -> new LogisticRegression();
        case "mllib-svc" -> new LinearSVC();
        default ->
            withParams(
                new SGDClassifier().setMaxIter(settings.epochs()).setTol(0), settings.sgdParams());
      };
    }

    /** What {@code spec}'s strategy reads: {@code sorted} in its order, or {@code shuffled}. */
    private org.apache.spark.sql.Dataset<Row> input(RunSpec spec, String sorted, String shuffled) {
      return switch (spec.strategy()) {
        case "none", "window", "block", "corgipile" ->
            corgipile(sorted, spec.strategy(), spec.percent());
        case "shuffle-once" -> spark.read().parquet(shuffled);
        case "full-shuffle" -> fullShuffleEveryEpoch(sorted);
        default -> spark.read().parquet(sorted); // MLlib's solvers: order does not matter to them
      };
    }

    private org.apache.spark.sql.Dataset<Row> corgipile(
        String path, String shuffle, double percent) {
      return spark
          .read()
          .format("corgipile")
          .option("shuffle", shuffle)
          .option("bufferSize", percentText(percent) + "%")
          .option("partitions", settings.partitions())
          .load(path);
    }

    /**
     * {@code orderBy} a hash of the row and the running epoch: a new random order every epoch, paid
     * in full (read, sort, shuffle) in every epoch's job, as a user reshuffling per epoch would.
     */
    private org.apache.spark.sql.Dataset<Row> fullShuffleEveryEpoch(String path) {
      // jobs outside training (the scaler's fit, the sort's sampling) run without an epoch: 0
      UDF0<Integer> epoch =
          () -> {
            Integer running = ReadScope.of(TaskContext.get()).epoch();
            return running == null ? 0 : running;
          };
      org.apache.spark.sql.Dataset<Row> train = spark.read().parquet(path);
      List<Column> hashed =
          new ArrayList<>(Arrays.stream(train.columns()).map(c -> col(c)).toList());
      hashed.add(udf(epoch, DataTypes.IntegerType).asNondeterministic().apply());
      // coalesce keeps the sorted order, and the partition count of the other strategies
      return train.orderBy(xxhash64(hashed.toArray(new Column[0]))).coalesce(settings.partitions());
    }

    private List<EpochRecord> sgd(RunSpec spec, org.apache.spark.sql.Dataset<Row> train) {
      evictUnderMemoryLimit();
      buffers.reset();
      HeapPeak heap = HeapPeak.start();
      metrics.reset();
      PipelineModel model = pipeline(solver(spec.strategy())).fit(train);
      long peak = heap.stop().peakUsed();
      long bufferPeak = buffers.peak();
      SGDClassificationModel sgd =
          (SGDClassificationModel) model.stages()[model.stages().length - 1];
      SGDTrainingSummary summary = sgd.summary();
      org.apache.spark.sql.Dataset<Row> test =
          features(model, spark.read().parquet(data.test())).cache();
      List<EpochRecord> records = new ArrayList<>();
      double cumulative = 0;
      for (int e = 0; e < summary.totalIterations(); e++) {
        SGDClassificationModel epochModel =
            new SGDClassificationModel(
                sgd.uid(),
                summary.coefficientMatrixHistory()[e],
                summary.interceptVectorHistory()[e]);
        org.apache.spark.sql.Dataset<Row> predictions = epochModel.transform(test);
        cumulative += summary.secondsPerEpoch()[e];
        ProcIo io =
            metrics.ioOfEpoch(e + 1); // before ShuffleQuality's job, which sets the epoch too
        records.add(
            new EpochRecord(
                spec.experiment(),
                data.name(),
                spec.strategy(),
                isBuffered(spec.strategy()) ? spec.percent() : Double.NaN,
                e + 1,
                summary.objectiveHistory()[e],
                accuracy(predictions),
                auc(predictions),
                summary.secondsPerEpoch()[e],
                cumulative,
                io.rchar(),
                ShuffleQuality.of(spark, train, e, spec.percent()),
                peak,
                io.readBytes(),
                bufferPeak));
      }
      test.unpersist();
      return records;
    }

    private static boolean isBuffered(String strategy) {
      return strategy.equals("corgipile") || strategy.equals("window");
    }

    private EpochRecord batch(RunSpec spec) {
      evictUnderMemoryLimit();
      buffers.reset();
      HeapPeak heap = HeapPeak.start();
      metrics.reset();
      long start = System.nanoTime();
      PipelineModel model =
          pipeline(solver(spec.strategy())).fit(input(spec, data.sortedTrain(), null));
      double seconds = (System.nanoTime() - start) / 1e9;
      long peak = heap.stop().peakUsed();
      ProcIo io = metrics.ioOfAll();
      org.apache.spark.sql.Dataset<Row> predictions =
          model.transform(spark.read().parquet(data.test())).cache();
      EpochRecord record =
          new EpochRecord(
              spec.experiment(),
              data.name(),
              spec.strategy(),
              Double.NaN,
              1,
              Double.NaN,
              accuracy(predictions),
              auc(predictions),
              seconds,
              seconds,
              io.rchar(),
              Double.NaN,
              peak,
              io.readBytes(),
              buffers.peak());
      predictions.unpersist();
      return record;
    }

    private Pipeline pipeline(PipelineStage last) {
      PipelineStage[] stages = Arrays.copyOf(data.featureStages(), data.featureStages().length + 1);
      stages[stages.length - 1] = last;
      return new Pipeline().setStages(stages);
    }

    /** {@code data} through the fitted feature stages of {@code model}, without its classifier. */
    private static org.apache.spark.sql.Dataset<Row> features(
        PipelineModel model, org.apache.spark.sql.Dataset<Row> data) {
      Transformer[] stages = model.stages();
      for (int i = 0; i < stages.length - 1; i++) {
        data = stages[i].transform(data);
      }
      return data;
    }

    private static double accuracy(org.apache.spark.sql.Dataset<Row> predictions) {
      return new MulticlassClassificationEvaluator()
          .setMetricName("accuracy")
          .evaluate(predictions);
    }

    /** NaN for more than two classes. */
    private static double auc(org.apache.spark.sql.Dataset<Row> predictions) {
      Vector first = predictions.select("rawPrediction").head().getAs(0);
      return first.size() > 2
          ? Double.NaN
          : new BinaryClassificationEvaluator().setMetricName("areaUnderROC").evaluate(predictions);
    }
  }
}
