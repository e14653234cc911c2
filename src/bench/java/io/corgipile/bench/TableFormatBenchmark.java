package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;

import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.MetadataBuilder;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;

/**
 * What reading a table costs against reading its data files as plain Parquet (issue 43's goal: a
 * table's snapshot at most 1.05x, planning included), and whether training on it gives the same
 * model. One label-sorted HIGGS-shaped table, its Parquet files written once by Spark with
 * Iceberg's field ids; a Delta table (delta-rs' {@code convert_to_deltalake}) and an Iceberg table
 * (Iceberg's {@code AppendFiles}) made over hard links to the same files, so that all three read
 * the same bytes, from the same page cache. Each repetition loads and scans every variant through
 * {@code format("corgipile")} at the default options into Spark's noop sink, in rotated order after
 * a warm-up pass; then {@code SGDClassifier} at its defaults fits each, and the test accuracy and
 * the coefficients are compared with Parquet's.
 *
 * <p>Options: {@link #COMMAND_LINE}.
 */
public final class TableFormatBenchmark {
  private static final List<String> VARIANTS = List.of("parquet", "delta", "iceberg");

  static final CommandLine COMMAND_LINE =
      new CommandLine(
          "run scripts/bench tables",
          List.of(
              new Option("rows", "N", "rows of the table [2m]"),
              new Option("files", "N", "Parquet files [8]"),
              new Option("reps", "R", "timed repetitions of each variant [5]"),
              new Option("epochs", "N", "epochs of each fit [3]"),
              new Option("seed", "S", "seed of the generated data [7]"),
              new Option("data", "DIR", "root of the generated tables [target/bench-data]"),
              new Option("out", "DIR", "results directory [target/bench-tables]"),
              new Option("python", "PATH", "the Python with deltalake [.venv/bin/python]")),
          0);

  private TableFormatBenchmark() {}

  public static void main(String[] argv) throws Exception {
    Arguments args = COMMAND_LINE.parse(argv);
    long rows = args.count("rows", 2_000_000, 1);
    int files = args.atLeast("files", 8, 1);
    int reps = args.atLeast("reps", 5, 1);
    int epochs = args.atLeast("epochs", 3, 1);
    long seed = args.integer("seed", 7, Long.MIN_VALUE, Long.MAX_VALUE);
    Path data =
        args.path("data", Path.of("target", "bench-data"))
            .resolve("tables-rows" + rows + "-files" + files + "-seed" + seed)
            .toAbsolutePath();
    Path out = args.path("out", Path.of("target", "bench-tables"));
    String python = args.string("python", ".venv/bin/python");
    Files.createDirectories(out);

    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("corgipile-table-formats")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      if (!Files.isRegularFile(data.resolve("_COMPLETE"))) {
        write(spark, data, rows, files, seed, python);
      }
      Map<String, String> paths = new LinkedHashMap<>();
      for (String v : VARIANTS) {
        paths.put(v, data.resolve(v).toString());
      }
      Map<String, List<Double>> seconds = new LinkedHashMap<>();
      Map<String, List<Double>> planning = new LinkedHashMap<>();
      for (String v : VARIANTS) {
        seconds.put(v, new ArrayList<>());
        planning.put(v, new ArrayList<>());
        scan(spark, paths.get(v)); // warm-up: class loading, JIT, page cache
      }
      for (int r = 0; r < reps; r++) {
        for (int k = 0; k < VARIANTS.size(); k++) {
          String v = VARIANTS.get((r + k) % VARIANTS.size());
          planning.get(v).add(plan(spark, paths.get(v)));
          seconds.get(v).add(scan(spark, paths.get(v)));
        }
      }
      Dataset<Row> test =
          HiggsShapedData.generate(spark, Math.max(10_000, rows / 10), seed + 1, 2).cache();
      fit(spark, paths.get("parquet"), test, 1); // warm-up of the training code
      Map<String, Fit> fits = new LinkedHashMap<>();
      for (String v : VARIANTS) {
        fits.put(v, fit(spark, paths.get(v), test, epochs));
      }
      report(out, rows, files, reps, epochs, seconds, planning, fits);
    } finally {
      spark.stop();
    }
  }

  /** The Parquet files (with Iceberg's field ids), then both tables over hard links to them. */
  private static void write(
      SparkSession spark, Path data, long rows, int files, long seed, String python)
      throws IOException, InterruptedException {
    Path parquet = data.resolve("parquet");
    List<String> names = new ArrayList<>(List.of("label"));
    names.addAll(Arrays.asList(HiggsShapedData.featureNames()));
    List<Column> columns = new ArrayList<>();
    List<Types.NestedField> fields = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      // Spark writes a column's field id from this metadata, as Iceberg's writers write theirs
      columns.add(
          col(names.get(i))
              .as(names.get(i), new MetadataBuilder().putLong("parquet.field.id", i + 1).build()));
      fields.add(Types.NestedField.optional(i + 1, names.get(i), Types.DoubleType.get()));
    }
    String previous = spark.conf().get("spark.sql.shuffle.partitions");
    spark.conf().set("spark.sql.shuffle.partitions", String.valueOf(files));
    try {
      HiggsShapedData.generate(spark, rows, seed, Math.max(2, files))
          .orderBy(col("label"), col("id"))
          .select(columns.toArray(new Column[0]))
          .write()
          .mode("overwrite")
          .option("parquet.block.size", 4L << 20)
          .parquet(parquet.toString());
    } finally {
      spark.conf().set("spark.sql.shuffle.partitions", previous);
    }
    List<Path> written;
    try (Stream<Path> list = Files.list(parquet)) {
      written = list.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }

    Path delta = Files.createDirectories(data.resolve("delta"));
    for (Path f : written) {
      Files.createLink(delta.resolve(f.getFileName()), f);
    }
    run(
        python,
        "-c",
        "import sys; from deltalake import convert_to_deltalake; convert_to_deltalake(sys.argv[1])",
        delta.toString());

    Path iceberg = data.resolve("iceberg");
    Table table =
        new HadoopTables(new Configuration())
            .create(
                new Schema(fields),
                PartitionSpec.unpartitioned(),
                Map.of(TableProperties.FORMAT_VERSION, "2"),
                iceberg.toString());
    Path icebergData = Files.createDirectories(iceberg.resolve("data"));
    AppendFiles append = table.newAppend();
    Configuration conf = new Configuration();
    for (Path f : written) {
      Path link = Files.createLink(icebergData.resolve(f.getFileName()), f);
      long count;
      try (ParquetFileReader reader =
          ParquetFileReader.open(
              HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(link.toString()), conf))) {
        count = reader.getRecordCount();
      }
      append.appendFile(
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath(link.toString())
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(Files.size(link))
              .withRecordCount(count)
              .build());
    }
    append.commit();
    Files.writeString(data.resolve("_COMPLETE"), "");
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(
          "Cannot make the Delta table: " + String.join(" ", command) + " failed");
    }
  }

  /**
   * Seconds to plan a scan of the path: the load (finding the table, listing its files) and the
   * scan's partitions (reading the footers, planning the blocks).
   */
  private static double plan(SparkSession spark, String path) {
    long t0 = System.nanoTime();
    spark.read().format("corgipile").load(path).rdd().getNumPartitions();
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Seconds to load the path (planning) and scan every row into Spark's noop sink. */
  private static double scan(SparkSession spark, String path) {
    long t0 = System.nanoTime();
    spark.read().format("corgipile").load(path).write().format("noop").mode("overwrite").save();
    return (System.nanoTime() - t0) / 1e9;
  }

  private record Fit(double seconds, double accuracy, double[] coefficients) {}

  private static Fit fit(SparkSession spark, String path, Dataset<Row> test, int epochs) {
    long t0 = System.nanoTime();
    SGDClassificationModel model =
        new SGDClassifier()
            .setFeaturesCols(HiggsShapedData.featureNames())
            .setMaxIter(epochs)
            .fit(spark.read().format("corgipile").load(path));
    double seconds = (System.nanoTime() - t0) / 1e9;
    Dataset<Row> scored = model.transform(test);
    double accuracy =
        scored.where(col("prediction").equalTo(col("label"))).count() / (double) scored.count();
    return new Fit(seconds, accuracy, model.coefficients().toArray());
  }

  private static void report(
      Path out,
      long rows,
      int files,
      int reps,
      int epochs,
      Map<String, List<Double>> seconds,
      Map<String, List<Double>> planning,
      Map<String, Fit> fits)
      throws IOException {
    double parquetMedian = median(seconds.get("parquet"));
    StringBuilder md = new StringBuilder();
    StringBuilder csv = new StringBuilder("variant,rep,seconds\n");
    md.append("# Tables against their files as plain Parquet\n\n")
        .append("- Command: `")
        .append(System.getenv().getOrDefault("BENCH_COMMAND", "TableFormatBenchmark"))
        .append("`\n- Code: ")
        .append(System.getenv().getOrDefault("BENCH_CODE", "unknown"))
        .append(
            String.format(
                Locale.ROOT,
                "%n- Data: %,d label-sorted HIGGS-shaped rows (28 doubles and the label) in %d"
                    + " Parquet files, one set of files under all three; `local[2]`, default"
                    + " options; %d repetitions after a warm-up, rotated, each a planning alone"
                    + " then a load and scan; after a warm-up fit, fits of %d epochs at the"
                    + " estimator's defaults.%n%n",
                rows,
                files,
                reps,
                epochs))
        .append(
            "| variant | load and scan, median s | min s | max s | vs Parquet | planning, median s"
                + " | fit s | test accuracy | coefficients as Parquet's |\n")
        .append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    double[] parquetCoefficients = fits.get("parquet").coefficients();
    XYChart chart = ReportPlots.chart("repetition", "load and scan, seconds");
    for (Map.Entry<String, List<Double>> e : seconds.entrySet()) {
      List<Double> s = e.getValue();
      Fit fit = fits.get(e.getKey());
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.3f | %.3f | %.3f | %.3fx | %.3f | %.1f | %.4f | %s |%n",
              e.getKey(),
              median(s),
              s.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
              s.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
              median(s) / parquetMedian,
              median(planning.get(e.getKey())),
              fit.seconds(),
              fit.accuracy(),
              Arrays.equals(fit.coefficients(), parquetCoefficients) ? "bit for bit" : "differ"));
      double[] x = new double[s.size()];
      for (int i = 0; i < s.size(); i++) {
        x[i] = i + 1;
        csv.append(e.getKey()).append(',').append(i + 1).append(',').append(s.get(i)).append('\n');
      }
      ReportPlots.line(chart, e.getKey(), x, s.stream().mapToDouble(Double::doubleValue).toArray());
    }
    md.append("\n![load and scan by repetition](seconds.png)\n");
    Files.writeString(out.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
    Files.writeString(out.resolve("results.csv"), csv.toString(), StandardCharsets.UTF_8);
    BitmapEncoder.saveBitmap(chart, out.resolve("seconds").toString(), BitmapFormat.PNG);
    System.out.print(md);
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
