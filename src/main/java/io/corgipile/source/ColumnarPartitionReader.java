package io.corgipile.source;

import io.corgipile.spark.RowGroupBatches;
import java.io.IOException;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Hands Spark the column batches of a partition's blocks, in the epoch's block order, straight
 * from its vectorized reader: the {@code none} and {@code block} modes, which reorder no tuples,
 * at the cost of Spark's own Parquet scan.
 */
final class ColumnarPartitionReader implements PartitionReader<ColumnarBatch> {
  private final BlockOpener opener;
  private final int[] order;
  private final ReaderMetrics metrics;
  private int nextBlock;
  private Block current;
  private RowGroupBatches batches;
  private ColumnarBatch batch;

  ColumnarPartitionReader(BlockOpener opener, int[] order, ReaderMetrics metrics) {
    this.opener = opener;
    this.order = order;
    this.metrics = metrics;
  }

  @Override
  public boolean next() throws IOException {
    while (true) {
      if (batches != null) {
        try {
          batch = batches.nextBatch();
        } catch (IOException | RuntimeException e) {
          throw opener.failure(current, e);
        }
        if (batch != null) {
          metrics.rowsRead.addAndGet(batch.numRows());
          return true;
        }
        closeCurrent();
      }
      if (nextBlock >= order.length) {
        return false;
      }
      current = opener.block(order[nextBlock++]);
      batches = opener.batches(current);
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

  private void closeCurrent() throws IOException {
    if (batches != null) {
      RowGroupBatches b = batches;
      batches = null;
      b.close();
    }
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
  }
}
