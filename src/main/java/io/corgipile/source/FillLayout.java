package io.corgipile.source;

import io.corgipile.shuffle.BlockAssignment;
import io.corgipile.shuffle.BlockSchedule;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.EpochSeeds;
import io.corgipile.shuffle.FillPlan;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SyncInterval;
import java.io.Serializable;

/**
 * How each partition's epoch stream is laid out, from the footers alone: which blocks it reads in
 * which order ({@link BlockSchedule}), its buffer's capacity, and how its blocks are cut into
 * planned fills ({@link FillPlan}). The readers on the executors and {@link EpochRounds} on the
 * driver both ask it, so they always agree on the rounds of an epoch.
 */
final class FillLayout implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] blockRows;

  /** {@link Block#rowGroupShare} of each block. */
  private final double[] rowGroupShares;

  private final ShuffleMode shuffle;
  private final BlockAssignment assignment;
  private final BufferSize bufferSize;
  private final int partitions;
  private final double tupleBytes;
  private final long bufferMemory;

  /**
   * @param numFields columns of the rows read
   * @param bufferMemory the memory one buffer may take, for {@code bufferSize=auto}
   */
  FillLayout(BlockPlan plan, ReadConf conf, int partitions, int numFields, long bufferMemory) {
    this.blockRows = plan.blockRows();
    this.rowGroupShares = plan.blocks().stream().mapToDouble(Block::rowGroupShare).toArray();
    this.shuffle = conf.shuffle();
    this.assignment = conf.blockAssignment();
    this.bufferSize = conf.bufferSize();
    this.partitions = partitions;
    this.tupleBytes = tupleBytes(plan, numFields);
    this.bufferMemory = bufferMemory;
  }

  /**
   * The estimated bytes of a decoded row: the blocks' uncompressed bytes over their rows, each
   * block's bytes counted for its live rows only, as the rows its table deleted are never held.
   */
  static double tupleBytes(BlockPlan plan, int numFields) {
    double liveBytes = 0;
    for (Block b : plan.blocks()) {
      liveBytes += (double) b.uncompressedBytes() * b.liveRows() / Math.max(1, b.rows());
    }
    // A decoded row takes at least its fixed part: a null bitmap word and a word per column.
    return Math.max(8.0 * (numFields + 1), liveBytes / Math.max(1, plan.totalRows()));
  }

  int partitions() {
    return partitions;
  }

  /**
   * A partition's stream in an epoch: its blocks in reading order, its buffer and its fills
   * (without a buffer, one per block).
   */
  record PartitionStream(
      int[] blocks, BufferSize.Capacity capacity, FillPlan fills, boolean buffered) {
    int rounds(SyncInterval interval) {
      return fills.rounds(unit(interval));
    }

    /** What round {@code round} of an epoch of {@code rounds} ({@link FillLayout#rounds}) reads. */
    FillPlan.Slice slice(SyncInterval interval, int round, int rounds) {
      return fills.slice(unit(interval), round, rounds);
    }

    /**
     * Without a buffer, a round of {@code buffer} is as many whole blocks as the buffer would hold.
     */
    private SyncInterval unit(SyncInterval interval) {
      return buffered ? interval : interval.withBufferOf(capacity.plannedRows());
    }
  }

  PartitionStream partition(int epoch, long seed, int partition) {
    int[] blocks =
        new BlockSchedule(blockRows, partitions, shuffle, assignment, new EpochSeeds(seed))
            .blocksFor(epoch, partition);
    long[] rows = new long[blocks.length];
    long total = 0;
    double rowGroups = 0;
    for (int i = 0; i < blocks.length; i++) {
      rows[i] = blockRows[blocks[i]];
      total += rows[i];
      rowGroups += rowGroupShares[blocks[i]];
    }
    BufferSize.Capacity capacity = capacity(total, rowGroups);
    boolean buffered = shuffle.buffersTuples();
    FillPlan fills = buffered ? FillPlan.of(rows, capacity.plannedRows()) : FillPlan.perBlock(rows);
    return new PartitionStream(blocks, capacity, fills, buffered);
  }

  /**
   * The buffer of a partition of {@code rows} rows in {@code rowGroups} row groups ({@link
   * BlockPlan#rowGroups}).
   */
  BufferSize.Capacity capacity(long rows, double rowGroups) {
    return bufferSize.capacity(rows, rowGroups, tupleBytes, bufferMemory);
  }

  /** That buffer as {@code bufferSize} alone makes it, without {@code auto}'s memory cap. */
  BufferSize.Capacity uncappedCapacity(long rows, double rowGroups) {
    return bufferSize.capacity(rows, rowGroups, tupleBytes, Long.MAX_VALUE);
  }

  /**
   * The rows a buffer plans to hold in a partition of average rows and row groups of {@code plan}.
   */
  long typicalBufferRows(BlockPlan plan) {
    return capacity(plan.totalRows() / partitions, plan.rowGroups() / partitions).plannedRows();
  }

  /** The most a buffer of {@code capacity} allocates, with rows of the estimated size. */
  long boundBytes(BufferSize.Capacity capacity) {
    return capacity.boundBytes(tupleBytes);
  }

  /** The estimated bytes of a row in a buffer, from the footers. */
  double tupleBytes() {
    return tupleBytes;
  }

  /**
   * The rounds of an epoch: the fewest any partition with rows cuts its stream into, at least 1. So
   * every partition trains in every round, and a round's mean never leans on the partitions that
   * happen to hold one more buffer (on data sorted by label, those of one label); a partition with
   * more groups reads consecutive ones in a round ({@link FillPlan#slice}).
   */
  int rounds(int epoch, long seed, SyncInterval interval) {
    int rounds = Integer.MAX_VALUE;
    for (int p = 0; p < partitions; p++) {
      int own = partition(epoch, seed, p).rounds(interval);
      if (own > 0) {
        rounds = Math.min(rounds, own);
      }
    }
    return rounds == Integer.MAX_VALUE ? 1 : rounds;
  }
}
