package io.corgipile.bench;

import io.corgipile.shuffle.BufferSize;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The README's bound on one reading task's buffer memory ("How it works", Memory), for the sizes the
 * scan bench measures: a size in bytes bounds everything the buffer allocates; a row count or share
 * bounds the rows, the chunks then exceeding the rows' bytes by at most one partly filled 16 KiB chunk
 * per bucket of about 256 KiB, the 26-byte-a-row index by at most its doubling; twice that with
 * prefetch. The constants are TupleShuffleBuffer's.
 */
final class BufferBound {
  static final int CHUNK_BYTES = 16 << 10;
  static final int BUCKET_BYTES = 256 << 10;
  static final int MAX_BUCKETS = 4096;
  static final int INDEX_BYTES_PER_ROW = 26;

  private BufferBound() {}

  /** An UnsafeRow of {@code columns} fixed-width columns: the null bits in words, then a word per column. */
  static int unsafeRowBytes(int columns) {
    return 8 * ((columns + 63) / 64) + 8 * columns;
  }

  /**
   * The bound for one task, or empty for {@code auto} (its share of memory depends on the heap).
   *
   * @param bufferSize the option's text (10%, 500000, 64m)
   * @param partitionRows the rows of the task's partition in the epoch
   */
  static OptionalLong perTask(String bufferSize, long partitionRows, int tupleBytes, boolean prefetch) {
    BufferSize.parse(bufferSize); // rejects what the source rejects
    String v = bufferSize.trim().toLowerCase(Locale.ROOT);
    int buffers = prefetch ? 2 : 1;
    long rows;
    if (v.endsWith("%")) {
      BigDecimal p = new BigDecimal(v.substring(0, v.length() - 1).trim());
      rows = Math.max(1, BigDecimal.valueOf(partitionRows).multiply(p).divide(BigDecimal.valueOf(100), 0,
          RoundingMode.CEILING).longValueExact());
    } else if (v.matches("\\d+")) {
      rows = Long.parseLong(v);
    } else if (v.equals("auto")) {
      return OptionalLong.empty();
    } else {
      return OptionalLong.of(buffers * bytes(v));
    }
    long rowBytes = rows * tupleBytes;
    long buckets = Math.max(1, Math.min(MAX_BUCKETS, rowBytes / BUCKET_BYTES));
    return OptionalLong.of(buffers * (rowBytes + buckets * CHUNK_BYTES + 2L * INDEX_BYTES_PER_ROW * rows));
  }

  private static long bytes(String v) {
    var m = java.util.regex.Pattern.compile("(\\d+)\\s*([kmgt]?)i?b?").matcher(v);
    if (!m.matches()) {
      throw new IllegalArgumentException("Cannot compute the buffer bound of bufferSize " + v);
    }
    long unit = switch (m.group(2)) {
      case "k" -> 1L << 10;
      case "m" -> 1L << 20;
      case "g" -> 1L << 30;
      case "t" -> 1L << 40;
      default -> 1L;
    };
    return Long.parseLong(m.group(1)) * unit;
  }

  /** One line of the memory check: a variant's measured peaks against the baseline plus the bound. */
  record Check(String variant, String bufferSize, long peakBufferBytes, long boundPerTask, int tasks,
      long peakUsed, long baselinePeakUsed, long peakAfterGc, long baselinePeakAfterGc) {

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
    s.append("| variant | bufferSize | peakBufferBytes MiB (max of a task) | README bound per task MiB | within | "
        + "tasks at once | peak used heap MiB | baseline + tasks x bound MiB | within | peak heap after GC MiB | "
        + "baseline + tasks x bound MiB | within |\n");
    s.append("|---|---|---:|---:|---|---:|---:|---:|---|---:|---:|---|\n");
    for (Check c : checks) {
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n",
          c.variant(), c.bufferSize(), mib(c.peakBufferBytes()), mib(c.boundPerTask()), yes(c.bufferWithin()),
          c.tasks(), mib(c.peakUsed()), mib(c.allowedUsed()), yes(c.usedWithin()), mib(c.peakAfterGc()),
          mib(c.allowedAfterGc()), yes(c.afterGcWithin())));
    }
    return s.toString();
  }

  private static String yes(boolean b) {
    return b ? "yes" : "**no**";
  }
}
