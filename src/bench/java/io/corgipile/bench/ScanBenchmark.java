package io.corgipile.bench;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Scan throughput of the {@code corgipile} source against Spark's own Parquet scan, both consumed
 * as rows: every {@link InternalRow} is iterated and every column read. Run it through {@code
 * scripts/bench-scan}; {@code scripts/bench-scan --help} explains the arguments.
 *
 * <p>It lives in src/bench, compiled with the tests, so the library jar does not carry it.
 */
public final class ScanBenchmark {
  private ScanBenchmark() {}

  public static void main(String[] argv) throws Exception {
    ScanArgs args;
    try {
      args = ScanArgs.parse(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("bench-scan: " + e.getMessage() + " (see scripts/bench-scan --help)");
      System.exit(2);
      return;
    }
    List<ScanVariant> variants = ScanVariant.chosen(args);
    String command =
        System.getenv().getOrDefault("BENCH_COMMAND", "ScanBenchmark " + String.join(" ", argv));
    SparkSession spark =
        SparkSession.builder()
            .master(args.master)
            .appName("corgipile-bench-scan")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.debug.maxToStringFields", "100")
            // shuffle and spill files on the table's disk, in the cgroup's page cache (not a tmpfs)
            .config("spark.local.dir", args.localDir.toAbsolutePath().toString())
            .getOrCreate();
    int exit = 0;
    try {
      exit = run(spark, args, variants, command);
    } finally {
      spark.stop();
    }
    System.exit(exit);
  }

  static int run(SparkSession spark, ScanArgs args, List<ScanVariant> variants, String command)
      throws IOException {
    String date = ZonedDateTime.now().withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    ScanTable table = new ScanTable();
    FileLock lock = ScanTable.prepare(spark, args, table);
    try {
      return measureAll(spark, args, variants, command, date, table);
    } finally {
      lock.channel().close(); // releases the lock
    }
  }

  static int measureAll(
      SparkSession spark,
      ScanArgs args,
      List<ScanVariant> variants,
      String command,
      String date,
      ScanTable table)
      throws IOException {

    System.err.printf(
        Locale.ROOT,
        "[bench-scan] table %s: %,d rows, %d files, %d row groups, %.1f MB%s%n",
        table.path,
        table.rows,
        table.files,
        table.rowGroups,
        table.compressedBytes / 1e6,
        table.generatedNow
            ? String.format(Locale.ROOT, ", generated in %.1f s", table.generationSeconds)
            : ", reused");
    if (args.generateOnly) {
      return 0;
    }
    MemoryCgroup cgroup = MemoryCgroup.current().orElse(null);
    if (args.memoryLimit != null && cgroup == null) {
      throw new IllegalStateException(
          "Cannot run bench-scan with --memory-limit "
              + args.memoryLimit
              + ": this JVM is in no memory cgroup; start it through scripts/bench-scan, which sets"
              + " one up (BENCH_CGROUP)");
    }
    ScanMeasurement.Context ctx =
        new ScanMeasurement.Context(
            spark, ScanTable.columns(), args.cold, BufferPeak.register(spark), cgroup, args.seed);
    if (cgroup != null) {
      System.err.println("[bench-scan] in " + cgroup.describe());
    }
    if (args.epochs > 0) {
      return ScanEpochs.run(ctx, args, variants, command, date, table);
    }

    String loadBefore = ScanReport.loadAverage();
    List<ScanMeasurement> all = new ArrayList<>();
    int pos = 0;
    for (ScanVariant v : variants) {
      all.add(ScanMeasurement.measure(ctx, v, table.path, "warmup", 0, pos++, 0));
    }
    int n = variants.size();
    for (int rep = 1; rep <= args.reps; rep++) {
      for (int k = 0; k < n; k++) {
        ScanVariant v = variants.get((k + rep - 1) % n);
        all.add(ScanMeasurement.measure(ctx, v, table.path, "timed", rep, k, 0));
      }
    }

    String loadAfter = ScanReport.loadAverage();
    return ScanReport.write(
        spark, args, variants, command, date, table, all, loadBefore, loadAfter);
  }
}
