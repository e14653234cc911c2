package io.corgipile.bench;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.source.ReadOptions;
import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * What a training epoch costs against a plain Parquet scan of the same columns, in one JVM: the
 * feature columns trained on directly ({@code featuresCols}) and through the usual MLlib feature
 * pipeline ({@code VectorAssembler}, with and without {@code StandardScaler}), one round per epoch;
 * the default rounds ({@code syncInterval=auto}); and every param at its default. For each fit also
 * what it costs besides its epochs (feature summary, step calibration, planning), and what an epoch
 * read from storage ({@code read_bytes} of {@code /proc/PID/io}, {@link ReadMetrics}): under {@code
 * --memory-limit} every fit and scan starts with the table evicted from the page cache. Run it
 * through {@code scripts/bench epoch}, whose {@code --help} explains the arguments (those of {@code
 * scripts/bench-scan}).
 */
public final class TrainingEpochBenchmark {
  /** Epochs per fit: the seconds reported are their mean. */
  static final int EPOCHS = 3;

  /** Fixed, so that no fit pays for the step calibration. */
  static final double STEP_SIZE = 0.01;

  private TrainingEpochBenchmark() {}

  /**
   * One way of training (or, for {@code parquet}, of scanning).
   *
   * @param syncInterval the estimator's, or null for its default
   * @param calibrated whether the step size is left to the estimator's calibration, as by default
   */
  private record Variant(
      String name,
      String describe,
      String shuffle,
      String pipeline,
      String syncInterval,
      boolean calibrated) {
    Variant(String name, String describe, String shuffle, String pipeline) {
      this(name, describe, shuffle, pipeline, null, false);
    }

    Variant(String name, String describe, String shuffle, String pipeline, String syncInterval) {
      this(name, describe, shuffle, pipeline, syncInterval, false);
    }
  }

  /**
   * What a fit took: the mean of its epochs, the rest of its time (summary, calibration, planning),
   * and the mean bytes an epoch read from storage (for a scan, the scan's).
   */
  private record Fit(double secondsPerEpoch, double fixedSeconds, double storageBytesPerEpoch) {}

  /** The pipeline of a plain scan into Spark's {@code noop} sink: no rows handed to user code. */
  private static final String NOOP = "noop";

  /**
   * One round per epoch: the epoch's cost without a job per buffer (see the last variant for
   * those).
   */
  private static final String EPOCH_ROUNDS = "epoch";

  static final List<Variant> VARIANTS =
      List.of(
          new Variant(
              "parquet",
              "spark.read().parquet(path), the 29 columns consumed as rows (the baseline)",
              null,
              null),
          new Variant(
              "parquet-noop",
              "spark.read().parquet(path), the 29 columns written to Spark's noop sink",
              null,
              NOOP),
          new Variant(
              "columns-none", "featuresCols, shuffle=none", "none", "columns", EPOCH_ROUNDS),
          new Variant(
              "columns-corgipile",
              "featuresCols, shuffle=corgipile",
              "corgipile",
              "columns",
              EPOCH_ROUNDS),
          new Variant(
              "columns-window",
              "featuresCols, shuffle=window (a sliding window of the same size)",
              "window",
              "columns",
              EPOCH_ROUNDS),
          new Variant(
              "columns-none-projected",
              "featuresCols, shuffle=none, label + 0.0: the rows through Spark's column-to-row"
                  + " conversion and projection, not straight from the scan's batches",
              "none",
              "projected",
              EPOCH_ROUNDS),
          new Variant(
              "columns-corgipile-projected",
              "featuresCols, shuffle=corgipile, label + 0.0: the rows through"
                  + " Spark's column-to-row conversion and projection",
              "corgipile",
              "projected",
              EPOCH_ROUNDS),
          new Variant(
              "assembler-none",
              "VectorAssembler, then SGDClassifier, shuffle=none",
              "none",
              "assembler",
              EPOCH_ROUNDS),
          new Variant(
              "assembler-corgipile",
              "VectorAssembler, then SGDClassifier, shuffle=corgipile",
              "corgipile",
              "assembler",
              EPOCH_ROUNDS),
          new Variant(
              "scaler-corgipile",
              "VectorAssembler, StandardScaler, then SGDClassifier (standardization=false),"
                  + " shuffle=corgipile",
              "corgipile",
              "scaler",
              EPOCH_ROUNDS),
          new Variant(
              "columns-corgipile-rounds",
              "featuresCols, shuffle=corgipile, syncInterval at its default"
                  + " (auto: a round, so a Spark job, per buffer, at most 4 per epoch)",
              "corgipile",
              "columns",
              null),
          new Variant(
              "columns-corgipile-buffer",
              "featuresCols, shuffle=corgipile, syncInterval=buffer (a round per"
                  + " buffer in every epoch, the default before auto)",
              "corgipile",
              "columns",
              "buffer"),
          new Variant(
              "columns-corgipile-defaults",
              "featuresCols, shuffle=corgipile, every param at its default:"
                  + " rounds of syncInterval=auto, step size calibrated",
              "corgipile",
              "columns",
              null,
              true),
          new Variant(
              "columns-none-defaults",
              "featuresCols, shuffle=none, every param at its default: the"
                  + " storage-order fit to hold columns-corgipile-defaults against",
              "none",
              "columns",
              null,
              true));

  public static void main(String[] argv) throws Exception {
    ScanArgs args;
    List<Variant> variants;
    try {
      args = ScanArgs.parse(argv);
      variants = chosen(args.variants);
    } catch (IllegalArgumentException e) {
      System.err.println("bench epoch: " + e.getMessage() + " (see scripts/bench epoch --help)");
      System.exit(2);
      return;
    }
    SparkSession spark =
        SparkSession.builder()
            .master(args.master)
            .appName("corgipile-bench-epoch")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .getOrCreate();
    try {
      ScanTable table = new ScanTable();
      FileLock lock = ScanTable.prepare(spark, args, table);
      try {
        measure(
            spark,
            args,
            variants,
            table,
            System.getenv()
                .getOrDefault("BENCH_COMMAND", "scripts/bench epoch " + String.join(" ", argv)));
      } finally {
        lock.channel().close();
      }
    } finally {
      spark.stop();
    }
  }

  static List<String> chosenNames(List<String> names) {
    return chosen(names).stream().map(Variant::name).toList();
  }

  private static List<Variant> chosen(List<String> names) {
    if (names == null) {
      return VARIANTS;
    }
    List<Variant> chosen = new ArrayList<>(List.of(VARIANTS.get(0))); // the baseline, always
    for (String name : names) {
      Variant v = named(name);
      if (!chosen.contains(v)) {
        chosen.add(v);
      }
    }
    return chosen;
  }

  private static Variant named(String name) {
    return VARIANTS.stream()
        .filter(x -> x.name.equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot run variant '"
                        + name
                        + "': known variants are "
                        + VARIANTS.stream().map(Variant::name).collect(Collectors.joining(", "))));
  }

  private static void measure(
      SparkSession spark, ScanArgs args, List<Variant> variants, ScanTable table, String command)
      throws IOException {
    String loadBefore = ScanReport.loadAverage();
    ScanMeasurement.Context scans =
        new ScanMeasurement.Context(
            spark, ScanTable.columns(), false, BufferPeak.register(spark), null, args.seed);
    ReadMetrics reads = ReadMetrics.register(spark);
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    Map<String, List<Double>> fixed = new LinkedHashMap<>();
    Map<String, List<Double>> storage = new LinkedHashMap<>();
    variants.forEach(v -> seconds.put(v.name, new ArrayList<>()));
    variants.forEach(v -> fixed.put(v.name, new ArrayList<>()));
    variants.forEach(v -> storage.put(v.name, new ArrayList<>()));
    StringBuilder csv =
        new StringBuilder("variant,rep,seconds_per_epoch,fixed_seconds,storage_bytes_per_epoch\n");
    for (int rep = 0; rep <= args.reps; rep++) { // rep 0 warms up
      for (int k = 0; k < variants.size(); k++) {
        Variant v = variants.get((k + rep) % variants.size());
        if (args.memoryLimit
            != null) { // each run reads the table from storage, as the first epoch of a job would
          PageCache.evict(List.of(Path.of(table.path)));
        }
        Fit fit =
            v.pipeline == null
                ? scan(scans, table)
                : v.pipeline.equals(NOOP)
                    ? noopScan(spark, table)
                    : fit(spark, table, v, args.corgiOptions, reads);
        System.err.printf(
            Locale.ROOT,
            "[bench epoch] %s rep %d  %-22s %8.3f s per epoch, %.3f s besides, %.1f MB"
                + " from storage per epoch%n",
            rep == 0 ? "warmup" : "timed ",
            rep,
            v.name,
            fit.secondsPerEpoch,
            fit.fixedSeconds,
            fit.storageBytesPerEpoch / 1e6);
        if (rep > 0) {
          seconds.get(v.name).add(fit.secondsPerEpoch);
          fixed.get(v.name).add(fit.fixedSeconds);
          storage.get(v.name).add(fit.storageBytesPerEpoch);
          csv.append(
              String.format(
                  Locale.ROOT,
                  "%s,%d,%.4f,%.4f,%.0f%n",
                  v.name,
                  rep,
                  fit.secondsPerEpoch,
                  fit.fixedSeconds,
                  fit.storageBytesPerEpoch));
        }
      }
    }
    double baseline = sortedMedian(seconds.get("parquet"));
    StringBuilder md =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "# Training epoch against a plain scan%n%n`%s`, %s, table %s: %,d rows, %d row"
                    + " groups, %.1f MB; master %s; medians of %d timed repetitions after one"
                    + " warm-up, in rotated order; a training variant's seconds are the mean of its"
                    + " %d epochs (`summary().secondsPerEpoch()`) of SGDClassifier, step size fixed"
                    + " at %s unless said, syncInterval=epoch unless said, other params at their"
                    + " defaults (standardization on); a fit's time besides its epochs (feature"
                    + " summary, step calibration, planning) is its wall time less the sum of its"
                    + " epochs; storage bytes are read_bytes of /proc/PID/io, per epoch from its"
                    + " first job to its last (a fit's: the mean of its epochs after the first,"
                    + " whose span holds the feature summary and the calibration), against the"
                    + " table's size on disk (one pass)%s; load average %s before, %s after.%n%n|"
                    + " variant | what | median s per epoch | vs plain scan | median s besides the"
                    + " epochs | vs plain scan | median storage MB per epoch | vs one pass |%n"
                    + "|---|---|---:|---:|---:|---:|---:|---:|%n",
                command,
                System.getenv().getOrDefault("BENCH_CODE", "code unknown"),
                table.path,
                table.rows,
                table.rowGroups,
                table.compressedBytes / 1e6,
                args.master,
                args.reps,
                EPOCHS,
                STEP_SIZE,
                (args.memoryLimit == null
                        ? ""
                        : "; every run starts with the table evicted from the page cache")
                    + (args.readLimit == null ? "" : "; " + ReadLimit.describe(args.readLimit))
                    + "; "
                    + Disks.describeReadAhead(Disks.SYS_BLOCK),
                loadBefore,
                ScanReport.loadAverage()));
    for (Variant v : variants) {
      double m = sortedMedian(seconds.get(v.name));
      double f = sortedMedian(fixed.get(v.name));
      double b = sortedMedian(storage.get(v.name));
      md.append(
          String.format(
              Locale.ROOT,
              "| `%s` | %s | %.2f | %.2fx | %s | %s | %.1f | %.3fx |%n",
              v.name,
              v.describe,
              m,
              m / baseline,
              Double.isNaN(f) ? "" : String.format(Locale.ROOT, "%.2f", f),
              Double.isNaN(f) ? "" : String.format(Locale.ROOT, "%.2fx", f / baseline),
              b / 1e6,
              b / table.compressedBytes));
    }
    Files.createDirectories(args.out);
    Files.writeString(args.out.resolve("epoch.csv"), csv, StandardCharsets.UTF_8);
    Files.writeString(args.out.resolve("summary.md"), md, StandardCharsets.UTF_8);
    System.out.print(md);
  }

  private static Fit scan(ScanMeasurement.Context scans, ScanTable table) {
    ScanVariant parquet = new ScanVariant("parquet", false, Map.of());
    ScanMeasurement m = ScanMeasurement.measure(scans, parquet, table.path, "epoch", 0, 0, 0);
    return new Fit(m.seconds(), Double.NaN, m.io().readBytes());
  }

  private static Fit noopScan(SparkSession spark, ScanTable table) {
    System.gc();
    ProcIo before = ProcIo.ofTree();
    long began = System.nanoTime();
    spark
        .read()
        .parquet(table.path)
        .select(ScanTable.columns().stream().map(functions::col).toArray(Column[]::new))
        .write()
        .format("noop")
        .mode("overwrite")
        .save();
    return new Fit(
        (System.nanoTime() - began) / 1e9, Double.NaN, ProcIo.ofTree().minus(before).readBytes());
  }

  /**
   * The options a training variant reads the table with: its shuffle mode, then {@code --option}'s
   * (which, as for {@code scripts/bench-scan}'s corgipile variants, win).
   */
  static Map<String, String> readOptions(String variant, Map<String, String> extra) {
    Variant v = named(variant);
    Map<String, String> options = new LinkedHashMap<>();
    options.put(ReadOptions.SHUFFLE, v.shuffle);
    options.putAll(extra);
    return options;
  }

  private static Fit fit(
      SparkSession spark,
      ScanTable table,
      Variant v,
      Map<String, String> extraOptions,
      ReadMetrics reads) {
    System.gc();
    reads.reset();
    long began = System.nanoTime();
    Dataset<Row> data =
        spark
            .read()
            .format("corgipile")
            .options(readOptions(v.name, extraOptions))
            .load(table.path);
    String[] features =
        ScanTable.columns().stream().filter(c -> !c.equals("label")).toArray(String[]::new);
    SGDClassifier sgd =
        new SGDClassifier().setFamily("binomial").setMaxIter(EPOCHS).setTol(0).setSeed(1);
    if (!v.calibrated) {
      sgd.setStepSize(STEP_SIZE);
    }
    if (v.syncInterval != null) {
      sgd.setSyncInterval(v.syncInterval);
    }
    List<PipelineStage> stages = new ArrayList<>();
    switch (v.pipeline) {
      case "columns" -> sgd.setFeaturesCols(features);
      case "projected" -> { // an expression in the select, so training cannot read the scan's
        // batches
        data = data.withColumn("label", functions.col("label").plus(0.0));
        sgd.setFeaturesCols(features);
      }
      case "assembler" ->
          stages.add(new VectorAssembler().setInputCols(features).setOutputCol("features"));
      case "scaler" -> {
        stages.add(new VectorAssembler().setInputCols(features).setOutputCol("raw"));
        stages.add(new StandardScaler().setInputCol("raw").setOutputCol("features"));
        sgd.setStandardization(false);
      }
      default -> throw new IllegalStateException(v.pipeline);
    }
    stages.add(sgd);
    PipelineModel model = new Pipeline().setStages(stages.toArray(new PipelineStage[0])).fit(data);
    double wall = (System.nanoTime() - began) / 1e9;
    SGDTrainingSummary summary =
        ((io.corgipile.ml.SGDClassificationModel) model.stages()[stages.size() - 1]).summary();
    double[] epochs = summary.secondsPerEpoch();
    // The feature summary and the step calibration run under the first epoch's property, so its
    // window
    // holds their reads too: the epochs after it (ReadMetrics counts from 1) are what an epoch
    // reads.
    double storageBytes = 0;
    for (int epoch = 2; epoch <= epochs.length; epoch++) {
      storageBytes += reads.ioOfEpoch(epoch).readBytes();
    }
    return new Fit(
        Arrays.stream(epochs).average().orElseThrow(),
        wall - Arrays.stream(epochs).sum(),
        storageBytes / (epochs.length - 1));
  }

  private static double sortedMedian(List<Double> values) {
    return ScanReport.median(values.stream().mapToDouble(Double::doubleValue).sorted().toArray());
  }
}
