package io.corgipile.shuffle;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How often partitions synchronize within an epoch: the epoch is read in rounds, each round one
 * Spark job in which every partition reads the next slice of its epoch stream. {@code epoch}: one
 * round; {@code buffer}: a round per shuffle buffer a partition consumes; a row count N: a round ends
 * at the first buffer boundary at or after every N rows of the partition.
 */
public final class SyncInterval implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The accepted values, for errors, param docs and the README. */
  public static final String FORMAT = "epoch (one round per epoch), buffer (one round per shuffle buffer of a "
      + "partition) or a number of rows per partition >= 1 (100000; a round ends at the first buffer boundary at or "
      + "after that many rows)";

  private static final long EPOCH_ROWS = 0;
  private static final long BUFFER_ROWS = -1;
  private static final Pattern ROWS = Pattern.compile("\\d+");

  public static final SyncInterval EPOCH = new SyncInterval(EPOCH_ROWS);
  public static final SyncInterval BUFFER = new SyncInterval(BUFFER_ROWS);

  /** Rows per round, or EPOCH_ROWS or BUFFER_ROWS. */
  private final long rows;

  private SyncInterval(long rows) {
    this.rows = rows;
  }

  /**
   * Parses an interval: {@code epoch} or {@code buffer} (any case) or a row count >= 1.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  public static SyncInterval parse(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("epoch")) {
      return EPOCH;
    }
    if (v.equals("buffer")) {
      return BUFFER;
    }
    if (ROWS.matcher(v).matches()) {
      try {
        long n = Long.parseLong(v);
        if (n >= 1) {
          return new SyncInterval(n);
        }
      } catch (NumberFormatException e) {
        // too large for a long: reported below like any other value out of range
      }
    }
    throw new IllegalArgumentException("expected " + FORMAT);
  }

  public boolean isEpoch() {
    return rows == EPOCH_ROWS;
  }

  /**
   * This interval where a round of {@code buffer} means {@code bufferRows} rows: for streams
   * without a tuple buffer, so that their rounds are as long as a buffer would be.
   */
  public SyncInterval withBufferOf(long bufferRows) {
    return rows == BUFFER_ROWS ? new SyncInterval(Math.max(1, bufferRows)) : this;
  }

  /**
   * Groups consecutive units (a partition's buffers, or blocks where no buffer is used) of the given
   * rows into rounds: returns the first unit of every round, then the number of units. {@code epoch}
   * gives one round, even of no units; otherwise no units give no rounds.
   */
  int[] roundStarts(long[] unitRows) {
    int n = unitRows.length;
    if (rows == EPOCH_ROWS) {
      return new int[] {0, n};
    }
    int[] starts = new int[n + 1];
    int rounds = 0;
    boolean open = false;
    long inRound = 0;
    for (int i = 0; i < n; i++) {
      if (!open) {
        starts[rounds++] = i;
        open = true;
        inRound = 0;
      }
      inRound += unitRows[i];
      // A round of `buffer` closes after every unit; of N rows, once it holds N.
      open = rows != BUFFER_ROWS && inRound < rows;
    }
    starts[rounds] = n;
    return Arrays.copyOf(starts, rounds + 1);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SyncInterval s && s.rows == rows;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(rows);
  }

  /** The text {@link #parse} reads back. */
  @Override
  public String toString() {
    return rows == EPOCH_ROWS ? "epoch" : rows == BUFFER_ROWS ? "buffer" : Long.toString(rows);
  }
}
