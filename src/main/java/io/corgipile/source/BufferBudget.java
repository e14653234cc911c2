package io.corgipile.source;

import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.ShuffleMode;
import java.util.Locale;
import java.util.Optional;

/**
 * Holds a scan's tuple buffers to what a task can hold ({@link TaskMemory}), judged on the driver
 * before any task runs, for a partition of average size: {@code bufferSize=auto} is capped (through
 * {@link FillLayout}'s buffer memory) and this says so; an explicit size whose buffers need more
 * than a task's whole share fails, rather than taking an executor down.
 */
final class BufferBudget {
  private BufferBudget() {}

  /**
   * @return the warning to log when {@code auto}'s buffer was capped by memory, else empty
   * @throws IllegalArgumentException when an explicit {@code bufferSize} needs more than a task can
   *     hold
   */
  static Optional<String> check(
      ReadConf conf, FillLayout layout, TaskMemory memory, BlockPlan plan) {
    if (conf.shuffle() != ShuffleMode.CORGIPILE || plan.totalRows() == 0) {
      return Optional.empty();
    }
    long rows = ceilDiv(plan.totalRows(), layout.partitions());
    double rowGroups = plan.rowGroups() / layout.partitions();
    int buffers = conf.prefetch() ? 2 : 1;
    BufferSize.Capacity wanted = layout.uncappedCapacity(rows, rowGroups);
    // A buffer allocates no more than the partition's rows need, whatever its limit.
    long wantedBytes =
        Math.min(
            layout.boundBytes(wanted),
            layout.boundBytes(new BufferSize.Capacity(rows, rows, Long.MAX_VALUE)));
    long available = memory.taskBytes();
    String fix =
        "set bufferSize to at most "
            + size(available / buffers)
            + " (auto takes at most "
            + size(memory.autoBufferBytes(buffers))
            + "), use more partitions, or give "
            + (memory.heapSetting().equals(TaskMemory.DRIVER_MEMORY)
                ? "the driver more memory ("
                : "executors more memory (")
            + memory.heapSetting()
            + ")";
    if (!conf.bufferSize().isAuto()) {
      if (buffers * wantedBytes > available) {
        int others = plan.files().size() - 1;
        throw new IllegalArgumentException(
            "Cannot read "
                + plan.files().get(0).path()
                + (others == 0
                    ? ""
                    : " and " + others + (others == 1 ? " other file" : " other files"))
                + " with bufferSize="
                + conf.bufferSize()
                + ": its "
                + buffers(buffers)
                + " would need "
                + TaskMemory.mib(buffers * wantedBytes)
                + " per task (a partition of "
                + rows
                + " rows, rows of about "
                + Math.round(layout.tupleBytes())
                + " bytes), a task can hold "
                + memory.describe()
                + "; "
                + fix
                + (buffers == 2 ? ", or set prefetch=false" : ""));
      }
      return Optional.empty();
    }
    BufferSize.Capacity capped = layout.capacity(rows, rowGroups);
    if (capped.maxRows() >= wanted.maxRows()) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "corgipile: bufferSize=auto capped the tuple buffer from %,d to %,d rows per partition:"
                + " its %s would take %s per task (rows of about %d bytes), more than a quarter of"
                + " what a task can hold, %s; now at most %s per task. A smaller buffer mixes fewer"
                + " blocks. To change it: %s.",
            wanted.maxRows(),
            capped.maxRows(),
            buffers(buffers),
            TaskMemory.mib(buffers * wantedBytes),
            Math.round(layout.tupleBytes()),
            memory.describe(),
            TaskMemory.mib(buffers * capped.maxBytes()),
            fix));
  }

  private static String buffers(int buffers) {
    return buffers == 2 ? "2 buffers (prefetch)" : "buffer";
  }

  /** A byte size as the option takes it, rounded down. */
  private static String size(long bytes) {
    return bytes >= 1L << 20 ? (bytes >> 20) + "m" : Math.max(1, bytes >> 10) + "k";
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
