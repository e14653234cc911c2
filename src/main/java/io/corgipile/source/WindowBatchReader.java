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
 *
 * <p>Each row of a batch lies at a random place in a window much larger than the CPU cache, so a
 * batch's rows are loaded into the cache together before Spark reads them: overlapped misses
 * instead of one at a time. A batch holds {@link #CACHED_BATCH_BYTES} of rows at most, so they are
 * still in the core's L2 cache when Spark reads them.
 */
final class WindowBatchReader implements PartitionReader<ColumnarBatch> {
  /** A quarter of a core's L2 cache on today's servers (1-2 MiB). */
  static final int CACHED_BATCH_BYTES = 256 << 10;

  private final WindowTupleStream window;
  private final ReaderMetrics metrics;
  private final RowArenaBatch batch;
  private final int rowBytes;
  private final int batchRows;

  /** What loading the rows read; kept so that the loads are not optimized away. */
  private long loaded;

  WindowBatchReader(WindowTupleStream window, StructType schema, ReaderMetrics metrics) {
    this.window = window;
    this.metrics = metrics;
    this.rowBytes = UnsafeRows.fixedWidthBytes(schema.size());
    this.batchRows = batchRows(rowBytes);
    this.batch = new RowArenaBatch(schema, batchRows);
  }

  /** Rows of {@code rowBytes} a batch holds: as many as fit {@link #CACHED_BATCH_BYTES}. */
  static int batchRows(int rowBytes) {
    return Math.max(64, Math.min(ShuffledBatchReader.BATCH_ROWS, CACHED_BATCH_BYTES / rowBytes));
  }

  @Override
  public boolean next() throws IOException {
    window.reserve((long) batchRows * rowBytes);
    int n = 0;
    while (n < batchRows && (n == 0 || window.hasRoomFor(rowBytes)) && window.next()) {
      batch.set(n++, window.get());
    }
    loaded += batch.load(n, rowBytes);
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
