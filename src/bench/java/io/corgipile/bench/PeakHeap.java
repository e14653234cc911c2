package io.corgipile.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * The peak heap in use during a run: in local mode the executors live in this JVM. The sum of the
 * heap pools' peaks bounds the true peak from above (pools peak at different moments).
 */
final class PeakHeap {
  private final List<MemoryPoolMXBean> pools;

  private PeakHeap(List<MemoryPoolMXBean> pools) {
    this.pools = pools;
  }

  static PeakHeap start() {
    System.gc(); // so the previous run's garbage does not count
    List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(p -> p.getType() == MemoryType.HEAP).toList();
    heap.forEach(MemoryPoolMXBean::resetPeakUsage);
    return new PeakHeap(heap);
  }

  long peak() {
    return pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
  }
}
