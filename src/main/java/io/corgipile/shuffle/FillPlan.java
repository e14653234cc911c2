package io.corgipile.shuffle;

import java.util.Arrays;

/**
 * How a partition's epoch stream (its blocks in reading order) is cut into fills of its buffer,
 * decided from the blocks' row counts alone, before any row is read. Because the cut points are
 * known up front and each fill draws from its own random stream, a round can start at any fill
 * without reading the fills before it.
 *
 * <p>Rows are numbered by their position in the partition's stream; fill {@code i} is rows {@code
 * [fillStart(i), fillStart(i + 1))}. Every fill holds at least one row.
 */
public final class FillPlan {
  /** Row position of each block's first row, then the total: blocks + 1 entries. */
  private final long[] blockStarts;

  /** Row position of each fill's first row, then the total: fills + 1 entries. */
  private final long[] fillStarts;

  private FillPlan(long[] blockStarts, long[] fillStarts) {
    this.blockStarts = blockStarts;
    this.fillStarts = fillStarts;
  }

  /**
   * Pours whole blocks into fills of at most {@code capacityRows} rows, as few fills as that takes,
   * as even as block boundaries allow. Only a block larger than a whole fill is split: its first
   * pieces fill whole buffers, and its rest starts the next fill, which later blocks may join.
   *
   * <p>Even, because a greedy pour leaves the epoch's last fill whatever blocks remain, often one:
   * a buffer of one block of label-sorted data is no shuffle at all, and it comes last, where a
   * learner's final steps follow it. So each fill aims at the rows left over the fills left, and
   * closes at the block boundary nearest that aim, but never where the rest would then need more
   * fills than remain.
   */
  public static FillPlan of(long[] blockRows, long capacityRows) {
    if (capacityRows < 1) {
      throw new IllegalArgumentException(
          "Cannot plan fills: the capacity must be >= 1 row, got " + capacityRows);
    }
    long[] blockStarts = starts(blockRows);
    long[] pieces = pieces(blockRows, capacityRows);
    int[] fillsFrom = fewestFills(pieces, capacityRows);
    int fills = fillsFrom[0];
    long[] fillStarts = new long[fills + 1];
    long total = blockStarts[blockRows.length];
    long position = 0;
    int p = 0;
    for (int fill = 0; fill < fills; fill++) {
      fillStarts[fill] = position;
      int fillsLeft = fills - fill;
      double aim = (double) (total - position) / fillsLeft;
      long inFill = 0;
      // Take pieces while they fit; stop early where the aim is nearer and the rest still fits.
      while (p < pieces.length && inFill + pieces[p] <= capacityRows) {
        boolean nearer = inFill > 0 && inFill + pieces[p] - aim > aim - inFill;
        if (nearer && fillsFrom[p] <= fillsLeft - 1) {
          break;
        }
        inFill += pieces[p++];
      }
      position += inFill;
    }
    fillStarts[fills] = position;
    return new FillPlan(blockStarts, fillStarts);
  }

  /**
   * The blocks with rows as pieces a fill takes whole: a block larger than the capacity becomes
   * whole fills of it and its rest.
   */
  private static long[] pieces(long[] blockRows, long capacityRows) {
    long[] pieces = new long[blockRows.length];
    int n = 0;
    for (long rows : blockRows) {
      for (; rows > capacityRows; rows -= capacityRows) {
        pieces = grow(pieces, n);
        pieces[n++] = capacityRows;
      }
      if (rows > 0) {
        pieces = grow(pieces, n);
        pieces[n++] = rows;
      }
    }
    return Arrays.copyOf(pieces, n);
  }

  /**
   * For each piece, the fewest fills its pieces onwards take (one more entry, 0, for none): a fill
   * that takes as many pieces as fit never leaves more fills to the rest than one that takes fewer.
   */
  private static int[] fewestFills(long[] pieces, long capacityRows) {
    int n = pieces.length;
    int[] fillsFrom = new int[n + 1];
    int end = n; // the first piece after the greedy fill starting at `from`
    long inFill = 0;
    for (int from = n - 1; from >= 0; from--) {
      inFill += pieces[from];
      while (inFill > capacityRows) {
        inFill -= pieces[--end];
      }
      fillsFrom[from] = 1 + fillsFrom[end];
    }
    return fillsFrom;
  }

  /** One fill per block with rows: for the modes that read blocks straight, without a buffer. */
  public static FillPlan perBlock(long[] blockRows) {
    long[] blockStarts = starts(blockRows);
    long[] fillStarts = Arrays.stream(blockStarts).distinct().toArray();
    return new FillPlan(blockStarts, fillStarts);
  }

  public int fills() {
    return fillStarts.length - 1;
  }

  public long rows(int fill) {
    return fillStarts[fill + 1] - fillStarts[fill];
  }

  /**
   * The groups of fills {@code interval} cuts the partition's epoch into on its own; 1 for {@code
   * epoch}, 0 when the partition has no rows.
   */
  public int rounds(SyncInterval interval) {
    return interval.roundStarts(fillRows()).length - 1;
  }

  /**
   * What round {@code round} of an epoch of {@code rounds} reads. All partitions run the same
   * rounds while each cuts its own groups ({@link #rounds(SyncInterval)}), so a partition spreads
   * its groups evenly over the epoch's rounds: round r reads groups from r g / R to (r + 1) g / R
   * of its g, both rounded to the nearest. With g >= R every round reads at least one group; a
   * partition with fewer skips rounds spread over the epoch, never all at its end. Empty from round
   * R on.
   */
  public Slice slice(SyncInterval interval, int round, int rounds) {
    if (rounds < 1) {
      throw new IllegalArgumentException(
          "Cannot slice an epoch into " + rounds + " rounds: it has at least 1");
    }
    int[] groups = interval.roundStarts(fillRows());
    int g = groups.length - 1;
    int blocks = blockStarts.length - 1;
    int firstFill = groups[round >= rounds ? g : groupAt(round, g, rounds)];
    int endFill = groups[round >= rounds ? g : groupAt(round + 1, g, rounds)];
    if (firstFill == endFill) { // also the one group of an epoch without rows
      return new Slice(fills(), fills(), blocks, blocks, 0, 0);
    }
    long from = fillStarts[firstFill];
    long to = fillStarts[endFill];
    // The block holding row `from` (blocks of no rows before it are left out), up to the block
    // holding row `to - 1`.
    int firstBlock = 0;
    while (blockStarts[firstBlock + 1] <= from) {
      firstBlock++;
    }
    int endBlock = firstBlock + 1;
    while (endBlock < blocks && blockStarts[endBlock] < to) {
      endBlock++;
    }
    return new Slice(
        firstFill, endFill, firstBlock, endBlock, from - blockStarts[firstBlock], to - from);
  }

  /**
   * The first of {@code groups} groups that round {@code round} of {@code rounds} reads: {@code
   * round * groups / rounds}, rounded to the nearest.
   */
  private static int groupAt(int round, int groups, int rounds) {
    return (int) ((2L * round * groups + rounds) / (2L * rounds));
  }

  /**
   * The part of a partition's epoch stream one round reads: fills {@code [firstFill, endFill)},
   * which lie in blocks {@code [firstBlock, endBlock)} (positions in the partition's reading
   * order), starting {@code skipRows} rows into the first block and holding {@code rows} rows.
   */
  public record Slice(
      int firstFill, int endFill, int firstBlock, int endBlock, long skipRows, long rows) {}

  private long[] fillRows() {
    long[] rows = new long[fills()];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = rows(i);
    }
    return rows;
  }

  private static long[] starts(long[] rows) {
    long[] starts = new long[rows.length + 1];
    for (int i = 0; i < rows.length; i++) {
      if (rows[i] < 0) {
        throw new IllegalArgumentException(
            "Cannot plan fills: block " + i + " has " + rows[i] + " rows");
      }
      starts[i + 1] = starts[i] + rows[i];
    }
    return starts;
  }

  private static long[] grow(long[] a, int used) {
    return used < a.length ? a : Arrays.copyOf(a, Math.max(4, 2 * a.length));
  }
}
