package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.xxhash64;

import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.source.ReadOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.TaskContext;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.classification.LinearSVC;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF0;
import org.apache.spark.sql.types.DataTypes;

/**
 * The convergence and speed experiments of issue 4: every shuffle strategy trains the same
 * {@link SGDClassifier} on the same label- or date-sorted data, next to MLlib's batch solvers;
 * every epoch is measured (objective, test accuracy and AUC, seconds, bytes read, how well the
 * stream mixes labels), and {@link BenchReport} writes CSVs, plots and a summary.
 *
 * <p>Usage: {@code ConvergenceBenchmark [small|full|tiny] [--out DIR] [--data DIR] [--datasets higgs,flights]
 * [--epochs N] [--partitions N]}.
 */
public final class ConvergenceBenchmark {
  static final double[] SWEEP_PERCENTS = {1, 2, 5, 10, 20};
  static final double BUFFER_PERCENT = 10;

  private ConvergenceBenchmark() {}

  /** How big a run is. */
  enum Size {
    TINY(20_000, 20_000, 2), SMALL(200_000, 300_000, 10), FULL(11_000_000, Long.MAX_VALUE, 10);

    final long higgsRows;
    final long flightsRows;
    final int epochs;

    Size(long higgsRows, long flightsRows, int epochs) {
      this.higgsRows = higgsRows;
      this.flightsRows = flightsRows;
      this.epochs = epochs;
    }
  }

  /** The run's settings. */
  record Settings(Size size, Path out, Path data, List<String> datasets, int epochs, int partitions) {
    static Settings parse(String[] args) {
      Size size = Size.SMALL;
      Path out = null;
      Path data = Path.of("target/bench-data");
      List<String> datasets = List.of("higgs", "flights");
      Integer epochs = null;
      int partitions = 2;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--out" -> out = Path.of(args[++i]);
          case "--data" -> data = Path.of(args[++i]);
          case "--datasets" -> datasets = List.of(args[++i].split(","));
          case "--epochs" -> epochs = Integer.parseInt(args[++i]);
          case "--partitions" -> partitions = Integer.parseInt(args[++i]);
          default -> size = parseSize(args[i]);
        }
      }
      if (partitions < 1 || epochs != null && epochs < 1) {
        throw new IllegalArgumentException("Cannot run the benchmark: --epochs and --partitions must be >= 1");
      }
      return new Settings(size, out != null ? out : Path.of("results", size.name().toLowerCase(Locale.ROOT)),
          data, datasets, epochs != null ? epochs : size.epochs, partitions);
    }
  }

  private static Size parseSize(String arg) {
    for (Size size : Size.values()) {
      if (size.name().equalsIgnoreCase(arg)) {
        return size;
      }
    }
    throw new IllegalArgumentException("Cannot run the benchmark: unknown argument '" + arg
        + "'; sizes are tiny, small, full; options are --out, --data, --datasets, --epochs, --partitions");
  }

  public static void main(String[] args) throws Exception {
    Settings settings = Settings.parse(args);
    SparkSession spark = SparkSession.builder().appName("corgipile-bench")
        .master(System.getProperty("spark.master", "local[" + settings.partitions() + "]"))
        .config("spark.ui.enabled", "false")
        .getOrCreate();
    try {
      run(spark, settings);
    } finally {
      spark.stop();
    }
  }

  /** Runs every experiment, writes the report, and returns what it wrote. */
  static List<EpochRecord> run(SparkSession spark, Settings settings) {
    List<EpochRecord> records = new ArrayList<>();
    StringBuilder notes = new StringBuilder();
    String header = String.format(Locale.ROOT, "Run: `%s` (%s), size %s, %d epochs, %d partitions, Spark %s"
        + " local[%d] on a %d-core machine, %s.%n",
        System.getenv().getOrDefault("BENCH_COMMAND", "ConvergenceBenchmark"),
        System.getenv().getOrDefault("BENCH_CODE", "code version unknown"),
        settings.size().name().toLowerCase(Locale.ROOT), settings.epochs(), settings.partitions(), spark.version(),
        settings.partitions(), Runtime.getRuntime().availableProcessors(), java.time.LocalDate.now());
    StringBuilder datasets = new StringBuilder();
    if (settings.size() != Size.FULL) {
      notes.append("At this size every table fits in memory and in the page cache: a full shuffle sorts it in"
          + " memory within its epoch's seconds in the table, so the goal of corgipile 3x faster than a full shuffle per epoch is not"
          + " what this size can show (the table's MiB read per epoch says how small it is); the full size is"
          + " for that. Each corgipile epoch also opens every row group on its own, a fixed cost per row group"
          + " that weighs more on small tables.\n");
    }
    for (String name : settings.datasets()) {
      Dataset data;
      try {
        data = name.equals("higgs") ? higgs(spark, settings) : flights(spark, settings);
      } catch (RuntimeException e) {
        String why = "Dataset " + name + " left out: " + e.getMessage();
        System.err.println("[bench] " + why);
        notes.append(why).append('\n');
        continue;
      }
      datasets.append("- ").append(data.description()).append('\n');
      records.addAll(new Experiments(spark, settings, data).all());
    }
    try {
      BenchReport.write(settings.out(), records, header + "\n" + datasets, notes.toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("Cannot write the report to " + settings.out(), e);
    }
    System.err.println("[bench] wrote " + settings.out().resolve("summary.md"));
    return records;
  }

  /** {@code 10} for 10.0, {@code 0.5} for 0.5: as the bufferSize option and the reports write it. */
  static String percentText(double percent) {
    return java.math.BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString();
  }

  /** A dataset's tables and how to turn its columns into features. */
  record Dataset(String name, String sortedTrain, String shuffledTrain, double shuffleSeconds, String test,
      PipelineStage[] featureStages, String description) {}

  private static Dataset higgs(SparkSession spark, Settings settings) {
    long rows = settings.size().higgsRows;
    Path dir = settings.data().resolve("higgs-" + rows);
    String sorted = dir.resolve("train-sorted-by-label").toString();
    String test = dir.resolve("test").toString();
    if (!Files.exists(Path.of(test, "_SUCCESS"))) {
      System.err.printf(Locale.ROOT, "[bench] generating %,d HIGGS-shaped rows under %s%n", rows, dir);
      // At least 100 row groups, so a 10% buffer holds 5 of a partition's, and at most 4 MB each
      // (about 18,000 rows), so the full size has about 600, as bench-scan's table.
      HiggsShapedData.generate(spark, rows, 1, settings.partitions()).orderBy(col("label"), col("id"))
          .coalesce(1).write().mode("overwrite")
          .option("parquet.block.row.count.limit", Math.max(100, Math.min(18_000, rows / 100))).parquet(sorted);
      HiggsShapedData.generate(spark, Math.min(200_000, Math.max(2_000, rows / 5)), 2, settings.partitions())
          .write().mode("overwrite").parquet(test);
    }
    return withShuffledCopy(spark, "higgs", sorted, test, HiggsShapedData.featureStages(), dir, String.format(Locale.ROOT,
        "higgs: %,d generated HIGGS-shaped rows (28 dense features), sorted by label; test: other generated rows.",
        rows));
  }

  private static Dataset flights(SparkSession spark, Settings settings) {
    Path dir = settings.data().resolve("flights");
    Path source = FlightsData.fetch(dir);
    long rows = Math.min(settings.size().flightsRows, FLIGHTS_ROWS);
    // about 150 row groups, as the 10% buffer then holds several of a partition's
    FlightsData.Prepared prepared = FlightsData.prepare(spark, source,
        dir.resolve("prepared-" + settings.size().name().toLowerCase(Locale.ROOT)), rows,
        (int) Math.max(1_000, rows / 150));
    return withShuffledCopy(spark, "flights", prepared.train().toString(), prepared.test().toString(),
        FlightsData.featurePipeline().getStages(), dir.resolve("shuffled-" + settings.size().name()),
        String.format(Locale.ROOT, "flights: %,d training rows of flights-3m in date order (%d row groups),"
            + " %,d test rows; %.1f%% delayed over 15 minutes; origin, destination, weekday and hour one-hot"
            + " (sparse vectors), distance standardized.", prepared.trainRows(), prepared.trainRowGroups(),
            prepared.testRows(), 100 * prepared.trainPositiveShare()));
  }

  private static final long FLIGHTS_ROWS = 3_000_000;

  /** Writes (once) the copy shuffled with orderBy(rand()) and times it: the cost shuffle-once pays. */
  private static Dataset withShuffledCopy(SparkSession spark, String name, String sorted, String test,
      PipelineStage[] features, Path dir, String description) {
    String shuffled = dir.resolve("train-shuffled-once").toString();
    long start = System.nanoTime();
    spark.read().parquet(sorted).orderBy(rand(7)).write().mode("overwrite").parquet(shuffled);
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Dataset(name, sorted, shuffled, seconds, test, features, description);
  }

  /** The runs over one dataset. */
  private static final class Experiments {
    private final SparkSession spark;
    private final Settings settings;
    private final Dataset data;
    private final ReadMetrics metrics;

    Experiments(SparkSession spark, Settings settings, Dataset data) {
      this.spark = spark;
      this.settings = settings;
      this.data = data;
      this.metrics = ReadMetrics.register(spark);
    }

    List<EpochRecord> all() {
      // Discarded runs first, so the first measured strategy does not pay the JIT's warm-up: with
      // one 2-epoch run, none's epochs still fell from 0.83 s to 0.49 s (results/small at 82a5155).
      for (String shuffle : List.of("none", "corgipile")) {
        pipeline(new SGDClassifier().setMaxIter(settings.epochs())).fit(corgipile(shuffle, BUFFER_PERCENT));
      }
      List<EpochRecord> records = new ArrayList<>();
      String strategies = "strategies";
      for (String shuffle : List.of("none", "window", "block", "corgipile")) {
        records.addAll(sgd(strategies, shuffle, BUFFER_PERCENT, corgipile(shuffle, BUFFER_PERCENT), 0));
      }
      records.addAll(sgd(strategies, "shuffle-once", BUFFER_PERCENT, spark.read().parquet(data.shuffledTrain()),
          data.shuffleSeconds()));
      records.addAll(sgd(strategies, "full-shuffle", BUFFER_PERCENT, fullShuffleEveryEpoch(), 0));
      records.add(batch(strategies, "mllib-lr", new LogisticRegression()));
      records.add(batch(strategies, "mllib-svc", new LinearSVC()));
      for (double percent : SWEEP_PERCENTS) {
        List<EpochRecord> sweep = percent == BUFFER_PERCENT
            ? records.stream().filter(r -> r.experiment().equals(strategies) && r.strategy().equals("corgipile"))
                .toList()
            : sgd("buffer-sweep", "corgipile", percent, corgipile("corgipile", percent), 0);
        sweep.forEach(r -> records.add(withExperiment(r, "buffer-sweep")));
      }
      return records;
    }

    private static EpochRecord withExperiment(EpochRecord r, String experiment) {
      return r.experiment().equals(experiment) ? r : new EpochRecord(experiment, r.dataset(), r.strategy(),
          r.bufferPercent(), r.epoch(), r.objective(), r.testAccuracy(), r.testAuc(), r.epochSeconds(),
          r.cumulativeSeconds(), r.bytesRead(), r.shuffleQuality(), r.peakHeapBytes());
    }

    private org.apache.spark.sql.Dataset<Row> corgipile(String shuffle, double percent) {
      return spark.read().format("corgipile").option("shuffle", shuffle)
          .option("bufferSize", percentText(percent) + "%").option("partitions", settings.partitions())
          .load(data.sortedTrain());
    }

    /**
     * {@code orderBy} a hash of the row and the running epoch: a new random order every epoch, paid
     * in full (read, sort, shuffle) in every epoch's job, as a user reshuffling per epoch would.
     */
    private org.apache.spark.sql.Dataset<Row> fullShuffleEveryEpoch() {
      // jobs outside training (the scaler's fit, the sort's sampling) run without an epoch: 0
      UDF0<Integer> epoch = () -> {
        String property = TaskContext.get().getLocalProperty(ReadOptions.EPOCH_LOCAL_PROPERTY);
        return property == null ? 0 : Integer.parseInt(property);
      };
      org.apache.spark.sql.Dataset<Row> train = spark.read().parquet(data.sortedTrain());
      List<Column> hashed = new ArrayList<>(Arrays.stream(train.columns()).map(c -> col(c)).toList());
      hashed.add(udf(epoch, DataTypes.IntegerType).asNondeterministic().apply());
      // coalesce keeps the sorted order, and the partition count of the other strategies
      return train.orderBy(xxhash64(hashed.toArray(new Column[0]))).coalesce(settings.partitions());
    }

    private List<EpochRecord> sgd(String experiment, String strategy, double percent,
        org.apache.spark.sql.Dataset<Row> train, double startSeconds) {
      System.err.printf(Locale.ROOT, "[bench] %s: %s %s%n", data.name(), strategy,
          strategy.equals("corgipile") ? percentText(percent) + "%" : "");
      PeakHeap heap = PeakHeap.start();
      metrics.reset();
      SGDClassifier classifier = new SGDClassifier().setMaxIter(settings.epochs()).setTol(0);
      PipelineModel model = pipeline(classifier).fit(train);
      long peak = heap.peak();
      SGDClassificationModel sgd = (SGDClassificationModel) model.stages()[model.stages().length - 1];
      SGDTrainingSummary summary = sgd.summary();
      org.apache.spark.sql.Dataset<Row> test = features(model, spark.read().parquet(data.test())).cache();
      List<EpochRecord> records = new ArrayList<>();
      double cumulative = startSeconds;
      for (int e = 0; e < summary.totalIterations(); e++) {
        SGDClassificationModel epochModel = new SGDClassificationModel(sgd.uid(), summary.coefficientsHistory()[e],
            summary.interceptHistory()[e]);
        org.apache.spark.sql.Dataset<Row> predictions = epochModel.transform(test);
        cumulative += summary.secondsPerEpoch()[e];
        records.add(new EpochRecord(experiment, data.name(), strategy, isBuffered(strategy) ? percent : Double.NaN,
            e + 1, summary.objectiveHistory()[e], accuracy(predictions), auc(predictions),
            summary.secondsPerEpoch()[e], cumulative, metrics.bytesOfEpoch(e + 1),
            ShuffleQuality.of(spark, train, e, percent), peak));
      }
      test.unpersist();
      return records;
    }

    private static boolean isBuffered(String strategy) {
      return strategy.equals("corgipile") || strategy.equals("window");
    }

    private EpochRecord batch(String experiment, String strategy, PipelineStage solver) {
      System.err.printf(Locale.ROOT, "[bench] %s: %s%n", data.name(), strategy);
      PeakHeap heap = PeakHeap.start();
      metrics.reset();
      long start = System.nanoTime();
      PipelineModel model = pipeline(solver).fit(spark.read().parquet(data.sortedTrain()));
      double seconds = (System.nanoTime() - start) / 1e9;
      long peak = heap.peak();
      org.apache.spark.sql.Dataset<Row> predictions = model.transform(spark.read().parquet(data.test())).cache();
      EpochRecord record = new EpochRecord(experiment, data.name(), strategy, Double.NaN, 1, Double.NaN,
          accuracy(predictions), auc(predictions), seconds, seconds, metrics.bytesOfAll(), Double.NaN, peak);
      predictions.unpersist();
      return record;
    }

    private Pipeline pipeline(PipelineStage last) {
      PipelineStage[] stages = Arrays.copyOf(data.featureStages(), data.featureStages().length + 1);
      stages[stages.length - 1] = last;
      return new Pipeline().setStages(stages);
    }

    /** {@code data} through the fitted feature stages of {@code model}, without its classifier. */
    private static org.apache.spark.sql.Dataset<Row> features(PipelineModel model,
        org.apache.spark.sql.Dataset<Row> data) {
      Transformer[] stages = model.stages();
      for (int i = 0; i < stages.length - 1; i++) {
        data = stages[i].transform(data);
      }
      return data;
    }

    private static double accuracy(org.apache.spark.sql.Dataset<Row> predictions) {
      return new MulticlassClassificationEvaluator().setMetricName("accuracy").evaluate(predictions);
    }

    private static double auc(org.apache.spark.sql.Dataset<Row> predictions) {
      return new BinaryClassificationEvaluator().setMetricName("areaUnderROC").evaluate(predictions);
    }
  }
}
