package io.corgipile.source;

import io.corgipile.shuffle.BlockSchedule;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.EpochSeeds;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SlidingWindow;
import io.corgipile.shuffle.SplitMix64;
import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.ScanSettings;
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
  private final int partitions;
  private final ScanSettings settings;
  private final int numFields;

  CorgiPileReaderFactory(BlockPlan plan, ReadConf conf, int partitions, ScanSettings settings, int numFields) {
    this.plan = plan;
    this.conf = conf;
    this.partitions = partitions;
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
    Epoch epoch = epoch((CorgiPileInputPartition) partition);
    BlockOpener opener = new BlockOpener(plan, settings, metrics);
    if (conf.shuffle() == ShuffleMode.CORGIPILE) {
      return new ShuffledBatchReader(shuffledBuffers(epoch, opener, metrics), settings.readSchema(), metrics);
    }
    return new ColumnarPartitionReader(opener, epoch.blocks, metrics);
  }

  /** The running task's epoch, seeds, and its partition's blocks in that epoch's order. */
  private record Epoch(int number, int partition, EpochSeeds seeds, int[] blocks, long rows, TaskContext task) {}

  private Epoch epoch(CorgiPileInputPartition partition) {
    TaskContext task = TaskContext.get();
    int epoch = conf.effectiveEpoch(task == null ? null : task.getLocalProperty(ReadOptions.EPOCH_LOCAL_PROPERTY));
    EpochSeeds seeds = new EpochSeeds(
        conf.effectiveSeed(task == null ? null : task.getLocalProperty(ReadOptions.SEED_LOCAL_PROPERTY)));
    BlockSchedule schedule = new BlockSchedule(
        plan.blockRows(), partitions, conf.shuffle(), conf.blockAssignment(), seeds);
    int[] blocks = schedule.blocksFor(epoch, partition.index());
    return new Epoch(epoch, partition.index(), seeds, blocks, schedule.rowsOf(blocks), task);
  }

  /** The partition's rows in this epoch's order. */
  private TupleStream open(CorgiPileInputPartition partition, ReaderMetrics metrics) {
    Epoch epoch = epoch(partition);
    BlockOpener opener = new BlockOpener(plan, settings, metrics);
    switch (conf.shuffle()) {
      case WINDOW:
        BufferSize size = conf.bufferSize();
        return new WindowTupleStream(new BlockRowStream(opener, epoch.blocks, metrics),
            new SlidingWindow(size.maxRows(epoch.rows), size.maxBytes(),
                epoch.seeds.random(epoch.number, epoch.partition, EpochSeeds.Purpose.WINDOW_SLOT)),
            numFields, metrics);
      case CORGIPILE:
        return new BufferedTupleStream(shuffledBuffers(epoch, opener, metrics), numFields);
      default:
        // none and block, when Spark takes rows rather than column batches
        return new DirectTupleStream(new BlockRowStream(opener, epoch.blocks, metrics));
    }
  }

  /** The partition's {@code corgipile} buffers in this epoch, double-buffered with prefetch. */
  private ShuffledBuffers shuffledBuffers(Epoch epoch, BlockOpener opener, ReaderMetrics metrics) {
    BlockRowStream source = new BlockRowStream(opener, epoch.blocks, metrics);
    BufferFiller filler = new BufferFiller(source);
    // One stream for all fills of the partition: fills run one after another, whatever the threads.
    SplitMix64 random =
        epoch.seeds.random(epoch.number, epoch.partition, EpochSeeds.Purpose.TUPLE_ORDER);
    BufferSize size = conf.bufferSize();
    long maxRows = size.maxRows(epoch.rows);
    TupleShuffleBuffer first = new TupleShuffleBuffer(maxRows, size.maxBytes(), random);
    if (!conf.prefetch()) {
      return new ShuffledBuffers(source, filler, first, null, null, metrics);
    }
    String thread = "corgipile-prefetch-" + (epoch.task == null ? "" : "stage-" + epoch.task.stageId() + "-")
        + "partition-" + epoch.partition;
    return new ShuffledBuffers(source, filler, first, new TupleShuffleBuffer(maxRows, size.maxBytes(), random),
        thread, metrics);
  }
}
