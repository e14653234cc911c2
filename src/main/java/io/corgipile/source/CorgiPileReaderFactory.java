package io.corgipile.source;

import io.corgipile.shuffle.BlockSchedule;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.EpochSeeds;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SlidingWindow;
import io.corgipile.shuffle.TupleShuffleBuffer;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/**
 * Builds each partition's reader on the executor. It travels once per stage inside Spark's task
 * binary, so the block plan is shipped once, not once per task.
 */
final class CorgiPileReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final BlockPlan plan;
  private final ReadConf conf;
  private final int partitions;
  private final SparkParquetAdapter adapter;
  private final int numFields;

  CorgiPileReaderFactory(BlockPlan plan, ReadConf conf, int partitions, SparkParquetAdapter adapter, int numFields) {
    this.plan = plan;
    this.conf = conf;
    this.partitions = partitions;
    this.adapter = adapter;
    this.numFields = numFields;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    int index = ((CorgiPileInputPartition) partition).index();
    TaskContext task = TaskContext.get();
    int epoch = conf.effectiveEpoch(task == null ? null : task.getLocalProperty(ReadOptions.EPOCH_LOCAL_PROPERTY));
    ReaderMetrics metrics = new ReaderMetrics();
    return new CorgiPilePartitionReader(open(index, epoch, metrics, task), metrics);
  }

  /** The partition's rows in this epoch's order. */
  TupleStream open(int partition, int epoch, ReaderMetrics metrics, TaskContext task) {
    EpochSeeds seeds = new EpochSeeds(conf.seed());
    ShuffleMode mode = conf.shuffle();
    BlockSchedule schedule = new BlockSchedule(plan.blockRows(), partitions, mode, conf.blockAssignment(), seeds);
    int[] blocks = schedule.blocksFor(epoch, partition);
    BlockRowStream source = new BlockRowStream(plan, blocks, adapter, metrics);
    BufferSize size = conf.bufferSize();
    long maxRows = size.maxRows(schedule.rowsOf(blocks));
    switch (mode) {
      case WINDOW:
        return new WindowTupleStream(source,
            new SlidingWindow(maxRows, size.maxBytes(), seeds.random(epoch, partition, EpochSeeds.Purpose.WINDOW_SLOT)),
            numFields, metrics);
      case NONE:
      case BLOCK:
        if (!conf.prefetch()) {
          return new DirectTupleStream(source);
        }
        return buffered(source, new BufferFiller(source, false, null), maxRows, size, partition, task, metrics);
      case CORGIPILE:
        BufferFiller filler = new BufferFiller(
            source, true, seeds.random(epoch, partition, EpochSeeds.Purpose.TUPLE_ORDER));
        return buffered(source, filler, maxRows, size, partition, task, metrics);
      default:
        throw new IllegalStateException("Cannot read: unknown shuffle mode " + mode);
    }
  }

  private TupleStream buffered(BlockRowStream source, BufferFiller filler, long maxRows, BufferSize size,
      int partition, TaskContext task, ReaderMetrics metrics) {
    TupleShuffleBuffer first = new TupleShuffleBuffer(maxRows, size.maxBytes());
    TupleShuffleBuffer second = conf.prefetch() ? new TupleShuffleBuffer(maxRows, size.maxBytes()) : null;
    String thread = "corgipile-prefetch-" + (task == null ? "" : "stage-" + task.stageId() + "-") + "partition-" + partition;
    return new BufferedTupleStream(source, filler, numFields, first, second, thread, metrics);
  }
}
