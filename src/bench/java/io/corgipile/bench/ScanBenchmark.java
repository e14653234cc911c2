package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;

import io.corgipile.examples.HiggsShapedData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.SparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Scan throughput of the {@code corgipile} source against Spark's own Parquet scan, both consumed as
 * rows: every {@link InternalRow} is iterated and every column read. Run it through
 * {@code scripts/bench-scan}; {@code scripts/bench-scan --help} explains the arguments.
 *
 * <p>It lives in src/bench, compiled with the tests, so the library jar does not carry it.
 */
public final class ScanBenchmark {
  static final int FEATURES = HiggsShapedData.FEATURES;
  static final long PARQUET_BLOCK_SIZE = 4L << 20;
  static final String META_FILE = "_bench_meta.properties";
  static final String LAYOUT_VERSION = "2";

  private ScanBenchmark() {}

  // ---------------------------------------------------------------- variants

  /** One way of reading the table. */
  static final class Variant {
    final String name;
    final boolean corgipile;
    final Map<String, String> options;

    Variant(String name, boolean corgipile, Map<String, String> options) {
      this.name = name;
      this.corgipile = corgipile;
      this.options = options;
    }

    Dataset<Row> load(SparkSession spark, String path, List<String> columns) {
      Dataset<Row> df;
      if (corgipile) {
        DataFrameReader r = spark.read().format("corgipile");
        options.forEach(r::option);
        df = r.load(path);
      } else {
        df = spark.read().parquet(path);
      }
      return df.select(columns.stream().map(c -> col(c)).toArray(Column[]::new));
    }

    String describe() {
      if (!corgipile) {
        return "spark.read().parquet(path)";
      }
      String opts = options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
          .collect(Collectors.joining(", "));
      boolean prefetchSet = options.containsKey("prefetch");
      boolean bufferSet = options.containsKey("bufferSize");
      return "format(\"corgipile\") " + opts
          + (prefetchSet ? "" : ", prefetch=true (default)")
          + (bufferSet ? "" : ", bufferSize=10% (default)");
    }
  }

  static List<Variant> variants(ScanArgs args) {
    List<Variant> all = new ArrayList<>();
    all.add(new Variant("parquet", false, Map.of()));
    all.add(corgi("none", args, "shuffle", "none"));
    all.add(corgi("block", args, "shuffle", "block"));
    all.add(corgi("window", args, "shuffle", "window"));
    all.add(corgi("corgipile", args, "shuffle", "corgipile", "prefetch", "true"));
    all.add(corgi("corgipile-noprefetch", args, "shuffle", "corgipile", "prefetch", "false"));
    if (args.variants == null) {
      return all;
    }
    List<Variant> chosen = new ArrayList<>();
    for (String name : args.variants) {
      Variant v = all.stream().filter(x -> x.name.equals(name)).findFirst().orElseThrow(() ->
          new IllegalArgumentException("unknown variant " + name + "; known: "
              + all.stream().map(x -> x.name).collect(Collectors.joining(","))));
      chosen.add(v);
    }
    if (chosen.stream().noneMatch(v -> !v.corgipile)) {
      chosen.add(0, all.get(0)); // ratios are against the plain scan: always measure it
    }
    return chosen;
  }

  private static Variant corgi(String name, ScanArgs args, String... kv) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      o.put(kv[i], kv[i + 1]);
    }
    o.putAll(args.corgiOptions);
    return new Variant(name, true, o);
  }

  // ---------------------------------------------------------------- consumption

  /** What one pass over the table saw: row count, a plain double sum and an order-free exact checksum. */
  static final class Checksum implements Serializable {
    private static final long serialVersionUID = 1L;
    long rows;
    double sum;
    /** Wrapping sum of the raw bits of every value: exact and independent of the row order. */
    long bits;

    Checksum merge(Checksum o) {
      Checksum c = new Checksum();
      c.rows = rows + o.rows;
      c.sum = sum + o.sum;
      c.bits = bits + o.bits;
      return c;
    }

    boolean sameRowsAndBits(Checksum o) {
      return rows == o.rows && bits == o.bits;
    }

    String key() {
      return rows + "/" + Long.toHexString(bits);
    }
  }

  /** Reads every column of every row; both paths do exactly this work. */
  static Iterator<Checksum> consume(Iterator<InternalRow> it, int columns) {
    long rows = 0;
    double sum = 0;
    long bits = 0;
    while (it.hasNext()) {
      InternalRow r = it.next();
      for (int i = 0; i < columns; i++) {
        double v = r.getDouble(i);
        sum += v;
        bits += Double.doubleToRawLongBits(v);
      }
      rows++;
    }
    Checksum c = new Checksum();
    c.rows = rows;
    c.sum = sum;
    c.bits = bits;
    return Collections.singletonList(c).iterator();
  }

  static final class Measurement {
    final String variant;
    final String phase;
    final int rep;
    final int position;
    final double seconds;
    final int partitions;
    final Checksum checksum;

    Measurement(String variant, String phase, int rep, int position, double seconds, int partitions,
        Checksum checksum) {
      this.variant = variant;
      this.phase = phase;
      this.rep = rep;
      this.position = position;
      this.seconds = seconds;
      this.partitions = partitions;
      this.checksum = checksum;
    }
  }

  /** Plans, runs and consumes one scan; the time covers all of it (file listing and footers included). */
  /**
   * Drops the operating system's page cache, so the next scan reads from disk as it would for a
   * table larger than memory. Needs root on Linux.
   */
  static void dropPageCache() {
    try {
      if (new ProcessBuilder("sync").inheritIO().start().waitFor() != 0) {
        throw new IllegalStateException("sync failed");
      }
      Files.write(Paths.get("/proc/sys/vm/drop_caches"), "1\n".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new IllegalStateException("Cannot drop the page cache for --cold (it needs root on Linux): " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot drop the page cache: interrupted", e);
    }
  }

  static boolean cold;

  static Measurement measure(SparkSession spark, Variant v, String path, List<String> columns, String phase,
      int rep, int position) {
    System.gc();
    if (cold) {
      dropPageCache();
    }
    SparkContext sc = spark.sparkContext();
    sc.setJobDescription("bench-scan " + phase + " " + rep + " " + v.name);
    int n = columns.size();
    long t0 = System.nanoTime();
    Dataset<Row> df = v.load(spark, path, columns);
    RDD<InternalRow> rdd = df.queryExecution().toRdd();
    int partitions = rdd.getNumPartitions();
    Checksum c = rdd.toJavaRDD().mapPartitions(it -> consume(it, n)).reduce(Checksum::merge);
    long t1 = System.nanoTime();
    sc.setJobDescription(null);
    double seconds = (t1 - t0) / 1e9;
    System.err.printf(Locale.ROOT, "[bench-scan] %-7s rep %d  %-22s %8.3f s  rows=%d  partitions=%d%n",
        phase, rep, v.name, seconds, c.rows, partitions);
    return new Measurement(v.name, phase, rep, position, seconds, partitions, c);
  }

  // ---------------------------------------------------------------- data

  static final class TableInfo {
    String path;
    long rows;
    int files;
    int rowGroups;
    long compressedBytes;
    long minRowGroupRows = Long.MAX_VALUE;
    long maxRowGroupRows;
    boolean generatedNow;
    double generationSeconds;
    String generatedAt;
  }

  static List<String> columns() {
    List<String> cols = new ArrayList<>();
    cols.add("label");
    for (int i = 1; i <= FEATURES; i++) {
      cols.add("f" + i);
    }
    return cols;
  }

  static java.nio.file.Path tableDir(ScanArgs args) {
    return args.dataRoot.resolve("higgs-like-rows" + args.rows + "-seed" + args.seed);
  }

  static boolean complete(java.nio.file.Path dir, ScanArgs args) {
    java.nio.file.Path meta = dir.resolve(META_FILE);
    if (!Files.isRegularFile(dir.resolve("_SUCCESS")) || !Files.isRegularFile(meta)) {
      return false;
    }
    Properties p = readMeta(meta);
    return String.valueOf(args.rows).equals(p.getProperty("rows"))
        && String.valueOf(args.seed).equals(p.getProperty("seed"))
        && String.valueOf(FEATURES).equals(p.getProperty("features"))
        && String.valueOf(PARQUET_BLOCK_SIZE).equals(p.getProperty("parquet.block.size"))
        && LAYOUT_VERSION.equals(p.getProperty("layout"));
  }

  static Properties readMeta(java.nio.file.Path meta) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(meta)) {
      p.load(in);
    } catch (IOException e) {
      return new Properties();
    }
    return p;
  }

  /**
   * A {@link HiggsShapedData} table sorted by label, all 0s first, which the real HIGGS file is
   * not, but which is the worst case for an unshuffled scan.
   */
  static double generate(SparkSession spark, ScanArgs args, java.nio.file.Path dir) {
    long rows = args.rows;
    int files = (int) Math.max(1, Math.min(64, (rows + 999_999) / 1_000_000));
    int genPartitions = Math.max(2, files);
    System.err.printf(Locale.ROOT, "[bench-scan] generating %,d rows into %s (%d files, parquet.block.size=%d)%n",
        rows, dir, files, PARQUET_BLOCK_SIZE);
    long t0 = System.nanoTime();
    List<Column> out = new ArrayList<>();
    out.add(col("label"));
    for (String feature : HiggsShapedData.featureNames()) {
      out.add(col(feature));
    }
    String previous = spark.conf().get("spark.sql.shuffle.partitions");
    spark.conf().set("spark.sql.shuffle.partitions", String.valueOf(files));
    try {
      HiggsShapedData.generate(spark, rows, args.seed, genPartitions)
          // the id breaks ties so the range partitioner cuts even files; part-00000 holds the first 0s
          .orderBy(col("label"), col("id"))
          .select(out.toArray(new Column[0]))
          .write()
          .mode("overwrite")
          .option("parquet.block.size", PARQUET_BLOCK_SIZE)
          .parquet(dir.toString());
    } finally {
      spark.conf().set("spark.sql.shuffle.partitions", previous);
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Makes sure the table exists and is complete, and returns a shared lock on it that the caller
   * holds while it reads the table. Several benchmark processes may share one data directory: the
   * generator holds the exclusive lock, writes into a private directory and renames it into place,
   * so no process reads a half-written table and no two write the same one.
   */
  static FileLock prepare(SparkSession spark, ScanArgs args, TableInfo info) throws IOException {
    java.nio.file.Path dir = tableDir(args).toAbsolutePath();
    info.path = dir.toString();
    Files.createDirectories(dir.getParent());
    FileChannel channel = FileChannel.open(dir.resolveSibling("." + dir.getFileName() + ".lock"),
        StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock = channel.lock(0, Long.MAX_VALUE, true);
    if (args.regenerate || !complete(dir, args)) {
      lock.release();
      System.err.println("[bench-scan] waiting for the exclusive lock on " + dir);
      lock = channel.lock();
      if (args.regenerate || !complete(dir, args)) {
        generateInPlace(spark, args, dir, info);
      }
      lock.release();
      lock = channel.lock(0, Long.MAX_VALUE, true);
    }
    if (!info.generatedNow) {
      Properties p = readMeta(dir.resolve(META_FILE));
      info.generatedAt = p.getProperty("generatedAt", "?");
      info.generationSeconds = Double.parseDouble(p.getProperty("generationSeconds", "NaN"));
    }
    TableInfo check = new TableInfo();
    footers(spark, dir, check);
    if (check.rows != args.rows) {
      throw new IllegalStateException("table " + dir + " holds " + check.rows + " rows, expected " + args.rows);
    }
    info.rows = check.rows;
    info.files = check.files;
    info.rowGroups = check.rowGroups;
    info.compressedBytes = check.compressedBytes;
    info.minRowGroupRows = check.minRowGroupRows;
    info.maxRowGroupRows = check.maxRowGroupRows;
    return lock;
  }

  /** Writes the table into a private directory, checks it, then moves it to {@code dir}. */
  private static void generateInPlace(SparkSession spark, ScanArgs args, java.nio.file.Path dir, TableInfo info)
      throws IOException {
    java.nio.file.Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    deleteRecursively(tmp);
    info.generationSeconds = generate(spark, args, tmp);
    info.generatedNow = true;
    info.generatedAt = ZonedDateTime.now().withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    TableInfo written = new TableInfo();
    footers(spark, tmp, written);
    if (written.rows != args.rows) {
      throw new IllegalStateException("generated table " + tmp + " holds " + written.rows + " rows, expected "
          + args.rows);
    }
    Properties p = new Properties();
    p.setProperty("layout", LAYOUT_VERSION);
    p.setProperty("rows", String.valueOf(args.rows));
    p.setProperty("seed", String.valueOf(args.seed));
    p.setProperty("features", String.valueOf(FEATURES));
    p.setProperty("label", "double in {0,1}, sorted ascending (all 0s first)");
    p.setProperty("parquet.block.size", String.valueOf(PARQUET_BLOCK_SIZE));
    p.setProperty("files", String.valueOf(written.files));
    p.setProperty("rowGroups", String.valueOf(written.rowGroups));
    p.setProperty("compressedBytes", String.valueOf(written.compressedBytes));
    p.setProperty("generationSeconds", String.format(Locale.ROOT, "%.1f", info.generationSeconds));
    p.setProperty("generatedAt", info.generatedAt);
    try (OutputStream o = Files.newOutputStream(tmp.resolve(META_FILE))) {
      p.store(o, "bench-scan table; the table is complete when this file and _SUCCESS exist");
    }
    deleteRecursively(dir);
    Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
  }

  static void deleteRecursively(java.nio.file.Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<java.nio.file.Path> walk = Files.walk(p)) {
      for (java.nio.file.Path q : walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(q);
      }
    }
  }

  /** Files, row groups and rows, from the Parquet footers. */
  static void footers(SparkSession spark, java.nio.file.Path dir, TableInfo info) throws IOException {
    Configuration conf = spark.sessionState().newHadoopConf();
    Path root = new Path(dir.toUri());
    FileSystem fs = root.getFileSystem(conf);
    FileStatus[] statuses = fs.listStatus(root, p -> !p.getName().startsWith("_") && !p.getName().startsWith("."));
    Arrays.sort(statuses);
    for (FileStatus s : statuses) {
      if (!s.isFile()) {
        continue;
      }
      info.files++;
      try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromStatus(s, conf))) {
        for (BlockMetaData b : r.getFooter().getBlocks()) {
          info.rowGroups++;
          info.rows += b.getRowCount();
          info.compressedBytes += b.getCompressedSize();
          info.minRowGroupRows = Math.min(info.minRowGroupRows, b.getRowCount());
          info.maxRowGroupRows = Math.max(info.maxRowGroupRows, b.getRowCount());
        }
      }
    }
  }

  // ---------------------------------------------------------------- main

  public static void main(String[] argv) throws Exception {
    ScanArgs args;
    try {
      args = ScanArgs.parse(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("bench-scan: " + e.getMessage() + " (see scripts/bench-scan --help)");
      System.exit(2);
      return;
    }
    List<Variant> variants = variants(args);
    String command = System.getenv().getOrDefault("BENCH_COMMAND",
        "ScanBenchmark " + String.join(" ", argv));
    SparkSession spark = SparkSession.builder()
        .master(args.master)
        .appName("corgipile-bench-scan")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.debug.maxToStringFields", "100")
        .getOrCreate();
    int exit = 0;
    try {
      exit = run(spark, args, variants, command);
    } finally {
      spark.stop();
    }
    System.exit(exit);
  }

  static int run(SparkSession spark, ScanArgs args, List<Variant> variants, String command) throws IOException {
    String date = ZonedDateTime.now().withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    TableInfo table = new TableInfo();
    FileLock lock = prepare(spark, args, table);
    try {
      return measureAll(spark, args, variants, command, date, table);
    } finally {
      lock.channel().close(); // releases the lock
    }
  }

  static int measureAll(SparkSession spark, ScanArgs args, List<Variant> variants, String command, String date,
      TableInfo table) throws IOException {
    System.err.printf(Locale.ROOT, "[bench-scan] table %s: %,d rows, %d files, %d row groups, %.1f MB%s%n",
        table.path, table.rows, table.files, table.rowGroups, table.compressedBytes / 1e6,
        table.generatedNow ? String.format(Locale.ROOT, ", generated in %.1f s", table.generationSeconds)
            : ", reused");
    if (args.generateOnly) {
      return 0;
    }
    List<String> columns = columns();

    cold = args.cold;
    String loadBefore = loadAverage();
    List<Measurement> all = new ArrayList<>();
    int pos = 0;
    for (Variant v : variants) {
      all.add(measure(spark, v, table.path, columns, "warmup", 0, pos++));
    }
    int n = variants.size();
    for (int rep = 1; rep <= args.reps; rep++) {
      for (int k = 0; k < n; k++) {
        Variant v = variants.get((k + rep - 1) % n);
        all.add(measure(spark, v, table.path, columns, "timed", rep, k));
      }
    }

    String loadAfter = loadAverage();

    // Checksums: every run of every variant must see the same rows, each once.
    Checksum reference = all.get(0).checksum;
    boolean allSame = true;
    double maxRelSumDiff = 0;
    for (Measurement m : all) {
      if (!m.checksum.sameRowsAndBits(reference) || m.checksum.rows != table.rows) {
        allSame = false;
      }
      double d = Math.abs(m.checksum.sum - reference.sum) / Math.max(1e-300, Math.abs(reference.sum));
      maxRelSumDiff = Math.max(maxRelSumDiff, d);
    }

    Map<String, double[]> timed = new LinkedHashMap<>();
    for (Variant v : variants) {
      timed.put(v.name, all.stream().filter(m -> m.variant.equals(v.name) && m.phase.equals("timed"))
          .mapToDouble(m -> m.seconds).sorted().toArray());
    }
    double plainMedian = median(timed.get(variants.stream().filter(v -> !v.corgipile).findFirst().get().name));

    StringBuilder md = new StringBuilder();
    md.append("# bench-scan: corgipile vs plain Parquet scan, consumed as rows\n\n");
    md.append("- command: `").append(command).append("`\n");
    md.append("- date: ").append(date).append('\n');
    if (System.getenv("BENCH_CODE") != null) {
      md.append("- code: ").append(System.getenv("BENCH_CODE")).append('\n');
    }
    md.append("- Spark ").append(spark.version()).append(", master `").append(args.master)
        .append("` (default parallelism ").append(spark.sparkContext().defaultParallelism()).append("), Java ")
        .append(System.getProperty("java.version")).append(", max heap ")
        .append(Runtime.getRuntime().maxMemory() >> 20).append(" MiB, ")
        .append(Runtime.getRuntime().availableProcessors()).append(" CPUs\n");
    md.append("- machine load average (1/5/15 min) before the scans: ").append(loadBefore).append(", after: ")
        .append(loadAfter).append(" (other processes on the machine disturb the times)\n");
    md.append("- JVM args: `").append(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> !a.startsWith("--add-opens") && !a.startsWith("--add-modules")
            && !a.startsWith("-XX:+IgnoreUnrecognized") && !a.startsWith("-Dio.netty") && !a.startsWith("-Djdk.reflect"))
        .collect(Collectors.joining(" "))).append("` (plus Spark's module flags)\n");
    md.append(String.format(Locale.ROOT,
        "- table: `%s`: %,d rows x 29 double columns (label + %d features), sorted by label; %d files, "
            + "**%d row groups** (%,d-%,d rows each), %.1f MB compressed (snappy), parquet.block.size=%d\n",
        table.path, table.rows, FEATURES, table.files, table.rowGroups, table.minRowGroupRows,
        table.maxRowGroupRows, table.compressedBytes / 1e6, PARQUET_BLOCK_SIZE));
    md.append(table.generatedNow
        ? String.format(Locale.ROOT, "- data generation: %.1f s (this run)\n", table.generationSeconds)
        : String.format(Locale.ROOT, "- data generation: reused table generated %s in %.1f s\n", table.generatedAt,
            table.generationSeconds));
    md.append(String.format(Locale.ROOT,
        "- method: one warm-up pass of every variant, then %d repetitions, each running every variant in a "
            + "rotated order; a run = plan + `queryExecution().toRdd()` + mapPartitions reading all 29 doubles of "
            + "every InternalRow; times are wall-clock seconds of the whole run; ratio = throughput / plain "
            + "Parquet's, both from medians of this run%s\n", args.reps,
        args.cold ? "; **cold**: the page cache was dropped before every run, so every run read the table from disk"
            : "; warm: the table is read from the page cache"));
    md.append('\n');
    md.append("| variant | options | partitions | median s | min s | max s | rows/s (median) | vs parquet |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    StringBuilder csv = new StringBuilder(
        "variant,options,partitions,reps,median_s,min_s,max_s,rows_per_s,ratio_vs_parquet,rows,row_groups,"
            + "checksum_rows,checksum_bits,checksum_ok\n");
    for (Variant v : variants) {
      double[] t = timed.get(v.name);
      double med = median(t);
      int parts = all.stream().filter(m -> m.variant.equals(v.name)).findFirst().get().partitions;
      boolean ok = all.stream().filter(m -> m.variant.equals(v.name))
          .allMatch(m -> m.checksum.sameRowsAndBits(reference) && m.checksum.rows == table.rows);
      md.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %.3f | %.3f | %,.0f | %.2fx |%s\n",
          v.name, v.describe().replace("|", "\\|"), parts, med, t[0], t[t.length - 1], table.rows / med,
          plainMedian / med, ok ? "" : " **CHECKSUM MISMATCH**"));
      csv.append(String.format(Locale.ROOT, "%s,\"%s\",%d,%d,%.4f,%.4f,%.4f,%.0f,%.4f,%d,%d,%d,%s,%s\n",
          v.name, v.describe().replace("\"", "\"\""), parts, t.length, med, t[0], t[t.length - 1],
          table.rows / med, plainMedian / med, table.rows, table.rowGroups, reference.rows,
          Long.toHexString(reference.bits), ok));
    }
    md.append('\n');
    md.append(String.format(Locale.ROOT,
        "Checksum (rows / wrapping sum of the values' bits, order-independent): %s over %d runs: %s. "
            + "Double sum %.6f (max relative difference between runs %.1e, from summation order).\n",
        reference.key(), all.size(), allSame ? "identical in every run" : "**DIFFERS between runs**",
        reference.sum, maxRelSumDiff));
    md.append('\n');
    md.append("Timed runs (seconds, in execution order):\n\n");
    md.append("| rep | order and seconds |\n|---:|---|\n");
    for (int rep = 0; rep <= args.reps; rep++) {
      final int r = rep;
      md.append("| ").append(rep == 0 ? "warm-up" : String.valueOf(rep)).append(" | ")
          .append(all.stream().filter(m -> m.rep == r)
              .map(m -> String.format(Locale.ROOT, "%s %.3f", m.variant, m.seconds))
              .collect(Collectors.joining(", ")))
          .append(" |\n");
    }

    StringBuilder samples = new StringBuilder("variant,phase,rep,position,seconds,partitions,rows,bits,sum\n");
    for (Measurement m : all) {
      samples.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.4f,%d,%d,%s,%.9e\n", m.variant, m.phase, m.rep,
          m.position, m.seconds, m.partitions, m.checksum.rows, Long.toHexString(m.checksum.bits),
          m.checksum.sum));
    }

    System.out.println();
    System.out.print(md);
    Files.createDirectories(args.out);
    String stamp = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    java.nio.file.Path runs = args.out.resolve("runs");
    Files.createDirectories(runs);
    write(args.out.resolve("results.md"), md.toString());
    write(args.out.resolve("results.csv"), csv.toString());
    write(args.out.resolve("samples.csv"), samples.toString());
    String prefix = stamp + "-rows" + table.rows;
    write(runs.resolve(prefix + ".md"), md.toString());
    write(runs.resolve(prefix + ".csv"), csv.toString());
    write(runs.resolve(prefix + "-samples.csv"), samples.toString());
    System.err.println("[bench-scan] wrote " + args.out.resolve("results.md") + ", results.csv, samples.csv and "
        + runs.resolve(prefix + ".*"));
    if (!allSame) {
      System.err.println("[bench-scan] ERROR: checksums differ between runs; see the table");
      return 1;
    }
    return 0;
  }

  static String loadAverage() {
    try {
      String[] f = new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.US_ASCII).trim()
          .split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static void write(java.nio.file.Path p, String s) throws IOException {
    Files.write(p, s.getBytes(StandardCharsets.UTF_8));
  }
}
