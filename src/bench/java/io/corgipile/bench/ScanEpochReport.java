package io.corgipile.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * The epoch mode's results: summary.md (header, per-variant table, goals, per-epoch table) and
 * epochs.csv.
 */
final class ScanEpochReport {
  /**
   * Where the table does not fit in memory, a full shuffle every epoch should take at least this
   * times corgipile's.
   */
  static final double FULL_SHUFFLE_GOAL = 3.0;

  /**
   * ...and corgipile should read at most this times one pass over the table from storage, per
   * epoch.
   */
  static final double STORAGE_GOAL = 1.05;

  private ScanEpochReport() {}

  static int write(
      SparkSession spark,
      ScanArgs args,
      List<ScanVariant> variants,
      String command,
      String date,
      ScanTable table,
      List<ScanMeasurement> all,
      List<Long> residentBefore,
      String loadBefore,
      String loadAfter,
      MemoryCgroup cgroup)
      throws IOException {
    boolean checksumsOk =
        all.stream()
            .filter(m -> m.checksum() != null)
            .allMatch(
                m -> m.checksum().rows == table.rows && m.checksum().bits == reference(all).bits);
    StringBuilder md = new StringBuilder();
    md.append("# bench-scan --epochs: seconds and storage bytes per epoch\n\n");
    md.append("- command: `").append(command).append("`\n");
    md.append("- date: ").append(date).append('\n');
    if (System.getenv("BENCH_CODE") != null) {
      md.append("- code: ").append(System.getenv("BENCH_CODE")).append('\n');
    }
    md.append("- Spark ")
        .append(spark.version())
        .append(", master `")
        .append(args.master)
        .append("`, Java ")
        .append(System.getProperty("java.version"))
        .append(", max heap ")
        .append(Runtime.getRuntime().maxMemory() >> 20)
        .append(" MiB, GC ")
        .append(
            ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining(" + ")))
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" CPUs, spark.local.dir `")
        .append(spark.sparkContext().getConf().get("spark.local.dir", "?"))
        .append("`\n");
    md.append("- memory: ")
        .append(
            cgroup == null
                ? "no limit (the table may be read from the page cache)"
                : cgroup.describe()
                    + "; the JVM ran in it from its start, so its heap, native memory and the page"
                    + " cache of the table, the copy and Spark's shuffle and spill files were"
                    + " charged to it; before each variant the table's pages were evicted from the"
                    + " page cache (dd iflag=nocache), wherever charged; a page another process"
                    + " reads into the page cache meanwhile is charged to that process and read"
                    + " here from memory, so the storage bytes hold only if nothing else read the"
                    + " table during the run")
        .append(args.readLimit == null ? "" : "; " + ReadLimit.describe(args.readLimit))
        .append('\n');
    md.append("- disks: ")
        .append(Disks.describeReadAhead(Disks.SYS_BLOCK))
        .append(
            " (a random block order reads again what the readahead brought in past a block, if the"
                + " page cache lost it meanwhile)\n");
    md.append("- machine load average (1/5/15 min) before: ")
        .append(loadBefore)
        .append(", after: ")
        .append(loadAfter)
        .append(" (other processes on the machine disturb the times)\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- table: `%s`: %,d rows x 29 doubles, sorted by label; %d files, %d row groups, **%.1f"
                + " MB of Parquet files** (one pass); row groups %.1f MB compressed%s\n",
            table.path,
            table.rows,
            table.files,
            table.rowGroups,
            table.fileBytes / 1e6,
            table.compressedBytes / 1e6,
            ScanTable.rowCountLimit(args)));
    md.append(
        String.format(
            Locale.ROOT,
            "- method: one untimed pass of shuffle=none first; then each variant reads the table %d"
                + " times in a row (epoch e sets the local property corgipile.epoch=e-1; a full"
                + " shuffle sorts by rand(seed + e-1)); an epoch = plan +"
                + " `queryExecution().toRdd()` + reading all 29 doubles of every row; storage bytes"
                + " = growth of `read_bytes` in /proc/PID/io of this JVM and its running children"
                + " (bytes the kernel fetched from storage for it, readahead included; page cache"
                + " hits are not counted); peak used heap sampled every %d ms and taken before"
                + " every collection\n",
            args.epochs,
            HeapPeak.SAMPLE_MILLIS));
    md.append('\n');
    md.append(body(variants, all, table.fileBytes, residentBefore, cgroup != null));
    md.append('\n');
    md.append(
        checksumsOk
            ? "Checksums (rows and bits of every value, order-free): identical in every epoch of "
                + "every variant.\n"
            : "**Checksums DIFFER between epochs or variants.**\n");

    Files.createDirectories(args.out);
    ScanReport.writeFile(args.out.resolve("summary.md"), md.toString());
    ScanReport.writeFile(args.out.resolve("epochs.csv"), csv(all));
    String stamp = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path runs = args.out.resolve("runs");
    Files.createDirectories(runs);
    ScanReport.writeFile(runs.resolve(stamp + "-summary.md"), md.toString());
    ScanReport.writeFile(runs.resolve(stamp + "-epochs.csv"), csv(all));
    System.out.println();
    System.out.print(md);
    System.err.println("[bench-scan] wrote " + args.out.resolve("summary.md") + " and epochs.csv");
    return checksumsOk ? 0 : 1;
  }

  private static ScanChecksum reference(List<ScanMeasurement> all) {
    return all.stream().filter(m -> m.checksum() != null).findFirst().get().checksum();
  }

  /** The tables and the goals, from the measurements alone. */
  static String body(
      List<ScanVariant> variants,
      List<ScanMeasurement> all,
      long onePassBytes,
      List<Long> resident,
      boolean limited) {
    long onePass = onePassBytes;
    StringBuilder s = new StringBuilder();
    OptionalDouble corgiSeconds = meanSeconds(all, "corgipile");
    s.append(
        "| variant | how | partitions | mean s/epoch | vs corgipile | storage MB read/epoch (mean)"
            + " | vs one pass | MB written/epoch | peak used heap MiB | peak heap after GC MiB |"
            + " peakBufferBytes MiB | cgroup peak MiB | table MB cached at start |\n");
    s.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < variants.size(); i++) {
      ScanVariant v = variants.get(i);
      List<ScanMeasurement> epochs = epochs(all, v.name);
      if (epochs.isEmpty()) {
        continue;
      }
      double secs = epochs.stream().mapToDouble(ScanMeasurement::seconds).average().getAsDouble();
      double read = epochs.stream().mapToLong(m -> m.io().readBytes()).average().getAsDouble();
      double written = epochs.stream().mapToLong(m -> m.io().writeBytes()).average().getAsDouble();
      long resid = resident == null || i >= resident.size() ? -1 : resident.get(i);
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %.2f | %s | %.1f | %.3fx | %.1f | %s | %s | %s | %s | %s |\n",
              v.name,
              v.describe().replace("|", "\\|"),
              epochs.get(0).partitions(),
              secs,
              corgiSeconds.isPresent()
                  ? String.format(Locale.ROOT, "%.2fx", secs / corgiSeconds.getAsDouble())
                  : "",
              read / 1e6,
              read / onePass,
              written / 1e6,
              BufferBound.mib(
                  epochs.stream().mapToLong(m -> m.heap().peakUsed()).max().getAsLong()),
              BufferBound.mib(
                  epochs.stream().mapToLong(m -> m.heap().peakAfterGc()).max().getAsLong()),
              BufferBound.mib(
                  epochs.stream().mapToLong(ScanMeasurement::peakBufferBytes).max().getAsLong()),
              BufferBound.mib(
                  epochs.stream().mapToLong(ScanMeasurement::cgroupPeak).max().getAsLong()),
              resid < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", resid / 1e6)));
    }
    for (ScanMeasurement c : all) {
      if (!c.phase().equals("copy")) {
        continue;
      }
      List<ScanMeasurement> epochs = epochs(all, c.variant());
      double total = c.seconds() + epochs.stream().mapToDouble(ScanMeasurement::seconds).sum();
      s.append(
          String.format(
              Locale.ROOT,
              "\n"
                  + "The shuffled copy: writing it took %.2f s (%d files), read %.1f MB from"
                  + " storage and wrote %.1f MB; with its %d epochs %.2f s, %.2f s an epoch%s.\n",
              c.seconds(),
              c.partitions(),
              c.io().readBytes() / 1e6,
              c.io().writeBytes() / 1e6,
              epochs.size(),
              total,
              total / epochs.size(),
              corgiSeconds.isPresent()
                  ? String.format(
                      Locale.ROOT,
                      " (%.2fx corgipile's)",
                      total / epochs.size() / corgiSeconds.getAsDouble())
                  : ""));
    }
    s.append('\n').append(goals(all, onePass, limited));
    s.append("\nEvery epoch (seconds, storage MB read, MB written, peak used heap MiB):\n\n");
    s.append(
        "| variant | phase | epoch | seconds | MB read | MB written | rchar MB | peak used heap MiB"
            + " |\n");
    s.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (ScanMeasurement m : all) {
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %.2f | %.1f | %.1f | %.1f | %s |\n",
              m.variant(),
              m.phase(),
              m.rep(),
              m.seconds(),
              m.io().readBytes() / 1e6,
              m.io().writeBytes() / 1e6,
              m.io().rchar() / 1e6,
              BufferBound.mib(m.heap().peakUsed())));
    }
    return s.toString();
  }

  /**
   * Issue 13's goals where the table does not fit in memory; said to hold only under
   * --memory-limit.
   */
  static String goals(List<ScanMeasurement> all, long onePass, boolean limited) {
    StringBuilder s = new StringBuilder("Goals (where the table does not fit in memory");
    s.append(
        limited ? "):\n\n" : "; this run had no memory limit, so they are not tested by it):\n\n");
    OptionalDouble corgi = meanSeconds(all, "corgipile");
    OptionalDouble full = meanSeconds(all, "full-shuffle");
    if (corgi.isPresent() && full.isPresent()) {
      double r = full.getAsDouble() / corgi.getAsDouble();
      s.append(
          String.format(
              Locale.ROOT,
              "- a full shuffle every epoch at least %.0fx a corgipile epoch: %.2fx "
                  + "(%.2f s against %.2f s): %s\n",
              FULL_SHUFFLE_GOAL,
              r,
              full.getAsDouble(),
              corgi.getAsDouble(),
              verdict(limited, r >= FULL_SHUFFLE_GOAL)));
    }
    List<ScanMeasurement> c = epochs(all, "corgipile");
    if (!c.isEmpty()) {
      double mean = c.stream().mapToLong(m -> m.io().readBytes()).average().getAsDouble() / onePass;
      double max =
          c.stream().mapToLong(m -> m.io().readBytes()).max().getAsLong() / (double) onePass;
      s.append(
          String.format(
              Locale.ROOT,
              "- corgipile's storage bytes per epoch at most %.2fx one pass over the "
                  + "table: %.3fx on average, %.3fx in its worst epoch: %s\n",
              STORAGE_GOAL,
              mean,
              max,
              verdict(limited, max <= STORAGE_GOAL)));
    }
    return s.toString();
  }

  private static String verdict(boolean limited, boolean met) {
    return !limited ? "(not tested)" : met ? "**met**" : "**not met**";
  }

  static List<ScanMeasurement> epochs(List<ScanMeasurement> all, String variant) {
    return all.stream()
        .filter(m -> m.variant().equals(variant) && m.phase().equals("epoch"))
        .toList();
  }

  static OptionalDouble meanSeconds(List<ScanMeasurement> all, String variant) {
    return epochs(all, variant).stream().mapToDouble(ScanMeasurement::seconds).average();
  }

  static String csv(List<ScanMeasurement> all) {
    StringBuilder s =
        new StringBuilder(
            "variant,phase,epoch,seconds,partitions,read_bytes,write_bytes,rchar,"
                + "peak_used_heap,peak_heap_after_gc,heap_pool_peak_sum,gcs,peak_buffer_bytes,"
                + "cgroup_peak,rows,bits\n");
    for (ScanMeasurement m : all) {
      s.append(
          String.format(
              Locale.ROOT,
              "%s,%s,%d,%.4f,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s\n",
              m.variant(),
              m.phase(),
              m.rep(),
              m.seconds(),
              m.partitions(),
              m.io().readBytes(),
              m.io().writeBytes(),
              m.io().rchar(),
              m.heap().peakUsed(),
              m.heap().peakAfterGc(),
              m.heap().poolPeakSum(),
              m.heap().collections(),
              m.peakBufferBytes(),
              m.cgroupPeak(),
              m.checksum() == null ? "" : Long.toString(m.checksum().rows),
              m.checksum() == null ? "" : Long.toHexString(m.checksum().bits)));
    }
    return s.toString();
  }
}
