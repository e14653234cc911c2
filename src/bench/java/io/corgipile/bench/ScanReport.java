package io.corgipile.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/** The scan benchmark's results: the markdown table it prints, and the files it writes. */
final class ScanReport {
  private ScanReport() {}

  /**
   * Checks that every run saw the same rows, prints the markdown table and writes results.md,
   * results.csv, samples.csv and their copies under runs/.
   *
   * @return the exit status: 1 when the checksums differ between runs
   */
  static int write(
      SparkSession spark,
      ScanArgs args,
      List<ScanVariant> variants,
      String command,
      String date,
      ScanTable table,
      List<ScanMeasurement> all,
      String loadBefore,
      String loadAfter)
      throws IOException {
    // Checksums: every run of every variant must see the same rows, each once.
    ScanChecksum reference = all.get(0).checksum();
    boolean allSame = true;
    double maxRelSumDiff = 0;
    for (ScanMeasurement m : all) {
      if (!m.checksum().sameRowsAndBits(reference) || m.checksum().rows != table.rows) {
        allSame = false;
      }
      double d =
          Math.abs(m.checksum().sum - reference.sum) / Math.max(1e-300, Math.abs(reference.sum));
      maxRelSumDiff = Math.max(maxRelSumDiff, d);
    }

    Map<String, double[]> timed = new LinkedHashMap<>();
    for (ScanVariant v : variants) {
      timed.put(
          v.name,
          all.stream()
              .filter(m -> m.variant().equals(v.name) && m.phase().equals("timed"))
              .mapToDouble(m -> m.seconds())
              .sorted()
              .toArray());
    }
    double plainMedian =
        median(timed.get(variants.stream().filter(v -> !v.corgipile).findFirst().get().name));

    StringBuilder md = new StringBuilder();
    md.append("# bench-scan: corgipile vs plain Parquet scan, consumed as rows\n\n");
    md.append("- command: `").append(command).append("`\n");
    md.append("- date: ").append(date).append('\n');
    if (System.getenv("BENCH_CODE") != null) {
      md.append("- code: ").append(System.getenv("BENCH_CODE")).append('\n');
    }
    md.append("- Spark ")
        .append(spark.version())
        .append(", master `")
        .append(args.master)
        .append("` (default parallelism ")
        .append(spark.sparkContext().defaultParallelism())
        .append("), Java ")
        .append(System.getProperty("java.version"))
        .append(", max heap ")
        .append(Runtime.getRuntime().maxMemory() >> 20)
        .append(" MiB, ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" CPUs\n");
    md.append("- machine load average (1/5/15 min) before the scans: ")
        .append(loadBefore)
        .append(", after: ")
        .append(loadAfter)
        .append(" (other processes on the machine disturb the times)\n");
    md.append("- JVM args: `")
        .append(
            ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(
                    a ->
                        !a.startsWith("--add-opens")
                            && !a.startsWith("--add-modules")
                            && !a.startsWith("-XX:+IgnoreUnrecognized")
                            && !a.startsWith("-Dio.netty")
                            && !a.startsWith("-Djdk.reflect"))
                .collect(Collectors.joining(" ")))
        .append("` (plus Spark's module flags)\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- table: `%s`: %,d rows x 29 double columns (label + %d features), sorted by label; %d"
                + " files, **%d row groups** (%,d-%,d rows each), %.1f MB compressed (snappy),"
                + " parquet.block.size=%d%s\n",
            table.path,
            table.rows,
            ScanTable.FEATURES,
            table.files,
            table.rowGroups,
            table.minRowGroupRows,
            table.maxRowGroupRows,
            table.compressedBytes / 1e6,
            ScanTable.PARQUET_BLOCK_SIZE,
            ScanTable.rowCountLimit(args)));
    md.append(
        table.generatedNow
            ? String.format(
                Locale.ROOT, "- data generation: %.1f s (this run)\n", table.generationSeconds)
            : String.format(
                Locale.ROOT,
                "- data generation: reused table generated %s in %.1f s\n",
                table.generatedAt,
                table.generationSeconds));
    md.append(
        String.format(
            Locale.ROOT,
            "- method: one warm-up pass of every variant, then %d repetitions, each running every"
                + " variant in a rotated order; a run = plan + `queryExecution().toRdd()` +"
                + " mapPartitions reading all 29 doubles of every InternalRow; times are wall-clock"
                + " seconds of the whole run; ratio = throughput / plain Parquet's, both from"
                + " medians of this run%s\n",
            args.reps,
            args.cold
                ? "; **cold**: the page cache was dropped before every run, so every run read the"
                    + " table from disk"
                : "; warm: the table is read from the page cache"));
    md.append('\n');
    md.append(
        "| variant | options | partitions | median s | min s | max s | rows/s (median) | vs parquet"
            + " |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    StringBuilder csv =
        new StringBuilder(
            "variant,options,partitions,reps,median_s,min_s,max_s,rows_per_s,ratio_vs_parquet,"
                + "rows,row_groups,checksum_rows,checksum_bits,checksum_ok\n");
    for (ScanVariant v : variants) {
      double[] t = timed.get(v.name);
      double med = median(t);
      int parts =
          all.stream().filter(m -> m.variant().equals(v.name)).findFirst().get().partitions();
      boolean ok =
          all.stream()
              .filter(m -> m.variant().equals(v.name))
              .allMatch(
                  m -> m.checksum().sameRowsAndBits(reference) && m.checksum().rows == table.rows);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %.3f | %.3f | %.3f | %,.0f | %.2fx |%s\n",
              v.name,
              v.describe().replace("|", "\\|"),
              parts,
              med,
              t[0],
              t[t.length - 1],
              table.rows / med,
              plainMedian / med,
              ok ? "" : " **CHECKSUM MISMATCH**"));
      csv.append(
          String.format(
              Locale.ROOT,
              "%s,\"%s\",%d,%d,%.4f,%.4f,%.4f,%.0f,%.4f,%d,%d,%d,%s,%s\n",
              v.name,
              v.describe().replace("\"", "\"\""),
              parts,
              t.length,
              med,
              t[0],
              t[t.length - 1],
              table.rows / med,
              plainMedian / med,
              table.rows,
              table.rowGroups,
              reference.rows,
              Long.toHexString(reference.bits),
              ok));
    }
    md.append('\n');
    md.append(
        memory(variants, all, table.rows, spark.sparkContext().defaultParallelism(), args.buffers));
    md.append('\n');
    md.append(
        String.format(
            Locale.ROOT,
            "Checksum (rows / wrapping sum of the values' bits, order-independent): %s over %d"
                + " runs: %s. Double sum %.6f (max relative difference between runs %.1e, from"
                + " summation order).\n",
            reference.key(),
            all.size(),
            allSame ? "identical in every run" : "**DIFFERS between runs**",
            reference.sum,
            maxRelSumDiff));
    md.append('\n');
    md.append("Timed runs (seconds, in execution order):\n\n");
    md.append("| rep | order and seconds |\n|---:|---|\n");
    for (int rep = 0; rep <= args.reps; rep++) {
      final int r = rep;
      md.append("| ")
          .append(rep == 0 ? "warm-up" : String.valueOf(rep))
          .append(" | ")
          .append(
              all.stream()
                  .filter(m -> m.rep() == r)
                  .map(m -> String.format(Locale.ROOT, "%s %.3f", m.variant(), m.seconds()))
                  .collect(Collectors.joining(", ")))
          .append(" |\n");
    }

    StringBuilder samples =
        new StringBuilder(
            "variant,phase,rep,position,seconds,partitions,rows,bits,sum,read_bytes,rchar,"
                + "peak_used_heap,peak_heap_after_gc,heap_pool_peak_sum,peak_buffer_bytes\n");
    for (ScanMeasurement m : all) {
      samples.append(
          String.format(
              Locale.ROOT,
              "%s,%s,%d,%d,%.4f,%d,%d,%s,%.9e,%d,%d,%d,%d,%d,%d\n",
              m.variant(),
              m.phase(),
              m.rep(),
              m.position(),
              m.seconds(),
              m.partitions(),
              m.checksum().rows,
              Long.toHexString(m.checksum().bits),
              m.checksum().sum,
              m.io().readBytes(),
              m.io().rchar(),
              m.heap().peakUsed(),
              m.heap().peakAfterGc(),
              m.heap().poolPeakSum(),
              m.peakBufferBytes()));
    }

    System.out.println();
    System.out.print(md);
    Files.createDirectories(args.out);
    String stamp = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path runs = args.out.resolve("runs");
    Files.createDirectories(runs);
    writeFile(args.out.resolve("results.md"), md.toString());
    writeFile(args.out.resolve("results.csv"), csv.toString());
    writeFile(args.out.resolve("samples.csv"), samples.toString());
    String prefix = stamp + "-rows" + table.rows;
    writeFile(runs.resolve(prefix + ".md"), md.toString());
    writeFile(runs.resolve(prefix + ".csv"), csv.toString());
    writeFile(runs.resolve(prefix + "-samples.csv"), samples.toString());
    System.err.println(
        "[bench-scan] wrote "
            + args.out.resolve("results.md")
            + ", results.csv, samples.csv and "
            + runs.resolve(prefix + ".*"));
    if (!allSame) {
      System.err.println("[bench-scan] ERROR: checksums differ between runs; see the table");
      return 1;
    }
    return 0;
  }

  /**
   * Storage bytes and memory per variant over its timed runs, and with {@code --buffers} the docs'
   * bound checked: each buffer variant's peaks against shuffle=none's (Spark's own baseline, no
   * buffer) plus the bound of every task running at once.
   */
  static String memory(
      List<ScanVariant> variants,
      List<ScanMeasurement> all,
      long tableRows,
      int slots,
      List<String> buffers) {
    StringBuilder s = new StringBuilder();
    s.append(
        "Storage and memory over the timed runs (storage MB: `read_bytes` of /proc/PID/io, median;"
            + " heap: largest of the runs; peak used heap sampled every "
            + HeapPeak.SAMPLE_MILLIS
            + " ms and before every collection, after GC: right after a collection; pools' sum: the"
            + " sum of the heap pools' own peaks, the bench's measure before issue 13):\n\n");
    s.append(
        "| variant | storage MB read | peak used heap MiB | peak heap after GC MiB | pools' peaks"
            + " summed MiB | peakBufferBytes MiB |\n"
            + "|---|---:|---:|---:|---:|---:|\n");
    for (ScanVariant v : variants) {
      List<ScanMeasurement> t = timed(all, v.name);
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %s | %s | %s | %s |\n",
              v.name,
              median(t.stream().mapToDouble(m -> m.io().readBytes()).sorted().toArray()) / 1e6,
              BufferBound.mib(max(t, m -> m.heap().peakUsed())),
              BufferBound.mib(max(t, m -> m.heap().peakAfterGc())),
              BufferBound.mib(max(t, m -> m.heap().poolPeakSum())),
              BufferBound.mib(max(t, ScanMeasurement::peakBufferBytes))));
    }
    List<ScanMeasurement> baseline = timed(all, "none");
    if (buffers.isEmpty() || baseline.isEmpty()) {
      return s.toString();
    }
    List<BufferBound.Check> checks = new java.util.ArrayList<>();
    for (String b : buffers) {
      String name = ScanVariant.bufferVariant(b);
      List<ScanMeasurement> t = timed(all, name);
      if (t.isEmpty()) {
        continue;
      }
      int partitions = t.get(0).partitions();
      long partitionRows = (tableRows + partitions - 1) / partitions;
      long bound =
          BufferBound.perTask(
                  b, partitionRows, BufferBound.unsafeRowBytes(1 + ScanTable.FEATURES), true)
              .orElse(-1);
      checks.add(
          new BufferBound.Check(
              name,
              b,
              max(t, ScanMeasurement::peakBufferBytes),
              bound,
              Math.min(partitions, slots),
              max(t, m -> m.heap().peakUsed()),
              max(baseline, m -> m.heap().peakUsed()),
              max(t, m -> m.heap().peakAfterGc()),
              max(baseline, m -> m.heap().peakAfterGc())));
    }
    s.append(
        "\n"
            + "The memory bound of docs/design.md (Memory) against what was measured: per task,"
            + " peakBufferBytes against the bound (prefetch on: two buffers); for the JVM, the peak"
            + " used heap against shuffle=none's (Spark's own baseline, no buffer) plus the bound"
            + " of every task running at once:\n\n");
    s.append(BufferBound.table(checks));
    return s.toString();
  }

  private static List<ScanMeasurement> timed(List<ScanMeasurement> all, String variant) {
    return all.stream()
        .filter(m -> m.variant().equals(variant) && m.phase().equals("timed"))
        .toList();
  }

  private static long max(
      List<ScanMeasurement> runs, java.util.function.ToLongFunction<ScanMeasurement> f) {
    return runs.stream().mapToLong(f).max().orElse(-1);
  }

  static String loadAverage() {
    try {
      String[] f =
          new String(Files.readAllBytes(Paths.get("/proc/loadavg")), StandardCharsets.US_ASCII)
              .trim()
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

  static void writeFile(Path p, String s) throws IOException {
    Files.write(p, s.getBytes(StandardCharsets.UTF_8));
  }
}
