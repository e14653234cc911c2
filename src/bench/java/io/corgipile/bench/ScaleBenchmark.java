package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.randn;

import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.shuffle.SyncInterval;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Training at many partitions ({@code scripts/bench scale}): label-sorted data read through the
 * corgipile source at P partitions, every syncInterval and delta compression, estimator defaults
 * otherwise ({@code tol} 0); test accuracy per epoch, rounds, bytes and seconds, as CSV, a summary
 * and charts ({@link ScalePlots}).
 *
 * <p>Arguments: {@code --rows N --partitions 2,8,32,128 --sync epoch,buffer,gradavg --compression
 * none,int8 --epochs 5 --datasets higgs,blobs --out DIR --data DIR --gradavg-steps 50 --gradavg-lr
 * 0.01,0.1,1,10 --min-partition-rows N}. {@code gradavg} is not a syncInterval but the baseline
 * {@link GradAvgBaseline}, run once per learning rate.
 */
public final class ScaleBenchmark {
  private ScaleBenchmark() {}

  /** The {@code --sync} value that runs {@link GradAvgBaseline} instead of the estimator. */
  static final String GRADAVG = "gradavg";

  /** Rows a warm-up trains on, at least, per syncInterval ({@link #warmUp}). */
  static final long WARM_UP_ROWS = 300_000;

  /**
   * Seeds the baseline's per-epoch orders; any fixed value other than the source's seed, 42, whose
   * streams it would share.
   */
  private static final long GRADAVG_SEED = 1;

  record Settings(
      long rows,
      int[] partitions,
      String[] syncs,
      String[] compressions,
      int epochs,
      String[] datasets,
      Path out,
      Path data,
      double[] steps,
      double[] momenta,
      String buffer,
      Path fromCsv,
      int gradavgSteps,
      double[] gradavgRates,
      int cores,
      int minPartitionRows) {
    /**
     * The task slots of the runs, when {@code --cores} did not say: scripts/bench's {@code
     * local[2]}.
     */
    static final int BENCH_CORES = 2;

    static Settings parse(String[] args) {
      long rows = 100_000;
      int[] partitions = {2, 8, 32, 128};
      String[] syncs = {"epoch", "buffer"};
      String[] compressions = {"none"};
      int epochs = 5;
      String[] datasets = {"higgs", "blobs"};
      Path out = BenchReport.RESULTS.resolve("scale");
      Path data = Path.of("target/bench-data");
      double[] steps = {io.corgipile.ml.SGDParams.DEFAULT_SYNC_STEP_SIZE};
      double[] momenta = {io.corgipile.ml.SGDParams.DEFAULT_SYNC_MOMENTUM};
      String buffer = io.corgipile.source.ReadOptions.BUFFER_SIZE_DEFAULT;
      Path fromCsv = null;
      int gradavgSteps = 50;
      double[] gradavgRates = {0.01, 0.1, 1, 10};
      int cores = 0;
      int minPartitionRows = io.corgipile.ml.SGDParams.DEFAULT_MIN_PARTITION_ROWS;
      for (int i = 0; i < args.length; i += 2) {
        String v = args[i + 1];
        switch (args[i]) {
          case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
          case "--partitions" ->
              partitions = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
          case "--sync" -> syncs = v.split(",");
          case "--compression" -> compressions = v.split(",");
          case "--epochs" -> epochs = Integer.parseInt(v);
          case "--datasets" -> datasets = v.split(",");
          case "--out" -> out = Path.of(v);
          case "--data" -> data = Path.of(v);
          case "--sync-step" ->
              steps = Arrays.stream(v.split(",")).mapToDouble(Double::parseDouble).toArray();
          case "--sync-momentum" ->
              momenta = Arrays.stream(v.split(",")).mapToDouble(Double::parseDouble).toArray();
          case "--buffer" -> buffer = v;
          case "--from-csv" -> fromCsv = Path.of(v);
          case "--gradavg-steps" -> gradavgSteps = Integer.parseInt(v);
          case "--gradavg-lr" ->
              gradavgRates = Arrays.stream(v.split(",")).mapToDouble(Double::parseDouble).toArray();
          case "--cores" -> cores = Integer.parseInt(v);
          case "--min-partition-rows" -> minPartitionRows = Integer.parseInt(v.replace("_", ""));
          default ->
              throw new IllegalArgumentException("Cannot use option " + args[i] + ": unknown");
        }
      }
      return new Settings(
          rows,
          partitions,
          syncs,
          compressions,
          epochs,
          datasets,
          out,
          data,
          steps,
          momenta,
          buffer,
          fromCsv,
          gradavgSteps,
          gradavgRates,
          cores,
          minPartitionRows);
    }

    /** These settings with {@code cores} task slots, unless {@code --cores} named them. */
    Settings withCores(int slots) {
      return cores > 0
          ? this
          : new Settings(
              rows,
              partitions,
              syncs,
              compressions,
              epochs,
              datasets,
              out,
              data,
              steps,
              momenta,
              buffer,
              fromCsv,
              gradavgSteps,
              gradavgRates,
              slots,
              minPartitionRows);
    }
  }

  /**
   * The columns of {@code scale.csv} before it recorded the partitions that trained: the CSVs
   * measured before {@code minPartitionRows}, whose runs trained in the input's partitions.
   */
  static final String OLD_CSV_HEADER =
      "dataset,partitions,bufferSize,syncInterval,syncStepSize,syncMomentum,"
          + "deltaCompression,epoch,rounds,testAccuracy,seconds,bytesToExecutors,bytesFromExecutors";

  /** The columns of {@code scale.csv}, which {@link Epoch#parse} reads back, as the old ones. */
  static final String CSV_HEADER = OLD_CSV_HEADER + ",trainedPartitions";

  /**
   * One epoch of one run. {@code partitions} are the input's (the corgipile scan's option), {@code
   * trainedPartitions} those that trained: fewer where {@code minPartitionRows} asked. For {@link
   * #GRADAVG}, {@code step} is the learning rate and {@code rounds} the steps.
   */
  record Epoch(
      String dataset,
      int partitions,
      String sync,
      double step,
      double momentum,
      String compression,
      int epoch,
      int rounds,
      double accuracy,
      double seconds,
      long bytesTo,
      long bytesFrom,
      int trainedPartitions) {
    String config() {
      return gradavg()
          ? "gradavg, lr=" + step
          : "syncInterval="
              + sync
              + (step == io.corgipile.ml.SGDParams.DEFAULT_SYNC_STEP_SIZE
                  ? ""
                  : ", syncStepSize=" + step)
              + ", syncMomentum="
              + momentum
              + ", deltaCompression="
              + compression;
    }

    boolean gradavg() {
      return sync.equals(GRADAVG);
    }

    /** P, and in brackets the partitions that trained where they were fewer: "32 (10)". */
    String partitionsLabel() {
      return trainedPartitions == partitions
          ? Integer.toString(partitions)
          : partitions + " (" + trainedPartitions + ")";
    }

    /**
     * One line of {@code scale.csv}: {@link #CSV_HEADER}'s columns, or {@link #OLD_CSV_HEADER}'s,
     * whose runs trained in the input's partitions.
     */
    static Epoch parse(String line) {
      String[] f = line.split(",");
      int partitions = Integer.parseInt(f[1]);
      return new Epoch(
          f[0],
          partitions,
          f[3],
          Double.parseDouble(f[4]),
          Double.parseDouble(f[5]),
          f[6],
          Integer.parseInt(f[7]),
          Integer.parseInt(f[8]),
          Double.parseDouble(f[9]),
          Double.parseDouble(f[10]),
          Long.parseLong(f[11]),
          Long.parseLong(f[12]),
          f.length > 13 ? Integer.parseInt(f[13]) : partitions);
    }
  }

  private static final int WIDE_FEATURES = 1 << 15;
  private static final int WIDE_NON_ZEROS = 30;

  /**
   * A model of 32,768 coefficients, where compressing what partitions send matters: every row has
   * 30 features of value 1 at random indices (as hashed one-hot columns), the label is 1 when their
   * weights, uniform in [-1, 1] and drawn once per index, plus noise sum above zero.
   */
  private static Dataset<Row> wide(SparkSession spark, long rows) {
    org.apache.spark.sql.api.java.UDF1<Long, org.apache.spark.ml.linalg.Vector> features =
        id -> {
          io.corgipile.shuffle.SplitMix64 random = new io.corgipile.shuffle.SplitMix64(id);
          java.util.TreeSet<Integer> chosen = new java.util.TreeSet<>();
          while (chosen.size() < WIDE_NON_ZEROS) {
            chosen.add(random.nextInt(WIDE_FEATURES));
          }
          int[] indices = chosen.stream().mapToInt(Integer::intValue).toArray();
          double[] ones = new double[indices.length];
          Arrays.fill(ones, 1.0);
          return org.apache.spark.ml.linalg.Vectors.sparse(WIDE_FEATURES, indices, ones);
        };
    org.apache.spark.sql.api.java.UDF2<org.apache.spark.ml.linalg.Vector, Double, Double> label =
        (x, noise) -> {
          double margin = noise;
          for (int j : ((org.apache.spark.ml.linalg.SparseVector) x).indices()) {
            margin +=
                ((new io.corgipile.shuffle.SplitMix64(j).nextLong() >>> 11) * 0x1.0p-53 - 0.5) * 2;
          }
          return margin > 0 ? 1.0 : 0.0;
        };
    Dataset<Row> d =
        spark
            .range(0, rows, 1, 4)
            .withColumn(
                "features",
                org.apache
                    .spark
                    .sql
                    .functions
                    .udf(features, org.apache.spark.ml.linalg.SQLDataTypes.VectorType())
                    .apply(col("id")));
    return d.withColumn(
        "label",
        org.apache
            .spark
            .sql
            .functions
            .udf(label, org.apache.spark.sql.types.DataTypes.DoubleType)
            .apply(col("features"), randn(5).multiply(2)));
  }

  /** A prepared dataset: Parquet of (features, label) sorted by label, and test rows in memory. */
  record Prepared(String name, String train, TestSet test) {}

  public static void main(String[] args) throws IOException {
    Settings parsed = Settings.parse(args);
    if (parsed.fromCsv() != null) { // the summary again, from a run's CSV
      Settings settings = parsed.withCores(Settings.BENCH_CORES);
      Files.createDirectories(settings.out());
      List<Epoch> epochs = read(settings.fromCsv());
      Files.writeString(settings.out().resolve("summary.md"), summary(settings, epochs));
      ScalePlots.write(settings.out(), epochs);
      return;
    }
    SparkSession spark =
        SparkSession.builder()
            .appName("corgipile-scale")
            .master(System.getProperty("spark.master", "local[" + Settings.BENCH_CORES + "]"))
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    Settings settings = parsed.withCores(spark.sparkContext().defaultParallelism());
    Files.createDirectories(settings.out());
    Path csv = settings.out().resolve("scale.csv");
    List<Epoch> epochs = new ArrayList<>();
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
      w.println(CSV_HEADER);
      for (String name : settings.datasets()) {
        Prepared data = prepare(spark, settings, name);
        if (name.equals(settings.datasets()[0])) {
          warmUp(spark, settings, data);
        }
        for (int p : settings.partitions()) {
          for (String sync : settings.syncs()) {
            if (sync.equals(GRADAVG)) {
              for (double rate : settings.gradavgRates()) {
                List<GradAvgBaseline.EpochResult> run =
                    GradAvgBaseline.train(
                        spark
                            .read()
                            .format("corgipile")
                            .option("partitions", p)
                            .option("bufferSize", settings.buffer())
                            .load(data.train()),
                        settings.epochs(),
                        settings.gradavgSteps(),
                        rate,
                        GRADAVG_SEED);
                for (int e = 0; e < run.size(); e++) {
                  GradAvgBaseline.EpochResult r = run.get(e);
                  // no momentum and no compression: gradients go as float64
                  record(
                      w,
                      epochs,
                      settings,
                      new Epoch(
                          name,
                          p,
                          GRADAVG,
                          rate,
                          0,
                          "none",
                          e + 1,
                          r.steps(),
                          data.test().accuracy(r.coefficients(), r.intercept()),
                          r.seconds(),
                          r.bytesToExecutors(),
                          r.bytesFromExecutors(),
                          p)); // the baseline trains in the input's partitions
                }
              }
              continue;
            }
            for (String compression : settings.compressions()) {
              for (double step : settings.steps()) {
                for (double momentum : settings.momenta()) {
                  SGDTrainingSummary s =
                      train(
                              spark,
                              settings,
                              data,
                              p,
                              sync,
                              compression,
                              step,
                              momentum,
                              settings.epochs())
                          .summary();
                  Vector[] history = s.coefficientsHistory();
                  for (int e = 0; e < s.totalIterations(); e++) {
                    record(
                        w,
                        epochs,
                        settings,
                        new Epoch(
                            name,
                            p,
                            sync,
                            step,
                            momentum,
                            compression,
                            e + 1,
                            s.roundsPerEpoch()[e],
                            data.test().accuracy(history[e].toArray(), s.interceptHistory()[e]),
                            s.secondsPerEpoch()[e],
                            s.bytesToExecutorsPerEpoch()[e],
                            s.bytesFromExecutorsPerEpoch()[e],
                            s.numPartitions()));
                  }
                }
              }
            }
          }
        }
      }
    } finally {
      spark.stop();
    }
    Files.writeString(settings.out().resolve("summary.md"), summary(settings, epochs));
    ScalePlots.write(settings.out(), epochs);
  }

  private static SGDClassificationModel train(
      SparkSession spark,
      Settings settings,
      Prepared data,
      int partitions,
      String sync,
      String compression,
      double step,
      double momentum,
      int epochs) {
    Dataset<Row> train =
        spark
            .read()
            .format("corgipile")
            .option("partitions", partitions)
            .option("bufferSize", settings.buffer())
            .load(data.train());
    return new SGDClassifier()
        .setMaxIter(epochs)
        .setTol(0)
        .setSyncInterval(sync)
        .setDeltaCompression(compression)
        .setSyncStepSize(step)
        .setSyncMomentum(momentum)
        .setMinPartitionRows(settings.minPartitionRows())
        .fit(train);
  }

  /**
   * Trains, unmeasured, on at least {@link #WARM_UP_ROWS} rows in every syncInterval asked, at the
   * smallest P, so that JIT has compiled reading and training before the first measured run: the
   * first run's epochs otherwise kept getting faster (1.66 s to 0.97 s from epoch 1 to 5 on 100,000
   * rows), and the cost model's pilot, the first runs, looked slower per row than the runs it
   * predicts.
   */
  private static void warmUp(SparkSession spark, Settings settings, Prepared data) {
    int epochs = (int) Math.max(1, Math.ceil((double) WARM_UP_ROWS / settings.rows()));
    for (String sync : settings.syncs()) {
      if (!sync.equals(GRADAVG)) {
        train(
            spark,
            settings,
            data,
            settings.partitions()[0],
            sync,
            settings.compressions()[0],
            settings.steps()[0],
            settings.momenta()[0],
            epochs);
      }
    }
  }

  /** Writes {@code e} as a CSV line, to stderr for progress, and keeps it for the summary. */
  private static void record(PrintWriter w, List<Epoch> epochs, Settings settings, Epoch e) {
    String line =
        String.format(
            Locale.ROOT,
            "%s,%d,%s,%s,%s,%s,%s,%d,%d,%.4f,%.3f,%d,%d,%d",
            e.dataset(),
            e.partitions(),
            settings.buffer(),
            e.sync(),
            e.step(),
            e.momentum(),
            e.compression(),
            e.epoch(),
            e.rounds(),
            e.accuracy(),
            e.seconds(),
            e.bytesTo(),
            e.bytesFrom(),
            e.trainedPartitions());
    w.println(line);
    w.flush();
    System.err.println("[scale] " + line);
    epochs.add(e);
  }

  /**
   * Per dataset and configuration: test accuracy after the first and the last epoch at every P, and
   * its gap to the smallest P; int8 against none in bytes and accuracy; rounds against one round
   * per epoch in seconds.
   */
  static String summary(Settings settings, List<Epoch> epochs) {
    StringBuilder out = new StringBuilder("# Training at many partitions\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "Command: `%s` (%s). %,d label-sorted training rows per dataset, %d epochs,"
                + " minPartitionRows %,d, estimator defaults otherwise, tol 0; test accuracy on"
                + " 20,000 other rows.%n%n",
            System.getenv().getOrDefault("BENCH_COMMAND", "ScaleBenchmark"),
            System.getenv().getOrDefault("BENCH_CODE", "code unknown"),
            settings.rows(),
            settings.epochs(),
            settings.minPartitionRows()));
    if (epochs.stream().anyMatch(Epoch::gradavg)) {
      out.append(
          String.format(
              Locale.ROOT,
              "`gradavg` is a baseline, not the estimator (GradAvgBaseline): LambdaML's gradient"
                  + " averaging per mini-batch, one Spark job per step, mini-batches cut so that an"
                  + " epoch takes about %d steps (its rounds/epoch), logistic loss without"
                  + " regularization, a constant learning rate lr; each partition's rows are cached"
                  + " once and visited in a seeded permutation per epoch. The baseline was tuned (a"
                  + " row per lr of a grid); the estimator was not (its defaults).%n%n",
              settings.gradavgSteps()));
    }
    out.append(
        "| dataset | configuration | P | rounds/epoch | epoch 1 | last epoch | gap to smallest P"
            + " (1st, last) | s/epoch | s/epoch to once per epoch | KiB/epoch to, from executors"
            + " |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    java.util.Map<String, List<Epoch>> byRun = new java.util.LinkedHashMap<>();
    for (Epoch e : epochs) {
      byRun
          .computeIfAbsent(
              e.dataset() + "|" + e.config() + "|" + e.partitions(), k -> new ArrayList<>())
          .add(e);
    }
    for (List<Epoch> run : byRun.values()) {
      Epoch first = run.get(0);
      Epoch last = run.get(run.size() - 1);
      List<Epoch> base =
          byRun.get(first.dataset() + "|" + first.config() + "|" + settings.partitions()[0]);
      double seconds = meanSeconds(run);
      String epoch = SyncInterval.EPOCH.toString();
      List<Epoch> once =
          first.sync().equals(epoch)
              ? null
              : byRun.values().stream()
                  .filter(
                      r ->
                          r.get(0).sync().equals(epoch)
                              && r.get(0).dataset().equals(first.dataset())
                              && r.get(0).partitions() == first.partitions()
                              && r.get(0).compression().equals(first.compression()))
                  .findFirst()
                  .orElse(null);
      String ratio =
          once == null ? "" : String.format(Locale.ROOT, "%.2fx", seconds / meanSeconds(once));
      String rounds =
          first.rounds() == last.rounds()
              ? Integer.toString(last.rounds())
              : first.rounds() + ", " + last.rounds();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %.4f | %.4f | %+.2f, %+.2f | %.2f | %s | %.1f, %.1f |%n",
              first.dataset(),
              first.config(),
              first.partitionsLabel(),
              rounds,
              first.accuracy(),
              last.accuracy(),
              100 * (first.accuracy() - base.get(0).accuracy()),
              100 * (last.accuracy() - base.get(base.size() - 1).accuracy()),
              seconds,
              ratio,
              kibibytes(run, Epoch::bytesTo),
              kibibytes(run, Epoch::bytesFrom)));
    }
    out.append(
        "\n"
            + "P is the input's partitions, in brackets the partitions that trained where"
            + " minPartitionRows made them fewer. Rounds/epoch are the first epoch's and the last's"
            + " where they differ"
            + " (syncInterval=auto); gaps are in points of accuracy; KiB are means per epoch;"
            + " s/epoch to once per epoch is the run's s/epoch over that of syncInterval=epoch at"
            + " the same P and deltaCompression.\n");
    out.append(costModel(settings, epochs));
    return out.toString();
  }

  private static double meanSeconds(List<Epoch> run) {
    return run.stream().mapToDouble(Epoch::seconds).average().orElse(Double.NaN);
  }

  /** The mean per epoch of a run's bytes, in KiB. */
  private static double kibibytes(List<Epoch> run, java.util.function.ToLongFunction<Epoch> bytes) {
    return run.stream().mapToLong(bytes).average().orElse(Double.NaN) / 1024;
  }

  /**
   * The cost model fitted per dataset to the runs that trained in the two fewest partitions above
   * the cores (the pilot), predicting the mean epoch time (first epoch left out: JIT warm-up and,
   * for rounds, sizing the model) of the runs that trained in more. Runs go by the partitions that
   * trained, not the input's: a round runs a task per partition that trains, and runs whose input P
   * differ but that trained in as many partitions (minPartitionRows) are the same size, pilot runs
   * together or predicted alike. The model is of tasks that run in waves on the cores; with no more
   * partitions than cores every task of a round runs at once, the round's slowest partition sets
   * its time and rounds fill their buffers ahead ({@code RoundLookahead}): not the same costs, so
   * those runs are neither pilot nor predicted.
   */
  static String costModel(Settings settings, List<Epoch> epochs) {
    int[] inWaves =
        epochs.stream()
            .mapToInt(Epoch::trainedPartitions)
            .filter(p -> p > settings.cores())
            .distinct()
            .sorted()
            .toArray();
    if (inWaves.length < 3) {
      return String.format(
          Locale.ROOT,
          "%n## Cost model%n%nNot fitted: it needs runs that trained in 3 or more numbers of"
              + " partitions above the %d cores.%n",
          settings.cores());
    }
    int pilotMin = inWaves[0];
    int pilotMax = inWaves[1];
    StringBuilder out =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%n## Cost model%n%nFitted per dataset to the epochs (the first left out) of the"
                    + " runs that trained in %d and %d partitions, the fewest above the %d cores;"
                    + " predicted against measured mean seconds per epoch of the runs that trained"
                    + " in more. Runs go by the partitions that trained (in brackets after P where"
                    + " fewer): tasks/epoch are those times the rounds, and runs that trained in as"
                    + " many partitions are fitted or predicted alike, whatever their P.%n",
                pilotMin,
                pilotMax,
                settings.cores()));
    java.util.Map<String, List<Epoch>> byDataset = new java.util.LinkedHashMap<>();
    for (Epoch e : epochs) {
      if (e.epoch() > 1) {
        byDataset.computeIfAbsent(e.dataset(), k -> new ArrayList<>()).add(e);
      }
    }
    for (List<Epoch> data : byDataset.values()) {
      RoundCostModel model =
          RoundCostModel.fit(
              data.stream()
                  .filter(
                      e -> e.trainedPartitions() >= pilotMin && e.trainedPartitions() <= pilotMax)
                  .map(ScaleBenchmark::observation)
                  .toList());
      out.append(
          String.format(
              Locale.ROOT,
              "%n%s: %s.%n%n| configuration | P | tasks/epoch | predicted s |"
                  + " measured s | error |%n|---|---:|---:|---:|---:|---:|%n",
              data.get(0).dataset(),
              model.describe()));
      java.util.Map<String, List<Epoch>> byRun = new java.util.LinkedHashMap<>();
      for (Epoch e : data) {
        if (e.trainedPartitions() > pilotMax) {
          byRun.computeIfAbsent(e.config() + "|" + e.partitions(), k -> new ArrayList<>()).add(e);
        }
      }
      for (List<Epoch> run : byRun.values()) {
        Epoch first = run.get(0);
        double measured = run.stream().mapToDouble(Epoch::seconds).average().orElse(Double.NaN);
        double predicted =
            run.stream()
                .map(ScaleBenchmark::observation)
                .mapToDouble(o -> model.predict(o.tasks(), o.rounds(), o.mebibytes()))
                .average()
                .orElse(Double.NaN);
        // rounded first, so that a rounding error below a percent shows as +0%, not -0%
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %.2f | %.2f | %+d%% |%n",
                first.config(),
                first.partitionsLabel(),
                observation(first).tasks(),
                predicted,
                measured,
                Math.round(100 * (predicted - measured) / measured)));
      }
    }
    return out.toString();
  }

  /** The epochs of a {@code scale.csv}, in its columns' order. */
  private static List<Epoch> read(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    return lines.subList(1, lines.size()).stream().map(Epoch::parse).toList();
  }

  /** An epoch as the cost model sees it: a task per partition that trained, every round. */
  private static RoundCostModel.Observation observation(Epoch e) {
    return new RoundCostModel.Observation(
        e.trainedPartitions() * e.rounds(),
        e.rounds(),
        (e.bytesTo() + e.bytesFrom()) / (double) (1 << 20),
        e.seconds());
  }

  private static Prepared prepare(SparkSession spark, Settings settings, String name) {
    Path dir = generate(spark, settings, name);
    return new Prepared(
        name,
        dir.resolve("train-sorted-by-label").toString(),
        TestSet.read(spark, dir.resolve("test").toString()));
  }

  /**
   * Writes a dataset's training Parquet (sorted by label) and test Parquet under the data folder,
   * unless an earlier run did; returns their folder. {@code scripts/bench bandwidth} calls it on
   * its own, so no run under a bandwidth limit pays for generating data.
   */
  static Path generate(SparkSession spark, Settings settings, String name) {
    Path dir = settings.data().resolve("scale-" + name + "-" + settings.rows());
    String train = dir.resolve("train-sorted-by-label").toString();
    String test = dir.resolve("test").toString();
    if (!Files.exists(Path.of(test, "_SUCCESS"))) {
      long generated = settings.rows() + 20_000;
      Dataset<Row> all =
          switch (name) {
            case "higgs", "higgs-centered" -> higgs(spark, generated);
            case "blobs" -> blobs(spark, generated);
            case "wide" -> wide(spark, generated);
            default ->
                throw new IllegalArgumentException(
                    "Cannot use dataset "
                        + name
                        + ": expected higgs, higgs-centered, blobs or wide");
          };
      PipelineModel features = new Pipeline().setStages(stages(name)).fit(all);
      Dataset<Row> rows = features.transform(all).select("id", "features", "label");
      // 1,000 row groups (at least 100 rows each): 8 per partition at P=128 and 100,000 rows
      rows.where("id >= 20000")
          .orderBy(col("label"), col("id"))
          .coalesce(1)
          .write()
          .mode("overwrite")
          .option("parquet.block.row.count.limit", Math.max(100, settings.rows() / 1_000))
          .parquet(train);
      rows.where("id < 20000").write().mode("overwrite").parquet(test);
    }
    return dir;
  }

  private static PipelineStage[] stages(String name) {
    if (name.equals("higgs")) {
      return HiggsShapedData.featureStages();
    }
    if (name.equals("higgs-centered")) {
      // The same rows centered as well as scaled: the HIGGS-shaped set's positive features leave
      // the
      // intercept's direction ill-conditioned, which SGD crosses slowly at any P.
      return new PipelineStage[] {
        new VectorAssembler().setInputCols(HiggsShapedData.featureNames()).setOutputCol("raw"),
        new org.apache.spark.ml.feature.StandardScaler()
            .setWithMean(true)
            .setInputCol("raw")
            .setOutputCol("features")
      };
    }
    if (name.equals("wide")) {
      return new PipelineStage[0];
    }
    String[] names = new String[BLOB_FEATURES];
    for (int i = 0; i < names.length; i++) {
      names[i] = "x" + i;
    }
    return new PipelineStage[] {new VectorAssembler().setInputCols(names).setOutputCol("features")};
  }

  private static Dataset<Row> higgs(SparkSession spark, long rows) {
    return HiggsShapedData.generate(spark, rows, 1, 4);
  }

  private static final int BLOB_FEATURES = 20;
  private static final int BLOBS = 8;

  /**
   * Eight Gaussian clusters in 20 dimensions, each half labelled by a hyperplane through the origin
   * plus noise: sorted by label, every run of rows is also a run of a few clusters, so an order
   * that follows storage fails badly.
   */
  private static Dataset<Row> blobs(SparkSession spark, long rows) {
    List<Column> columns =
        new ArrayList<>(List.of(col("id"), floor(rand(900).multiply(BLOBS)).as("cluster")));
    for (int i = 0; i < BLOB_FEATURES; i++) {
      columns.add(randn(i + 1).as("z" + i));
    }
    Dataset<Row> d = spark.range(0, rows, 1, 4).select(columns.toArray(new Column[0]));
    StringBuilder margin = new StringBuilder("0");
    for (int i = 0; i < BLOB_FEATURES; i++) {
      // cluster centers at 2 * sin(cluster * (i + 1)): fixed, well apart
      d = d.withColumn("x" + i, expr("z" + i + " + 2 * sin(cluster * " + (i + 1) + ")"));
      margin.append(" + ").append(i % 3 == 0 ? 1.0 : -0.5).append(" * x").append(i);
    }
    return d.withColumn("label", expr("cast((" + margin + ") + 0.5 * randn(77) > 0 as double)"));
  }
}
