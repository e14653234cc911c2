package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;

import io.corgipile.examples.HiggsShapedData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
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
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** The scan benchmark's HIGGS-shaped table: its generation, its lock, and what its footers say. */
final class ScanTable {
  static final int FEATURES = HiggsShapedData.FEATURES;
  static final long PARQUET_BLOCK_SIZE = 4L << 20;
  static final String META_FILE = "_bench_meta.properties";
  static final String LAYOUT_VERSION = "2";
  static final String ROW_COUNT_LIMIT = "parquet.block.row.count.limit";

  String path;
  long rows;
  int files;
  int rowGroups;
  long compressedBytes;

  /** The Parquet files' sizes: what one pass over the table reads from storage at least. */
  long fileBytes;

  long minRowGroupRows = Long.MAX_VALUE;
  long maxRowGroupRows;
  boolean generatedNow;
  double generationSeconds;
  String generatedAt;

  static List<String> columns() {
    List<String> cols = new ArrayList<>();
    cols.add("label");
    for (int i = 1; i <= FEATURES; i++) {
      cols.add("f" + i);
    }
    return cols;
  }

  static java.nio.file.Path tableDir(ScanArgs args) {
    return args.dataRoot.resolve(
        "higgs-like-rows"
            + args.rows
            + "-seed"
            + args.seed
            + (args.rowGroupRows > 0 ? "-rowgroup" + args.rowGroupRows : ""));
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
        && String.valueOf(args.rowGroupRows).equals(p.getProperty(ROW_COUNT_LIMIT, "0"))
        && LAYOUT_VERSION.equals(p.getProperty("layout"));
  }

  /** {@code ", parquet.block.row.count.limit=N"} if --row-group-rows sets it, else empty. */
  static String rowCountLimit(ScanArgs args) {
    return args.rowGroupRows > 0 ? ", " + ROW_COUNT_LIMIT + "=" + args.rowGroupRows : "";
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
    System.err.printf(
        Locale.ROOT,
        "[bench-scan] generating %,d rows into %s (%d files, parquet.block.size=%d%s)%n",
        rows,
        dir,
        files,
        PARQUET_BLOCK_SIZE,
        rowCountLimit(args));
    long t0 = System.nanoTime();
    List<Column> out = new ArrayList<>();
    out.add(col("label"));
    for (String feature : HiggsShapedData.featureNames()) {
      out.add(col(feature));
    }
    String previous = spark.conf().get("spark.sql.shuffle.partitions");
    spark.conf().set("spark.sql.shuffle.partitions", String.valueOf(files));
    try {
      DataFrameWriter<Row> writer =
          HiggsShapedData.generate(spark, rows, args.seed, genPartitions)
              // the id breaks ties so the range partitioner cuts even files; part-00000 holds the
              // first 0s
              .orderBy(col("label"), col("id"))
              .select(out.toArray(new Column[0]))
              .write()
              .mode("overwrite")
              .option("parquet.block.size", PARQUET_BLOCK_SIZE);
      if (args.rowGroupRows > 0) {
        writer = writer.option(ROW_COUNT_LIMIT, args.rowGroupRows);
      }
      writer.parquet(dir.toString());
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
  static FileLock prepare(SparkSession spark, ScanArgs args, ScanTable info) throws IOException {
    java.nio.file.Path dir = tableDir(args).toAbsolutePath();
    info.path = dir.toString();
    Files.createDirectories(dir.getParent());
    FileChannel channel =
        FileChannel.open(
            dir.resolveSibling("." + dir.getFileName() + ".lock"),
            StandardOpenOption.CREATE,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE);
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
    ScanTable check = new ScanTable();
    footers(spark, dir, check);
    if (check.rows != args.rows) {
      throw new IllegalStateException(
          "table " + dir + " holds " + check.rows + " rows, expected " + args.rows);
    }
    info.rows = check.rows;
    info.files = check.files;
    info.rowGroups = check.rowGroups;
    info.compressedBytes = check.compressedBytes;
    info.fileBytes = check.fileBytes;
    info.minRowGroupRows = check.minRowGroupRows;
    info.maxRowGroupRows = check.maxRowGroupRows;
    return lock;
  }

  /** Writes the table into a private directory, checks it, then moves it to {@code dir}. */
  private static void generateInPlace(
      SparkSession spark, ScanArgs args, java.nio.file.Path dir, ScanTable info)
      throws IOException {
    java.nio.file.Path tmp =
        dir.resolveSibling(dir.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    deleteRecursively(tmp);
    info.generationSeconds = generate(spark, args, tmp);
    info.generatedNow = true;
    info.generatedAt =
        ZonedDateTime.now().withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    ScanTable written = new ScanTable();
    footers(spark, tmp, written);
    if (written.rows != args.rows) {
      throw new IllegalStateException(
          "generated table " + tmp + " holds " + written.rows + " rows, expected " + args.rows);
    }
    Properties p = new Properties();
    p.setProperty("layout", LAYOUT_VERSION);
    p.setProperty("rows", String.valueOf(args.rows));
    p.setProperty("seed", String.valueOf(args.seed));
    p.setProperty("features", String.valueOf(FEATURES));
    p.setProperty("label", "double in {0,1}, sorted ascending (all 0s first)");
    p.setProperty("parquet.block.size", String.valueOf(PARQUET_BLOCK_SIZE));
    if (args.rowGroupRows > 0) {
      p.setProperty(ROW_COUNT_LIMIT, String.valueOf(args.rowGroupRows));
    }
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
      for (java.nio.file.Path q :
          walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(q);
      }
    }
  }

  /** Files, row groups and rows, from the Parquet footers. */
  static void footers(SparkSession spark, java.nio.file.Path dir, ScanTable info)
      throws IOException {
    Configuration conf = spark.sessionState().newHadoopConf();
    Path root = new Path(dir.toUri());
    FileSystem fs = root.getFileSystem(conf);
    FileStatus[] statuses =
        fs.listStatus(root, p -> !p.getName().startsWith("_") && !p.getName().startsWith("."));
    Arrays.sort(statuses);
    for (FileStatus s : statuses) {
      if (!s.isFile()) {
        continue;
      }
      info.files++;
      info.fileBytes += s.getLen();
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
}
