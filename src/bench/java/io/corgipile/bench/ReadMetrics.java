package io.corgipile.bench;

import io.corgipile.source.ReadScope;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/**
 * Bytes each training epoch read: the growth of this JVM's (and its running children's) counters in
 * {@code /proc/PID/io} from the start of the epoch's first job to the end of its last (an epoch of
 * several rounds runs a job per round, and a round's buffers may be read ahead between jobs):
 * {@code rchar} (bytes read by system calls, from disk or page cache) and {@code read_bytes} (bytes
 * the kernel fetched from storage for it: what a table larger than memory costs). The job is
 * recognized by the local property {@link ReadScope#EPOCH} (the epoch from 0) that SGDClassifier
 * sets for each epoch's jobs and Spark copies into the job's properties; epochs are numbered from 1
 * here. {@link ShuffleQuality} sets the property too, for its own job after training: read an
 * epoch's bytes before measuring its shuffle quality, as the benchmark does. In local mode the
 * executors are this JVM, so it counts Parquet row groups, files and shuffle files alike; Spark's
 * own input metrics miss most of what its vectorized Parquet reader reads. Listener events arrive a
 * little late, so an epoch's count can shift by a few reads at its edges; shuffle blocks Spark
 * memory-maps (over 2 MB) are read without system calls and not counted in rchar (in read_bytes
 * they are, when they come from storage).
 */
final class ReadMetrics extends SparkListener {
  private final SparkSession spark;
  private final Map<Integer, Integer> epochOfJob = new ConcurrentHashMap<>();
  private final Map<Integer, ProcIo> startOfEpoch = new ConcurrentHashMap<>();
  private final Map<Integer, ProcIo> bytesOfEpoch = new ConcurrentHashMap<>();
  private volatile ProcIo startOfAll = ProcIo.ZERO;

  private ReadMetrics(SparkSession spark) {
    this.spark = spark;
  }

  static ReadMetrics register(SparkSession spark) {
    ReadMetrics metrics = new ReadMetrics(spark);
    spark.sparkContext().addSparkListener(metrics);
    return metrics;
  }

  void reset() {
    drain();
    epochOfJob.clear();
    startOfEpoch.clear();
    bytesOfEpoch.clear();
    startOfAll = ProcIo.ofTree();
  }

  /** rchar's growth in the epoch's job. */
  long bytesOfEpoch(int epoch) {
    return ioOfEpoch(epoch).rchar();
  }

  /** The counters' growth in the epoch's job. */
  ProcIo ioOfEpoch(int epoch) {
    drain();
    return bytesOfEpoch.getOrDefault(epoch, ProcIo.ZERO);
  }

  /** Since {@link #reset()}. */
  ProcIo ioOfAll() {
    return ProcIo.ofTree().minus(startOfAll);
  }

  /** Listener events arrive asynchronously: wait for those of the jobs already finished. */
  private void drain() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(
          "Cannot read the epoch's metrics: Spark's listener bus did not drain", e);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    String property =
        job.properties() == null ? null : job.properties().getProperty(ReadScope.EPOCH);
    if (property != null) {
      int epoch = Integer.parseInt(property) + 1;
      epochOfJob.put(job.jobId(), epoch);
      startOfEpoch.putIfAbsent(epoch, ProcIo.ofTree());
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd job) {
    Integer epoch = epochOfJob.get(job.jobId());
    if (epoch != null) {
      bytesOfEpoch.put(epoch, ProcIo.ofTree().minus(startOfEpoch.get(epoch)));
    }
  }
}
