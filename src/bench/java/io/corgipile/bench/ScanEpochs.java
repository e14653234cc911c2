package io.corgipile.bench;

import static org.apache.spark.sql.functions.rand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * The epoch mode of the scan bench ({@code --epochs N}): every variant reads the table N times in a
 * row, a new order each epoch (the local property corgipile.epoch), and each epoch is measured:
 * seconds, bytes read from storage, heap and buffer peaks. A full shuffle every epoch sorts the
 * table again in each epoch; a shuffled copy is written once (measured as its own line, phase
 * {@code copy}) and then read in its order. Under {@code --memory-limit} every variant starts with
 * none of the table (or the copy) in the page cache: their pages are evicted first, wherever they
 * are charged.
 */
final class ScanEpochs {
  private ScanEpochs() {}

  static int run(
      ScanMeasurement.Context ctx,
      ScanArgs args,
      List<ScanVariant> variants,
      String command,
      String date,
      ScanTable table)
      throws IOException {
    SparkSession spark = ctx.spark();
    Path tablePath = Path.of(table.path);
    Path copy =
        args.dataRoot
            .toAbsolutePath()
            .resolve(tablePath.getFileName() + "-shuffled-copy-" + ProcessHandle.current().pid());
    String loadBefore = ScanReport.loadAverage();
    // loads and compiles Spark's and the source's code once, on the plain path, before anything is
    // measured
    ScanMeasurement.measure(
        ctx,
        new ScanVariant("none", true, java.util.Map.of("shuffle", "none")),
        table.path,
        "warmup",
        0,
        0,
        0);
    List<ScanMeasurement> all = new ArrayList<>();
    List<Long> residentBefore = new ArrayList<>();
    int pos = 0;
    for (ScanVariant v : variants) {
      if (ctx.cgroup() != null) {
        PageCache.evict(List.of(tablePath));
      }
      residentBefore.add(PageCache.residentBytes(List.of(tablePath)));
      String path = table.path;
      if (v.kind == ScanVariant.Kind.SHUFFLED_COPY) {
        all.add(writeCopy(ctx, v, table.path, copy, pos));
        if (ctx.cgroup() != null) {
          PageCache.evict(List.of(copy));
        }
        path = copy.toString();
      }
      for (int e = 0; e < args.epochs; e++) {
        all.add(ScanMeasurement.measure(ctx, v, path, "epoch", e + 1, pos, e));
      }
      if (v.kind == ScanVariant.Kind.SHUFFLED_COPY) {
        ScanTable.deleteRecursively(copy);
      }
      pos++;
      if (pos
          < variants
              .size()) { // a run killed later (out of memory in its cgroup, say) keeps what it
        // measured
        ScanEpochReport.write(
            spark,
            args,
            variants,
            command,
            date,
            table,
            all,
            residentBefore,
            loadBefore,
            ScanReport.loadAverage() + " (after " + v.name + "; the run went on)",
            ctx.cgroup());
      }
    }
    String loadAfter = ScanReport.loadAverage();
    return ScanEpochReport.write(
        spark,
        args,
        variants,
        command,
        date,
        table,
        all,
        residentBefore,
        loadBefore,
        loadAfter,
        ctx.cgroup());
  }

  /** Writes the shuffled copy: the plain scan in {@code orderBy(rand(seed))} order, as Parquet. */
  private static ScanMeasurement writeCopy(
      ScanMeasurement.Context ctx, ScanVariant v, String table, Path copy, int position)
      throws IOException {
    ScanTable.deleteRecursively(copy);
    SparkSession spark = ctx.spark();
    spark.sparkContext().setJobDescription("bench-scan copy " + v.name);
    ScanMeasurement.Probe probe = ScanMeasurement.Probe.start(ctx);
    long t0 = System.nanoTime();
    new ScanVariant("parquet", false, java.util.Map.of())
        .load(spark, table, ctx.columns())
        .orderBy(rand(ctx.seed()))
        .write()
        .parquet(copy.toString());
    double seconds = (System.nanoTime() - t0) / 1e9;
    spark.sparkContext().setJobDescription(null);
    long files;
    try (var s = Files.list(copy)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".parquet")).count();
    }
    ScanMeasurement m = probe.finish(v.name, "copy", 0, position, seconds, (int) files, null);
    System.err.printf(
        Locale.ROOT,
        "[bench-scan] copy        %-22s %8.3f s  files=%d  read=%.1f MB  written=%.1f MB%n",
        v.name,
        seconds,
        files,
        m.io().readBytes() / 1e6,
        m.io().writeBytes() / 1e6);
    return m;
  }
}
