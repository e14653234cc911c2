package io.corgipile.source;

import io.corgipile.spark.RowArenaBatch;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The {@code window} mode handed to Spark as column batches that view the emitted rows where the
 * window holds them ({@link RowArenaBatch}), as {@link ShuffledBatchReader} does for {@code
 * corgipile}: Spark's generated code then writes each output row once. Used for schemas of
 * primitive columns, whose rows all have one size.
 *
 * <p>A row emitted into a batch must stay where it is until Spark has read the batch, so each batch
 * first reserves room for its replacements in the window ({@link WindowTupleStream#reserve}) and
 * ends early if that room runs out (only the first batch, whose first row waits for the window to
 * fill).
 */
final class WindowBatchReader implements PartitionReader<ColumnarBatch> {
  private final WindowTupleStream window;
  private final ReaderMetrics metrics;
  private final RowArenaBatch batch;
  private final int rowBytes;

  WindowBatchReader(WindowTupleStream window, StructType schema, ReaderMetrics metrics) {
    this.window = window;
    this.metrics = metrics;
    this.batch = new RowArenaBatch(schema, ShuffledBatchReader.BATCH_ROWS);
    this.rowBytes = UnsafeRows.fixedWidthBytes(schema.size());
  }

  @Override
  public boolean next() throws IOException {
    window.reserve((long) ShuffledBatchReader.BATCH_ROWS * rowBytes);
    int n = 0;
    while (n < ShuffledBatchReader.BATCH_ROWS
        && (n == 0 || window.hasRoomFor(rowBytes))
        && window.next()) {
      batch.set(n++, window.get());
    }
    batch.setNumRows(n);
    return n > 0;
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
    window.close();
  }
}
