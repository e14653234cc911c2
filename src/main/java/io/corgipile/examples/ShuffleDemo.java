package io.corgipile.examples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The README's demo: writes a label-sorted table, reads it through each shuffle mode of the
 * {@code corgipile} source, and shows how well the labels are mixed in the emitted order.
 *
 * <p>Usage: {@code ShuffleDemo [rows] [dataDir]}. With no arguments it runs on local Spark with
 * 1,000,000 generated rows under {@code target/demo-data}.
 */
public final class ShuffleDemo {
  private static final int WINDOW = 1000;

  private ShuffleDemo() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000L;
    Path dir = Path.of(args.length > 1 ? args[1] : "target/demo-data");
    SparkSession spark = SparkSession.builder()
        .appName("corgipile-demo")
        .master(System.getProperty("spark.master", "local[2]"))
        .config("spark.ui.enabled", "false")
        .getOrCreate();
    try {
      String table = dir.resolve("label-sorted-" + rows).toString();
      if (!Files.exists(Path.of(table, "_SUCCESS"))) {
        System.out.printf("Writing %,d rows sorted by label to %s ...%n", rows, table);
        // Sorted by label, as data often is (by date, source or class): a plain scan sees all
        // negatives first. Row groups of 1,000 rows, so a 10% buffer holds many of them.
        spark.range(0, rows, 1, 2)
            .selectExpr("id", "cast(id >= " + rows / 2 + " as double) as label", "randn(7) as x")
            .write().mode("overwrite")
            .option("parquet.block.row.count.limit", 1000)
            .parquet(table);
      }
      System.out.printf("%nShare of positives in consecutive windows of %,d rows, in the order each mode emits"
          + " (partition 0 of 2; an ideal shuffle gives 0.50 +- %.2f):%n%n", WINDOW, Math.sqrt(0.25 / WINDOW));
      System.out.printf("%-10s %10s   %s%n", "shuffle", "max |dev|", "first 40 windows (0 = all negative .. 9 = all positive)");
      for (String mode : new String[] {"none", "window", "block", "corgipile"}) {
        List<Row> partition0 = spark.read().format("corgipile")
            .option("shuffle", mode).option("partitions", "2").option("bufferSize", "10%")
            .load(table).select("label").javaRDD()
            .mapPartitionsWithIndex((index, it) -> index == 0 ? it : java.util.Collections.emptyIterator(), false)
            .collect();
        double[] shares = windowShares(partition0);
        double maxDev = 0;
        StringBuilder spark40 = new StringBuilder();
        for (int w = 0; w < shares.length; w++) {
          maxDev = Math.max(maxDev, Math.abs(shares[w] - 0.5));
          if (w < 40) {
            spark40.append((int) Math.min(9, Math.floor(shares[w] * 10)));
          }
        }
        System.out.printf(Locale.ROOT, "%-10s %10.2f   %s%n", mode, maxDev, spark40);
      }
      System.out.println("\nnone and window emit long runs of one label; block mixes row groups but not the rows"
          + "\nwithin them; corgipile keeps every window near the global share. Training on the first"
          + "\ntwo is SGD on sorted data; see the README.");
    } finally {
      spark.stop();
    }
  }

  private static double[] windowShares(List<Row> labels) {
    double[] shares = new double[labels.size() / WINDOW];
    for (int w = 0; w < shares.length; w++) {
      double positives = 0;
      for (int i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
        positives += labels.get(i).getDouble(0);
      }
      shares[w] = positives / WINDOW;
    }
    return shares;
  }
}
