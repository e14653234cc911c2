package io.corgipile.shuffle;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How often partitions synchronize within an epoch: the epoch is read in rounds, each round one
 * Spark job in which every partition reads the next slice of its epoch stream. {@code auto}: a
 * round per shuffle buffer, after the first epoch at most {@value #AUTO_ROUNDS} an epoch; {@code
 * epoch}: one round; {@code buffer}: a round per shuffle buffer a partition consumes; a row count
 * N: a round ends at the first buffer boundary at or after every N rows of the partition.
 *
 * <p>Why {@code auto} caps the rounds: a round is a Spark job, and between two jobs the cores wait
 * for the slowest partition and the driver (about 50 ms a round on 2 cores, measured); four rounds
 * an epoch kept the final accuracy of a round per buffer at 2 to 128 partitions (docs/benchmarks/
 * scale.md), while at many small partitions, where buffers are few, every buffer stays a round. The
 * first epoch, where the models move most and drift apart fastest, is still averaged every buffer
 * ({@link #forEpoch}), as post-local SGD synchronizes often before it averages locally.
 */
public final class SyncInterval implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The most rounds an epoch but the first has under {@code auto}. */
  public static final int AUTO_ROUNDS = 4;

  /** The accepted values, for errors, param docs and the docs site. */
  public static final String FORMAT =
      "auto (one round per shuffle buffer of a partition; after the first epoch "
          + "at most "
          + AUTO_ROUNDS
          + " per epoch: whole buffers, split as evenly as they go), epoch (one round per epoch),"
          + " buffer (one round per shuffle buffer of a partition) or a number of rows per"
          + " partition >= 1 (100000; a round ends at the first buffer boundary at or after that"
          + " many rows)";

  private static final long EPOCH_ROWS = 0;
  private static final long BUFFER_ROWS = -1;
  private static final long AUTO_ROWS = -2;
  private static final Pattern ROWS = Pattern.compile("\\d+");

  public static final SyncInterval EPOCH = new SyncInterval(EPOCH_ROWS);
  public static final SyncInterval BUFFER = new SyncInterval(BUFFER_ROWS);
  public static final SyncInterval AUTO = new SyncInterval(AUTO_ROWS);

  /** Rows per round, or EPOCH_ROWS, BUFFER_ROWS or AUTO_ROWS. */
  private final long rows;

  private SyncInterval(long rows) {
    this.rows = rows;
  }

  /**
   * Parses an interval: {@code auto}, {@code epoch} or {@code buffer} (any case) or a row count >=
   * 1.
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
    if (v.equals("auto")) {
      return AUTO;
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

  /** Whether this is {@code auto}, which chooses the rounds itself. */
  public boolean isAuto() {
    return rows == AUTO_ROWS;
  }

  /** The interval of epoch {@code epoch} (from 0): {@code auto} is {@code buffer} in the first. */
  public SyncInterval forEpoch(int epoch) {
    return rows == AUTO_ROWS && epoch == 0 ? BUFFER : this;
  }

  /**
   * This interval where a round of {@code buffer} means {@code bufferRows} rows: for streams
   * without a tuple buffer, so that their rounds are as long as a buffer would be. {@code auto}
   * groups those streams' blocks into its rounds as it is.
   */
  public SyncInterval withBufferOf(long bufferRows) {
    return rows == BUFFER_ROWS ? new SyncInterval(Math.max(1, bufferRows)) : this;
  }

  /**
   * Groups consecutive units (a partition's buffers, or blocks where no buffer is used) of the
   * given rows into rounds: returns the first unit of every round, then the number of units. {@code
   * epoch} gives one round, even of no units; otherwise no units give no rounds.
   */
  int[] roundStarts(long[] unitRows) {
    int n = unitRows.length;
    if (rows == EPOCH_ROWS) {
      return new int[] {0, n};
    }
    if (rows == AUTO_ROWS) {
      return evenRoundStarts(unitRows, Math.min(n, AUTO_ROUNDS));
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

  /**
   * At most {@code rounds} rounds of whole units, round k starting after the unit that brings the
   * rows so far to k / rounds of all (every unit its own round when there are no more units than
   * rounds).
   */
  private static int[] evenRoundStarts(long[] unitRows, int rounds) {
    int n = unitRows.length;
    if (n == 0) {
      return new int[] {0};
    }
    long total = 0;
    for (long r : unitRows) {
      total += r;
    }
    int[] starts = new int[rounds + 1];
    int k = 1;
    long sofar = 0;
    for (int i = 0; i + 1 < n && k < rounds; i++) {
      sofar += unitRows[i];
      if (rounds == n || sofar * rounds >= k * total) {
        starts[k++] = i + 1;
      }
    }
    starts[k] = n;
    return Arrays.copyOf(starts, k + 1);
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
    return rows == EPOCH_ROWS
        ? "epoch"
        : rows == BUFFER_ROWS ? "buffer" : rows == AUTO_ROWS ? "auto" : Long.toString(rows);
  }
}
