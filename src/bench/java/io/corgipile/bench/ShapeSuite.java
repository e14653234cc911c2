package io.corgipile.bench;

import io.corgipile.bench.ShapeReport.Fit;
import io.corgipile.bench.Shapes.Shape;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import io.corgipile.options.Counts;
import io.corgipile.source.ReadOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.classification.LogisticRegressionModel;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Issue 42's suite of generated shapes ({@code scripts/bench shapes}): for every {@link Shapes
 * shape}, size and P, {@link SGDClassifier} at its defaults except {@code maxIter} (the epochs) and
 * {@code tol} 0, on the training table read through the corgipile source at P partitions with the
 * source's defaults; beside it, per shape and size, the same fit on a fully shuffled copy at P=2
 * and MLlib's {@link LogisticRegression} at its defaults. Test accuracy and log-loss after every
 * epoch go to {@code shapes.csv}; {@link ShapeReport} writes the summary and the chart.
 */
public final class ShapeSuite {
  private ShapeSuite() {}

  /** The partitions of the full-shuffle reference. */
  static final int FULL_SHUFFLE_PARTITIONS = 2;

  /** The shapes, sizes and partitions of {@code --quick}: a few minutes on 2 cores. */
  static final List<String> QUICK_SHAPES = List.of("noisy", "classes", "images");

  static final long[] QUICK_ROWS = {12_800};

  /** The fewest training rows of a size: {@link Shapes#ROW_GROUPS} row groups of 2 rows or more. */
  static final long MIN_ROWS = 2L * Shapes.ROW_GROUPS;

  record Settings(
      List<Shape> shapes,
      long[] rows,
      int[] partitions,
      int epochs,
      long testRows,
      Path out,
      Path data,
      Path fromCsv) {
    static final CommandLine COMMAND_LINE =
        new CommandLine(
            "run the shapes suite",
            List.of(
                new Option(
                    "shapes",
                    "LIST",
                    "comma list among "
                        + Shapes.ALL.stream().map(Shape::name).collect(Collectors.joining(","))
                        + " (default all)"),
                new Option("rows", "LIST", "training rows per shape (default 12800,200k)"),
                new Option("partitions", "LIST", "input partitions P (default 2,8,32,128)"),
                new Option("epochs", "N", "epochs of each SGD fit (default 5)"),
                new Option("test-rows", "N", "test rows per shape and size (default 20000)"),
                new Option("out", "DIR", "results folder (default docs/benchmarks/results/shapes)"),
                new Option("data", "DIR", "generated tables (default target/bench-data)"),
                Option.flag(
                    "quick",
                    "shapes "
                        + String.join(",", QUICK_SHAPES)
                        + " at 12800 rows into target/shapes-quick unless said otherwise"),
                new Option(
                    "from-csv", "FILE", "no fits: the summary and chart again from a shapes.csv")),
            0);

    static Settings parse(String[] argv) {
      Arguments args = COMMAND_LINE.parse(argv);
      boolean quick = args.flag("quick");
      List<Shape> shapes =
          args.optional("shapes")
              .map(s -> Arrays.stream(s.split(",")).map(Shapes::named).toList())
              .orElse(quick ? QUICK_SHAPES.stream().map(Shapes::named).toList() : Shapes.ALL);
      long[] rows =
          args.optional("rows")
              .map(
                  r ->
                      Arrays.stream(r.split(","))
                          .mapToLong(v -> count("rows", v, MIN_ROWS))
                          .toArray())
              .orElse(quick ? QUICK_ROWS : new long[] {12_800, 200_000});
      int[] partitions =
          args.optional("partitions")
              .map(
                  p ->
                      Arrays.stream(p.split(","))
                          .mapToInt(v -> (int) count("partitions", v, 1))
                          .toArray())
              .orElse(new int[] {2, 8, 32, 128});
      return new Settings(
          shapes,
          rows,
          partitions,
          args.atLeast("epochs", 5, 1),
          args.count("test-rows", 20_000, 1),
          args.path(
              "out",
              quick ? Path.of("target/shapes-quick") : BenchReport.RESULTS.resolve("shapes")),
          args.path("data", Path.of("target/bench-data")),
          args.optional("from-csv").map(Path::of).orElse(null));
    }

    /**
     * A count of a comma list, at least {@code min}: a bound that also refuses "12,800" read as 12
     * and 800.
     */
    private static long count(String option, String value, long min) {
      try {
        long n = Counts.parse(value);
        if (n >= min) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw CommandLine.Arguments.invalid(
          option,
          value,
          String.format(Locale.ROOT, "a comma list of counts of at least %d (12800,200k)", min));
    }
  }

  public static void main(String[] argv) throws IOException {
    if (CommandLine.wantsHelp(argv)) {
      System.out.print(Settings.COMMAND_LINE.help(24));
      return;
    }
    Settings settings = Settings.parse(argv);
    Files.createDirectories(settings.out());
    if (settings.fromCsv() != null) {
      report(settings, ShapeReport.read(settings.fromCsv()), "rebuilt from " + settings.fromCsv());
      return;
    }
    long start = System.nanoTime();
    SparkSession spark =
        SparkSession.builder()
            .appName("corgipile-shapes")
            .master(master())
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    List<Fit> records = new ArrayList<>();
    try (PrintWriter csv =
        new PrintWriter(Files.newBufferedWriter(settings.out().resolve(ShapeReport.CSV)))) {
      csv.println(ShapeReport.CSV_HEADER);
      for (Shape shape : settings.shapes()) {
        for (long rows : settings.rows()) {
          Shapes.Tables tables =
              Shapes.write(spark, shape, rows, settings.testRows(), settings.data());
          TestSet test = TestSet.read(spark, tables.test());
          Runner runner = new Runner(spark, settings, shape, rows, test, csv, records);
          for (int p : settings.partitions()) {
            runner.sgd(ShapeReport.CORGIPILE, tables.train(), p, ReadOptions.SHUFFLE_DEFAULT);
          }
          runner.sgd(ShapeReport.FULL_SHUFFLE, tables.shuffled(), FULL_SHUFFLE_PARTITIONS, "none");
          runner.logisticRegression(tables.train());
        }
      }
    } finally {
      spark.stop();
    }
    report(
        settings,
        records,
        String.format(Locale.ROOT, "measured in %.1f minutes", (System.nanoTime() - start) / 60e9));
  }

  /** Spark's master: local[2] unless the system property spark.master says otherwise. */
  private static String master() {
    return System.getProperty("spark.master", "local[2]");
  }

  /** Writes the summary and the chart of {@code records} into the results folder. */
  private static void report(Settings settings, List<Fit> records, String how) throws IOException {
    String header =
        String.format(
            Locale.ROOT,
            "Command: `%s` (%s), %s, Spark %s on a %d-core machine, %s. SGDClassifier at its"
                + " defaults except maxIter %d and tol 0; test accuracy and log-loss on %,d other"
                + " rows per shape and size.%n%n%s",
            System.getenv().getOrDefault("BENCH_COMMAND", "ShapeSuite"),
            System.getenv().getOrDefault("BENCH_CODE", "code unknown"),
            how,
            master(),
            Runtime.getRuntime().availableProcessors(),
            java.time.LocalDate.now(),
            settings.epochs(),
            settings.testRows(),
            shapeTable(settings.shapes(), records));
    BenchReport.writeString(
        settings.out().resolve(ShapeReport.SUMMARY), ShapeReport.summary(header, records));
    ShapeReport.plot(settings.out().resolve(ShapeReport.PLOT), records);
    System.err.println("[shapes] wrote " + settings.out().resolve(ShapeReport.SUMMARY));
  }

  /** The shapes the records name, as a table of what each is. */
  static String shapeTable(List<Shape> asked, List<Fit> records) {
    StringBuilder out =
        new StringBuilder(
            "| shape | classes | features | stored | sorted by | seed | what it is |\n"
                + "|---|---:|---:|---|---|---:|---|\n");
    List<String> names = records.stream().map(Fit::shape).distinct().toList();
    for (String name : names.isEmpty() ? asked.stream().map(Shape::name).toList() : names) {
      Shape s = Shapes.named(name);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,d | %s | %s | %d | %s |%n",
              s.name(),
              s.classes(),
              s.features(),
              s.sparse() ? "sparse" : "dense",
              s.order(),
              s.seed(),
              s.description()));
    }
    return out.toString();
  }

  /** Runs the fits of one shape and size, and records them. */
  private record Runner(
      SparkSession spark,
      Settings settings,
      Shape shape,
      long rows,
      TestSet test,
      PrintWriter csv,
      List<Fit> records) {
    /** SGDClassifier through the corgipile source; every epoch's model scored. */
    void sgd(String fit, String table, int partitions, String shuffle) {
      Dataset<Row> train =
          spark
              .read()
              .format("corgipile")
              .option(ReadOptions.PARTITIONS, partitions)
              .option(ReadOptions.SHUFFLE, shuffle)
              .load(table);
      SGDClassificationModel model =
          new SGDClassifier().setMaxIter(settings.epochs()).setTol(0).fit(train);
      SGDTrainingSummary s = model.summary();
      Matrix[] w = s.coefficientMatrixHistory();
      Vector[] b = s.interceptVectorHistory();
      for (int e = 0; e < s.totalIterations(); e++) {
        SGDClassificationModel epoch = new SGDClassificationModel(model.uid(), w[e], b[e]);
        TestSet.Score score = test.score(epoch::predictProbability);
        if (e == s.totalIterations() - 1) {
          TestSet.Score own = test.score(model::predictProbability);
          if (!own.equals(score)) {
            throw new IllegalStateException(
                "Cannot score the epochs of "
                    + fit
                    + ": the last scores "
                    + score
                    + ", the model "
                    + own);
          }
        }
        record(
            new Fit(
                shape.name(),
                rows,
                shape.classes(),
                fit,
                partitions,
                e + 1,
                s.roundsPerEpoch()[e],
                s.stepSize(),
                score.accuracy(),
                score.logLoss(),
                s.secondsPerEpoch()[e]));
      }
    }

    /** MLlib's LogisticRegression at its defaults, on the training table as Spark reads it. */
    void logisticRegression(String table) {
      Dataset<Row> train = spark.read().parquet(table);
      long start = System.nanoTime();
      LogisticRegressionModel model = new LogisticRegression().fit(train);
      double seconds = (System.nanoTime() - start) / 1e9;
      TestSet.Score score = test.score(model::predictProbability);
      record(
          new Fit(
              shape.name(),
              rows,
              shape.classes(),
              ShapeReport.MLLIB_LR,
              train.rdd().getNumPartitions(),
              0,
              model.summary().totalIterations(),
              Double.NaN,
              score.accuracy(),
              score.logLoss(),
              seconds));
    }

    private void record(Fit fit) {
      Fit kept = fit.rounded();
      csv.println(kept.csv());
      csv.flush();
      System.err.println("[shapes] " + kept.csv());
      records.add(kept);
    }
  }
}
