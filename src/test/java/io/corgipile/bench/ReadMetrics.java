package io.corgipile.bench;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Bytes each training epoch read: from storage (the corgipile scan's "row group bytes read" metric,
 * else Spark's input bytes) plus shuffle reads (the full shuffle's sort). Epochs are recognized by
 * the job description SGDClassifier sets, "SGDClassifier epoch k/N".
 */
final class ReadMetrics extends SparkListener {
  private static final Pattern EPOCH = Pattern.compile("epoch (\\d+)/\\d+");
  private static final String CORGIPILE_BYTES = "row group bytes read";

  private final SparkSession spark;
  private final Map<Integer, Integer> epochOfStage = new ConcurrentHashMap<>();
  private final Map<Integer, AtomicLong> bytesOfEpoch = new ConcurrentHashMap<>();
  private final AtomicLong bytes = new AtomicLong();

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
    epochOfStage.clear();
    bytesOfEpoch.clear();
    bytes.set(0);
  }

  long bytesOfEpoch(int epoch) {
    drain();
    AtomicLong b = bytesOfEpoch.get(epoch);
    return b == null ? 0 : b.get();
  }

  long bytesOfAll() {
    drain();
    return bytes.get();
  }

  /** Listener events arrive asynchronously: wait for those of the jobs already finished. */
  private void drain() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("Cannot read the epoch's metrics: Spark's listener bus did not drain", e);
    }
  }

  @Override
  public void onJobStart(SparkListenerJobStart job) {
    String description = job.properties() == null ? null : job.properties().getProperty("spark.job.description");
    if (description == null) {
      return;
    }
    Matcher m = EPOCH.matcher(description);
    if (m.find()) {
      int epoch = Integer.parseInt(m.group(1));
      for (Object stage : CollectionConverters.asJava(job.stageIds())) {
        epochOfStage.put((Integer) stage, epoch);
      }
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd task) {
    if (task.taskMetrics() == null) {
      return;
    }
    long read = storageBytes(task) + task.taskMetrics().shuffleReadMetrics().totalBytesRead();
    bytes.addAndGet(read);
    Integer epoch = epochOfStage.get(task.stageId());
    if (epoch != null) {
      bytesOfEpoch.computeIfAbsent(epoch, e -> new AtomicLong()).addAndGet(read);
    }
  }

  private static long storageBytes(SparkListenerTaskEnd task) {
    for (AccumulableInfo info : CollectionConverters.asJava(task.taskInfo().accumulables())) {
      if (info.name().isDefined() && info.name().get().equals(CORGIPILE_BYTES) && info.update().isDefined()) {
        return ((Number) info.update().get()).longValue();
      }
    }
    return task.taskMetrics().inputMetrics().bytesRead();
  }
}
