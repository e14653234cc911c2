package io.corgipile.bench;

import io.corgipile.source.ReadScope;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One timed scan of one variant (a repetition, or one epoch, or a shuffled copy's writing): what it
 * took, what it saw, what it read from storage and the memory it held.
 *
 * @param io this JVM's (and its children's) I/O counters during the run
 * @param heap the heap during the run
 * @param peakBufferBytes the scan metric: the most one task's buffers allocated (0 without buffers)
 * @param cgroupPeak the cgroup's peak memory use (page cache included) under --memory-limit, else
 *     -1
 */
record ScanMeasurement(
    String variant,
    String phase,
    int rep,
    int position,
    double seconds,
    int partitions,
    ScanChecksum checksum,
    ProcIo io,
    HeapPeak.Result heap,
    long peakBufferBytes,
    long cgroupPeak) {

  /** What a run needs besides the variant: the session and what measures it. */
  record Context(
      SparkSession spark,
      List<String> columns,
      boolean cold,
      BufferPeak buffers,
      MemoryCgroup cgroup,
      long seed) {}

  /**
   * Plans, runs and consumes one scan; the time covers all of it (file listing and footers
   * included).
   */
  static ScanMeasurement measure(
      Context ctx, ScanVariant v, String path, String phase, int rep, int position, int epoch) {
    if (ctx.cold()) {
      PageCache.drop();
    }
    SparkSession spark = ctx.spark();
    SparkContext sc = spark.sparkContext();
    sc.setJobDescription("bench-scan " + phase + " " + rep + " " + v.name);
    ReadScope.setEpoch(sc, epoch);
    int n = ctx.columns().size();
    Probe probe = Probe.start(ctx);
    long t0 = System.nanoTime();
    Dataset<Row> df = v.load(spark, path, ctx.columns(), ctx.seed(), epoch);
    RDD<InternalRow> rdd = df.queryExecution().toRdd();
    int partitions = rdd.getNumPartitions();
    ScanChecksum c =
        rdd.toJavaRDD()
            .mapPartitions(it -> ScanChecksum.consume(it, n))
            .reduce(ScanChecksum::merge);
    long t1 = System.nanoTime();
    sc.setJobDescription(null);
    ReadScope.setEpoch(sc, null);
    ScanMeasurement m = probe.finish(v.name, phase, rep, position, (t1 - t0) / 1e9, partitions, c);
    System.err.printf(
        Locale.ROOT,
        "[bench-scan] %-7s %-3d %-22s %8.3f s  rows=%d  partitions=%d  read=%.1f MB  "
            + "heap peak=%d MiB  buffers=%d MiB%n",
        phase,
        rep,
        v.name,
        m.seconds(),
        c.rows,
        partitions,
        m.io().readBytes() / 1e6,
        m.heap().peakUsed() >> 20,
        m.peakBufferBytes() >> 20);
    return m;
  }

  /** The counters around one run. */
  static final class Probe {
    private final Context ctx;
    private final HeapPeak heap;
    private final ProcIo before;

    private Probe(Context ctx) {
      this.ctx = ctx;
      ctx.buffers().reset();
      if (ctx.cgroup() != null) {
        ctx.cgroup().resetPeak();
      }
      this.heap = HeapPeak.start();
      this.before = ProcIo.ofTree();
    }

    static Probe start(Context ctx) {
      return new Probe(ctx);
    }

    ScanMeasurement finish(
        String variant,
        String phase,
        int rep,
        int position,
        double seconds,
        int partitions,
        ScanChecksum checksum) {
      ProcIo io = ProcIo.ofTree().minus(before);
      HeapPeak.Result h = heap.stop();
      return new ScanMeasurement(
          variant,
          phase,
          rep,
          position,
          seconds,
          partitions,
          checksum,
          io,
          h,
          ctx.buffers().peak(),
          ctx.cgroup() == null ? -1 : ctx.cgroup().peakUsage());
    }
  }
}
