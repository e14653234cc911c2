package io.corgipile.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap in use during a run, measured rather than summed: in local mode the executors live in
 * this JVM. Two sources together give the peak of used heap: every garbage collection reports the
 * heap in use just before it (used heap only drops at collections, so those are its local maxima),
 * and a thread samples the used heap every few milliseconds in between (for what is still allocated
 * when the run ends, and for regions a concurrent cycle frees without a notification).
 *
 * <p>Used heap includes garbage not yet collected, so its peak depends on when the collector runs,
 * and so on the heap's size. The heap right after a collection is closer to what is live (what a
 * buffer holds stays there); {@link Result#peakAfterGc} is its largest value. The sum of the heap
 * pools' own peaks (the bench's measure before issue 13) is kept for comparison: pools peak at
 * different moments, so it only bounds the peak from above.
 */
final class HeapPeak {
  /**
   * What a run's heap did.
   *
   * @param peakUsed the largest used heap seen, before a collection or by a sample
   * @param peakAfterGc the largest used heap right after a collection (-1 without collections)
   * @param poolPeakSum the sum of the heap pools' peaks (an upper bound)
   * @param collections garbage collections during the run
   * @param samples samples taken
   */
  record Result(
      long peakUsed, long peakAfterGc, long poolPeakSum, long collections, long samples) {}

  /** The arithmetic of the peaks, apart from the JVM's beans so that it can be tested. */
  static final class Tracker {
    private long peakUsed;
    private long peakAfterGc = -1;
    private long collections;
    private long samples;

    synchronized void sample(long used) {
      samples++;
      peakUsed = Math.max(peakUsed, used);
    }

    synchronized void collection(long usedBefore, long usedAfter) {
      collections++;
      peakUsed = Math.max(peakUsed, usedBefore);
      peakAfterGc = Math.max(peakAfterGc, usedAfter);
    }

    synchronized Result result(long poolPeakSum) {
      return new Result(peakUsed, peakAfterGc, poolPeakSum, collections, samples);
    }

    /** The heap pools' used bytes in one of a collection's before/after maps, summed. */
    static long heapUsed(Map<String, MemoryUsage> byPool, Set<String> heapPools) {
      return byPool.entrySet().stream()
          .filter(e -> heapPools.contains(e.getKey()))
          .mapToLong(e -> e.getValue().getUsed())
          .sum();
    }
  }

  static final long SAMPLE_MILLIS = 5;

  private final Tracker tracker = new Tracker();
  private final List<MemoryPoolMXBean> pools;
  private final Set<String> heapPools;
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final NotificationListener listener = this::onNotification;
  private final Thread sampler;
  private volatile boolean running = true;

  /**
   * JVM uptime at the start, in ms: notifications of earlier collections arrive late and are
   * ignored.
   */
  private long startUptime;

  private HeapPeak() {
    pools =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .toList();
    heapPools = pools.stream().map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    sampler =
        new Thread(
            () -> {
              while (running) {
                tracker.sample(memory.getHeapMemoryUsage().getUsed());
                try {
                  Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "bench-heap-sampler");
    sampler.setDaemon(true);
  }

  /** Collects the previous run's garbage, then starts measuring. */
  static HeapPeak start() {
    System.gc(); // so the previous run's garbage does not count
    HeapPeak h = new HeapPeak();
    h.startUptime = ManagementFactory.getRuntimeMXBean().getUptime();
    h.pools.forEach(MemoryPoolMXBean::resetPeakUsage);
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(h.listener, null, null);
        h.emitters.add(emitter);
      }
    }
    h.sampler.start();
    return h;
  }

  /** Stops measuring and returns what was seen since {@link #start()}. */
  Result stop() {
    tracker.sample(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    running = false;
    sampler.interrupt();
    try {
      sampler.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (NotificationEmitter emitter : emitters) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (javax.management.ListenerNotFoundException e) {
        // already gone
      }
    }
    return tracker.result(pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum());
  }

  private void onNotification(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    if (info.getGcInfo().getStartTime() < startUptime) {
      return; // start()'s own System.gc(), or the run before
    }
    tracker.collection(
        Tracker.heapUsed(info.getGcInfo().getMemoryUsageBeforeGc(), heapPools),
        Tracker.heapUsed(info.getGcInfo().getMemoryUsageAfterGc(), heapPools));
  }
}
