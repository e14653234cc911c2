package io.corgipile.shuffle;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The capacity of a partition's tuple buffer: {@code auto}, a row count ({@code 100000}), a size of
 * decoded rows ({@code 64m}, {@code 1g}) or a share of the partition's rows in the epoch ({@code
 * 10%}).
 */
public final class BufferSize implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What the number counts. */
  enum Unit {
    AUTO,
    ROWS,
    BYTES,
    PERCENT
  }

  /** {@code auto}: at least this share of the partition's rows, in percent... */
  private static final BigDecimal AUTO_PERCENT = BigDecimal.TEN;

  /**
   * ...and at least the rows of this many of its row groups, so the tuple shuffle has row groups to
   * mix.
   */
  private static final int AUTO_BLOCKS = 4;

  public static final String FORMAT =
      "auto (the larger of "
          + AUTO_PERCENT
          + "% of the partition's rows and "
          + AUTO_BLOCKS
          + " of its row groups, at most the partition and a share of an executor's memory), a row"
          + " count (100000), a size of decoded rows (64m, 1g) or a share of the partition's rows"
          + " (10%)";

  /**
   * One partition's buffer, resolved.
   *
   * @param plannedRows the most rows a planned fill holds (estimated from the footers for sizes in
   *     bytes)
   * @param maxRows the most rows a buffer takes at runtime
   * @param maxBytes the most bytes a buffer allocates at runtime, {@link Long#MAX_VALUE} for none
   */
  public record Capacity(long plannedRows, long maxRows, long maxBytes) {
    /**
     * The most one buffer of this capacity allocates, chunks and index: its byte budget if it has
     * one, else the bound of its rows of {@code tupleBytes} bytes.
     */
    public long boundBytes(double tupleBytes) {
      return maxBytes != Long.MAX_VALUE
          ? maxBytes
          : TupleShuffleBuffer.rowsBound(maxRows, tupleBytes);
    }
  }

  private static final Pattern ROWS = Pattern.compile("\\d+");
  private static final Pattern BYTES =
      Pattern.compile("(\\d+)\\s*([kmgt]i?b?|b)", Pattern.CASE_INSENSITIVE);
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);
  private static final Pattern PERCENT = Pattern.compile("(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*%");

  private final Unit unit;
  private final long count;
  private final BigDecimal percent;
  private final String text;

  private BufferSize(Unit unit, long count, BigDecimal percent, String text) {
    this.unit = unit;
    this.count = count;
    this.percent = percent;
    this.text = text;
  }

  /**
   * Parses a buffer size.
   *
   * @throws IllegalArgumentException naming the accepted formats when {@code value} is none of them
   */
  public static BufferSize parse(String value) {
    String v = value.trim();
    try {
      Matcher m;
      if (v.equalsIgnoreCase("auto")) {
        return new BufferSize(Unit.AUTO, 0, AUTO_PERCENT, "auto");
      } else if (ROWS.matcher(v).matches()) {
        long rows = Long.parseLong(v);
        if (rows >= 1) {
          return new BufferSize(Unit.ROWS, rows, BigDecimal.ZERO, v);
        }
      } else if ((m = BYTES.matcher(v)).matches()) {
        long bytes = Math.multiplyExact(Long.parseLong(m.group(1)), multiplier(m.group(2)));
        if (bytes >= 1) {
          return new BufferSize(Unit.BYTES, bytes, BigDecimal.ZERO, v.toLowerCase(Locale.ROOT));
        }
      } else if ((m = PERCENT.matcher(v)).matches()) {
        BigDecimal p = new BigDecimal(m.group(1));
        if (p.signum() > 0 && p.compareTo(HUNDRED) <= 0) {
          return new BufferSize(Unit.PERCENT, 0, p, v);
        }
      }
    } catch (ArithmeticException | NumberFormatException e) {
      // too large for a long: reported below like any other value out of range
    }
    throw new IllegalArgumentException(
        "expected " + FORMAT + ", greater than 0 (and at most 100%)");
  }

  private static long multiplier(String suffix) {
    switch (Character.toLowerCase(suffix.charAt(0))) {
      case 'k':
        return 1L << 10;
      case 'm':
        return 1L << 20;
      case 'g':
        return 1L << 30;
      case 't':
        return 1L << 40;
      default:
        return 1L;
    }
  }

  Unit unit() {
    return unit;
  }

  /** {@code auto}: the one size that memory caps rather than the user. */
  public boolean isAuto() {
    return unit == Unit.AUTO;
  }

  /**
   * The capacity of one partition's buffer.
   *
   * @param partitionRows the partition's rows in the epoch
   * @param partitionRowGroups its row groups, a part of one counting as its share of the rows
   * @param tupleBytes the estimated bytes of one row in the buffer, from the footers
   * @param memoryBytes the memory one buffer may take, for {@code auto}
   */
  public Capacity capacity(
      long partitionRows, double partitionRowGroups, double tupleBytes, long memoryBytes) {
    double rowBytes = tupleBytes + TupleShuffleBuffer.INDEX_BYTES_PER_ROW;
    switch (unit) {
      case AUTO:
        // 10% alone can be less than two row groups of a small partition (many partitions, large
        // row
        // groups): the tuple shuffle then has nothing to mix. Memory caps it, as a byte budget too.
        long blockRows =
            partitionRowGroups <= 0
                ? 0
                : (long) Math.ceil(AUTO_BLOCKS * partitionRows / partitionRowGroups);
        long rows = Math.min(Math.max(maxRows(partitionRows), blockRows), partitionRows);
        rows = Math.max(1, Math.min(rows, (long) (memoryBytes / rowBytes)));
        return new Capacity(rows, rows, memoryBytes);
      case BYTES:
        return new Capacity(Math.max(1, (long) (count / rowBytes)), Long.MAX_VALUE, count);
      default:
        long max = maxRows(partitionRows);
        return new Capacity(max, max, Long.MAX_VALUE);
    }
  }

  /**
   * The most rows a buffer may hold for a partition of {@code partitionRows} rows, by the row limit
   * alone.
   */
  long maxRows(long partitionRows) {
    switch (unit) {
      case ROWS:
        return count;
      case PERCENT:
      case AUTO:
        // Exact decimal arithmetic: 7% of 100 rows is 7, not ceil(7.000000000000001).
        return Math.max(
            1L,
            BigDecimal.valueOf(partitionRows)
                .multiply(percent)
                .divide(HUNDRED, 0, RoundingMode.CEILING)
                .longValueExact());
      default:
        return Long.MAX_VALUE;
    }
  }

  /** The most bytes a buffer may hold by the byte limit alone, or {@link Long#MAX_VALUE}. */
  long maxBytes() {
    return unit == Unit.BYTES ? count : Long.MAX_VALUE;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BufferSize)) {
      return false;
    }
    BufferSize b = (BufferSize) o;
    return unit == b.unit && count == b.count && percent.compareTo(b.percent) == 0;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(unit, count, percent.stripTrailingZeros());
  }

  @Override
  public String toString() {
    return text;
  }
}
