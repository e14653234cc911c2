package io.corgipile.source;

import io.corgipile.spark.RowArenaBatch;
import java.io.IOException;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The shuffled buffers of a partition handed to Spark as column batches that view runs of the
 * buffer's rows ({@link RowArenaBatch}). Spark's generated column-to-row code then writes each
 * output row once, in a tight loop, where the row interface would copy it a second time through a
 * projection and several iterator layers. Used for schemas of primitive columns.
 */
final class ShuffledBatchReader implements PartitionReader<ColumnarBatch> {
  static final int BATCH_ROWS = 4096;

  private final ShuffledBuffers buffers;
  private final ReaderMetrics metrics;
  private final RowArenaBatch batch;

  ShuffledBatchReader(ShuffledBuffers buffers, StructType schema, ReaderMetrics metrics) {
    this.buffers = buffers;
    this.metrics = metrics;
    this.batch = new RowArenaBatch(schema, BATCH_ROWS);
  }

  @Override
  public boolean next() throws IOException {
    int n = buffers.nextRun(BATCH_ROWS);
    if (n == 0) {
      return false;
    }
    batch.point(buffers.current(), buffers.runStart(), n);
    return true;
  }

  @Override
  public ColumnarBatch get() {
    return batch.batch();
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return CorgiPileMetrics.values(metrics);
  }

  @Override
  public void close() throws IOException {
    buffers.close();
  }
}
