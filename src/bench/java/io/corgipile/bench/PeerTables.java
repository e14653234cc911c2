package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;

import io.corgipile.examples.HiggsShapedData;
import io.corgipile.options.Counts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;

/**
 * The tables of scripts/bench peers: HIGGS-shaped rows sorted by label, as scripts/bench's higgs
 * set (seed 1, row groups of min(18,000, rows / 100) rows, at least 100) but one row group per
 * file, so loaders that shuffle files (Ray Data, tf.data's interleave) shuffle the same blocks as
 * those that shuffle row groups, in pages of a quarter row group (the finest corgipile's blockSize
 * can cut a row group, as the model's sub4 variant); and a test table of other rows (seed 2). A
 * table written before pages were set (its _COMPLETE names no pageRows) is written again. Usage:
 * {@code PeerTables DATA ROWS}; prints the two folders as {@code train=...} and {@code test=...}.
 */
public final class PeerTables {
  private PeerTables() {}

  static final int TEST_ROWS_MAX = 200_000;

  public static void main(String[] argv) throws IOException {
    if (argv.length != 2) {
      throw new IllegalArgumentException("Usage: PeerTables DATA_FOLDER ROWS (1000000, 11m)");
    }
    long rows = Counts.parse(argv[1]);
    Path dir = Path.of(argv[0]).toAbsolutePath().resolve("peers-higgs-" + rows);
    Path train = dir.resolve("train-sorted-by-label");
    Path test = dir.resolve("test");
    Path complete = dir.resolve("_COMPLETE");
    if (!Files.exists(complete)
        || !Files.readString(complete).contains("pageRows=" + pageRows(rows) + "\n")) {
      SparkSession spark =
          SparkSession.builder()
              .master("local[2]")
              .appName("peer tables")
              .config("spark.ui.enabled", "false")
              .getOrCreate();
      try {
        write(spark, rows, dir);
      } finally {
        spark.stop();
      }
    }
    System.out.println("train=" + train);
    System.out.println("test=" + test);
  }

  static long rowGroupRows(long rows) {
    return Math.max(100, Math.min(18_000, rows / 100));
  }

  static long pageRows(long rows) {
    return Math.max(1, rowGroupRows(rows) / 4);
  }

  /** Writes both tables under a private folder, then moves it into place: never half a table. */
  private static void write(SparkSession spark, long rows, Path dir) throws IOException {
    Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    ScanTable.deleteRecursively(tmp);
    long groupRows = rowGroupRows(rows);
    System.err.printf(
        Locale.ROOT,
        "[peers] generating %,d label-sorted rows, %,d per file and row group, into %s%n",
        rows,
        groupRows,
        dir);
    List<Column> out = new ArrayList<>(List.of(col("label")));
    for (String f : HiggsShapedData.featureNames()) {
      out.add(col(f));
    }
    // coalesce(1) keeps the sort; maxRecordsPerFile then cuts it into files of one row group each,
    // numbered in storage order (part-00000-...-c000, c001, ...)
    HiggsShapedData.generate(spark, rows, 1, 2)
        .orderBy(col("label"), col("id"))
        .select(out.toArray(new Column[0]))
        .coalesce(1)
        .write()
        .option("maxRecordsPerFile", groupRows)
        .option("parquet.block.row.count.limit", groupRows)
        .option("parquet.page.row.count.limit", pageRows(rows))
        .parquet(tmp.resolve("train-sorted-by-label").toString());
    HiggsShapedData.generate(spark, Math.min(TEST_ROWS_MAX, Math.max(2_000, rows / 5)), 2, 2)
        .select(out.toArray(new Column[0]))
        .coalesce(1)
        .write()
        .parquet(tmp.resolve("test").toString());
    Files.writeString(
        tmp.resolve("_COMPLETE"),
        "rows=" + rows + "\nrowGroupRows=" + groupRows + "\npageRows=" + pageRows(rows) + "\n");
    ScanTable.deleteRecursively(dir);
    Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
  }
}
