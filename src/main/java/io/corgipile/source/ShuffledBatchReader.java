package io.corgipile.source;

import java.io.IOException;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The shuffled buffers of a partition handed to Spark as column batches that view runs of the
 * buffer's rows ({@link RowArenaColumnVector}). Spark's generated column-to-row code then writes
 * each output row once, in a tight loop, where the row interface would copy it a second time
 * through a projection and several iterator layers. Used for schemas of primitive columns.
 */
final class ShuffledBatchReader implements PartitionReader<ColumnarBatch> {
  static final int BATCH_ROWS = 4096;

  private final ShuffledBuffers buffers;
  private final ReaderMetrics metrics;
  private final RowArenaColumnVector.Rows rows;
  private final ColumnarBatch batch;

  ShuffledBatchReader(ShuffledBuffers buffers, StructType schema, ReaderMetrics metrics) {
    this.buffers = buffers;
    this.metrics = metrics;
    this.rows = new RowArenaColumnVector.Rows(schema.size(), BATCH_ROWS);
    ColumnVector[] columns = new ColumnVector[schema.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new RowArenaColumnVector(schema.fields()[i].dataType(), rows, i);
    }
    this.batch = new ColumnarBatch(columns);
  }

  @Override
  public boolean next() throws IOException {
    int n = buffers.nextRun(BATCH_ROWS);
    if (n == 0) {
      return false;
    }
    rows.point(buffers.current(), buffers.runStart(), n);
    batch.setNumRows(n);
    return true;
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
    buffers.close();
  }
}
