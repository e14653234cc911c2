package io.corgipile.source;

import io.corgipile.spark.BlockBatches;
import java.io.IOException;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Hands Spark the column batches of a partition's blocks, in the epoch's block order, straight from
 * its vectorized reader: the {@code none} and {@code block} modes, which reorder no tuples, at the
 * cost of Spark's own Parquet scan.
 */
final class ColumnarPartitionReader implements PartitionReader<ColumnarBatch> {
  private final BlockCursor<BlockBatches> blocks;
  private final ReaderMetrics metrics;
  private BlockBatches batches;
  private ColumnarBatch batch;

  ColumnarPartitionReader(BlockOpener opener, int[] order, ReaderMetrics metrics) {
    this.blocks = BlockCursor.batches(opener, order);
    this.metrics = metrics;
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (batches != null) {
        try {
          batch = batches.nextBatch();
        } catch (IOException | RuntimeException e) {
          throw blocks.failure(e);
        }
        if (batch != null) {
          // Published per batch: an atomic update per batch costs little beside its rows.
          metrics.rowsRead.addAndGet(batch.numRows());
          return true;
        }
        batches = null;
        blocks.closeCurrent();
      }
      if (!blocks.hasNext()) {
        return false;
      }
      batches = blocks.openNext();
    }
  }

  @Override
  public ColumnarBatch get() {
    return batch;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return CorgiPileMetrics.values(metrics);
  }

  @Override
  public void close() throws IOException {
    batches = null;
    blocks.close();
  }
}
