package io.corgipile.bench;

import io.corgipile.source.CorgiPileMetrics;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The scan metric {@code peakBufferBytes} (the most memory one task's shuffle buffers allocated) of
 * every corgipile scan a run executes, training jobs included: the largest value any task reported,
 * taken from the accumulator updates of finished tasks, where Spark puts a scan's custom metrics
 * under their description. 0 when no task held a buffer.
 */
final class BufferPeak extends SparkListener {
  static final String METRIC_NAME = new CorgiPileMetrics.PeakBufferBytes().description();

  private final SparkSession spark;
  private final AtomicLong peak = new AtomicLong();

  private BufferPeak(SparkSession spark) {
    this.spark = spark;
  }

  static BufferPeak register(SparkSession spark) {
    BufferPeak p = new BufferPeak(spark);
    spark.sparkContext().addSparkListener(p);
    return p;
  }

  /** Forgets what earlier runs reported (after the events of their finished tasks arrived). */
  void reset() {
    drain();
    peak.set(0);
  }

  /**
   * The largest value a task reported since {@link #reset()}, once the finished tasks' events
   * arrived.
   */
  long peak() {
    drain();
    return peak.get();
  }

  private void drain() {
    try {
      spark.sparkContext().listenerBus().waitUntilEmpty();
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "Cannot read peakBufferBytes: Spark's listener bus did not drain", e);
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    if (end.taskInfo() == null) {
      return;
    }
    for (AccumulableInfo a : CollectionConverters.asJava(end.taskInfo().accumulables())) {
      if (a.name().isDefined() && METRIC_NAME.equals(a.name().get()) && a.update().isDefined()) {
        Object v = a.update().get();
        if (v instanceof Number n) {
          peak.accumulateAndGet(n.longValue(), Math::max);
        }
      }
    }
  }
}
