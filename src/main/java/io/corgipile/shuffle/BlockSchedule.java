package io.corgipile.shuffle;

import java.util.Arrays;

/**
 * Decides which blocks (Parquet row groups, or parts of them) each partition reads in an epoch, and
 * in which order.
 *
 * <p>Blocks are named by their index in storage order. A partition's list is a contiguous slice, of
 * near-equal row count, of either the storage order or an epoch's random permutation of all blocks;
 * see {@link BlockAssignment}. The result depends only on the constructor arguments, the epoch and
 * the partition.
 */
public final class BlockSchedule {
  private final long[] blockRows;
  private final int partitions;
  private final ShuffleMode mode;
  private final BlockAssignment assignment;
  private final EpochSeeds seeds;

  public BlockSchedule(
      long[] blockRows,
      int partitions,
      ShuffleMode mode,
      BlockAssignment assignment,
      EpochSeeds seeds) {
    if (partitions < 1) {
      throw new IllegalArgumentException(
          "Cannot schedule blocks: partitions must be >= 1, got " + partitions);
    }
    this.blockRows = blockRows.clone();
    this.partitions = partitions;
    this.mode = mode;
    this.assignment = assignment;
    this.seeds = seeds;
  }

  public int partitions() {
    return partitions;
  }

  /** The blocks partition {@code partition} reads in epoch {@code epoch}, in reading order. */
  public int[] blocksFor(int epoch, int partition) {
    if (partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException(
          "Cannot schedule blocks: partition " + partition + " is outside [0, " + partitions + ")");
    }
    int[] storageOrder = identity(blockRows.length);
    if (!mode.shufflesBlocks()) {
      return slice(storageOrder, partition);
    }
    if (assignment == BlockAssignment.EPOCH) {
      seeds
          .random(epoch, EpochSeeds.ALL_PARTITIONS, EpochSeeds.Purpose.BLOCK_ORDER)
          .shuffle(storageOrder, storageOrder.length);
      return slice(storageOrder, partition);
    }
    int[] mine = slice(storageOrder, partition);
    seeds.random(epoch, partition, EpochSeeds.Purpose.BLOCK_ORDER).shuffle(mine, mine.length);
    return mine;
  }

  /** Total rows of the given blocks. */
  public long rowsOf(int[] blocks) {
    long sum = 0;
    for (int b : blocks) {
      sum += blockRows[b];
    }
    return sum;
  }

  /**
   * Cuts {@code order} into {@code partitions} contiguous slices of near-equal rows and returns
   * slice {@code partition}: a block goes to the slice that holds the midpoint of its rows.
   */
  private int[] slice(int[] order, int partition) {
    long total = 0;
    for (int b : order) {
      total += blockRows[b];
    }
    int[] out = new int[order.length];
    int n = 0;
    long before = 0;
    for (int i = 0; i < order.length; i++) {
      long rows = blockRows[order[i]];
      int owner;
      if (total == 0) {
        owner = (int) ((long) i * partitions / order.length);
      } else {
        double midpoint = (before + rows / 2.0) / total;
        owner = Math.min(partitions - 1, (int) (midpoint * partitions));
      }
      if (owner == partition) {
        out[n++] = order[i];
      }
      before += rows;
    }
    return Arrays.copyOf(out, n);
  }

  private static int[] identity(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }
}
