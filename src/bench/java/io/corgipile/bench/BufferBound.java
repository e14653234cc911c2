package io.corgipile.bench;

import io.corgipile.shuffle.BufferSize;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The bound on one reading task's buffer memory in docs/design.md (Memory), for the sizes the scan
 * bench measures: {@link BufferSize.Capacity#boundBytes} per buffer, twice that with prefetch.
 */
final class BufferBound {
  private BufferBound() {}

  /**
   * An UnsafeRow of {@code columns} fixed-width columns: the null bits in words, then a word per
   * column.
   */
  static int unsafeRowBytes(int columns) {
    return 8 * ((columns + 63) / 64) + 8 * columns;
  }

  /**
   * The bound for one task, or empty for {@code auto} (its share of memory depends on the heap).
   *
   * @param bufferSize the option's text (10%, 500000, 64m)
   * @param partitionRows the rows of the task's partition in the epoch
   */
  static OptionalLong perTask(
      String bufferSize, long partitionRows, int tupleBytes, boolean prefetch) {
    BufferSize size = BufferSize.parse(bufferSize);
    if (size.isAuto()) {
      return OptionalLong.empty();
    }
    int buffers = prefetch ? 2 : 1;
    // no memory cap (only auto has one) and one block (only auto counts them)
    return OptionalLong.of(
        buffers
            * size.capacity(partitionRows, 1, tupleBytes, Long.MAX_VALUE).boundBytes(tupleBytes));
  }

  /**
   * One line of the memory check: a variant's measured peaks against the baseline plus the bound.
   */
  record Check(
      String variant,
      String bufferSize,
      long peakBufferBytes,
      long boundPerTask,
      int tasks,
      long peakUsed,
      long baselinePeakUsed,
      long peakAfterGc,
      long baselinePeakAfterGc) {

    long allowedUsed() {
      return baselinePeakUsed + (long) tasks * boundPerTask;
    }

    long allowedAfterGc() {
      return baselinePeakAfterGc + (long) tasks * boundPerTask;
    }

    boolean bufferWithin() {
      return peakBufferBytes <= boundPerTask;
    }

    boolean usedWithin() {
      return peakUsed <= allowedUsed();
    }

    boolean afterGcWithin() {
      return peakAfterGc <= allowedAfterGc();
    }
  }

  static String mib(long bytes) {
    return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", bytes / (double) (1L << 20));
  }

  /** The markdown table of the checks. */
  static String table(List<Check> checks) {
    StringBuilder s = new StringBuilder();
    s.append(
        "| variant | bufferSize | peakBufferBytes MiB (max of a task) | documented bound per task"
            + " MiB | within | tasks at once | peak used heap MiB | baseline + tasks x bound MiB |"
            + " within | peak heap after GC MiB | baseline + tasks x bound MiB | within |\n");
    s.append("|---|---|---:|---:|---|---:|---:|---:|---|---:|---:|---|\n");
    for (Check c : checks) {
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n",
              c.variant(),
              c.bufferSize(),
              mib(c.peakBufferBytes()),
              mib(c.boundPerTask()),
              yes(c.bufferWithin()),
              c.tasks(),
              mib(c.peakUsed()),
              mib(c.allowedUsed()),
              yes(c.usedWithin()),
              mib(c.peakAfterGc()),
              mib(c.allowedAfterGc()),
              yes(c.afterGcWithin())));
    }
    return s.toString();
  }

  private static String yes(boolean b) {
    return b ? "yes" : "**no**";
  }
}
