package io.corgipile.source;

import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.EpochSeeds;
import io.corgipile.shuffle.FillPlan;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SlidingWindow;
import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.ScanSettings;
import java.util.Arrays;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Builds each partition's reader on the executor. It travels once per stage inside Spark's task
 * binary, so the block plan is shipped once, not once per task.
 */
final class CorgiPileReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final BlockPlan plan;
  private final ReadConf conf;
  private final FillLayout layout;
  private final ScanSettings settings;
  private final int numFields;

  CorgiPileReaderFactory(BlockPlan plan, ReadConf conf, FillLayout layout, ScanSettings settings, int numFields) {
    this.plan = plan;
    this.conf = conf;
    this.layout = layout;
    this.settings = settings;
    this.numFields = numFields;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    ReaderMetrics metrics = new ReaderMetrics();
    return new CorgiPilePartitionReader(open((CorgiPileInputPartition) partition, metrics), metrics);
  }

  /**
   * Spark takes column batches when it can: {@code none} and {@code block} pass its own vectorized
   * batches through; {@code corgipile} over primitive columns hands out views of its buffers.
   */
  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    switch (conf.shuffle()) {
      case NONE:
      case BLOCK:
        return settings.supportsColumnar();
      case CORGIPILE:
        return settings.supportsColumnar() && settings.fixedWidthRows();
      default:
        return false;
    }
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    ReaderMetrics metrics = new ReaderMetrics();
    Slice slice = slice((CorgiPileInputPartition) partition);
    BlockOpener opener = new BlockOpener(plan, settings, metrics);
    if (conf.shuffle() == ShuffleMode.CORGIPILE) {
      return new ShuffledBatchReader(shuffledBuffers(slice, opener, metrics), settings.readSchema(), metrics);
    }
    // none and block: a round is whole blocks, so the slice starts at a block's first row
    return new ColumnarPartitionReader(opener, slice.blocks, metrics);
  }

  /**
   * What the running task reads: its epoch and seeds, its partition's stream in that epoch, and the
   * slice of it the job's round reads (the whole stream when the job does not read in rounds), with
   * the slice's blocks in reading order.
   */
  private record Slice(int epoch, int partition, EpochSeeds seeds, FillLayout.PartitionStream stream,
      FillPlan.Slice range, int[] blocks, TaskContext task) {}

  private Slice slice(CorgiPileInputPartition partition) {
    TaskContext task = TaskContext.get();
    int epoch = conf.effectiveEpoch(localProperty(task, ReadOptions.EPOCH_LOCAL_PROPERTY));
    long seed = conf.effectiveSeed(localProperty(task, ReadOptions.SEED_LOCAL_PROPERTY));
    ReadConf.Round round = ReadConf.round(localProperty(task, ReadOptions.ROUND_LOCAL_PROPERTY),
        localProperty(task, ReadOptions.ROUNDS_LOCAL_PROPERTY),
        localProperty(task, ReadOptions.SYNC_INTERVAL_LOCAL_PROPERTY));
    FillLayout.PartitionStream stream = layout.partition(epoch, seed, partition.index());
    FillPlan.Slice range = stream.slice(round.interval(), round.index(), round.count());
    int[] blocks = Arrays.copyOfRange(stream.blocks(), range.firstBlock(), range.endBlock());
    return new Slice(epoch, partition.index(), new EpochSeeds(seed), stream, range, blocks, task);
  }

  private static String localProperty(TaskContext task, String name) {
    return task == null ? null : task.getLocalProperty(name);
  }

  /** The slice's rows in this epoch's order. */
  private TupleStream open(CorgiPileInputPartition partition, ReaderMetrics metrics) {
    Slice slice = slice(partition);
    BlockOpener opener = new BlockOpener(plan, settings, metrics);
    switch (conf.shuffle()) {
      case WINDOW:
        // The window starts afresh at the slice's start and drains at its end, drawing from a stream
        // of the slice's first fill: each row is still emitted once, whatever the rounds.
        BufferSize.Capacity capacity = slice.stream.capacity();
        return new WindowTupleStream(rows(slice, opener, metrics),
            new SlidingWindow(capacity.maxRows(), capacity.maxBytes(), slice.seeds.random(
                slice.epoch, slice.partition, EpochSeeds.Purpose.WINDOW_SLOT, slice.range.firstFill())),
            numFields, metrics);
      case CORGIPILE:
        return new BufferedTupleStream(shuffledBuffers(slice, opener, metrics), numFields);
      default:
        // none and block, when Spark takes rows rather than column batches
        return new DirectTupleStream(rows(slice, opener, metrics));
    }
  }

  private static BlockRowStream rows(Slice slice, BlockOpener opener, ReaderMetrics metrics) {
    return new BlockRowStream(opener, slice.blocks, slice.range.skipRows(), slice.range.rows(), metrics);
  }

  /** The slice's {@code corgipile} buffers, double-buffered with prefetch. */
  private ShuffledBuffers shuffledBuffers(Slice slice, BlockOpener opener, ReaderMetrics metrics) {
    BlockRowStream source = rows(slice, opener, metrics);
    // Each planned fill has its own stream, so a round can start at any fill.
    BufferFiller filler = new BufferFiller(source, slice.stream.fills(), slice.range.firstFill(),
        slice.range.endFill(),
        fill -> slice.seeds.random(slice.epoch, slice.partition, EpochSeeds.Purpose.TUPLE_ORDER, fill));
    BufferSize.Capacity capacity = slice.stream.capacity();
    TupleShuffleBuffer first = new TupleShuffleBuffer(capacity.maxRows(), capacity.maxBytes());
    if (!conf.prefetch()) {
      return new ShuffledBuffers(source, filler, first, null, null, metrics);
    }
    String thread = "corgipile-prefetch-" + (slice.task == null ? "" : "stage-" + slice.task.stageId() + "-")
        + "partition-" + slice.partition;
    return new ShuffledBuffers(source, filler, first, new TupleShuffleBuffer(capacity.maxRows(), capacity.maxBytes()),
        thread, metrics);
  }
}
