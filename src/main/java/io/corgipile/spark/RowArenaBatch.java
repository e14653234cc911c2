package io.corgipile.spark;

import io.corgipile.shuffle.TupleShuffleBuffer;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * A column batch that views rows in place: runs of a {@link TupleShuffleBuffer}'s rows, or rows
 * pointed at one by one (those a sliding window emits); for rows of fields {@code UnsafeRow} keeps
 * in their 8-byte slot (what {@link FixedWidthRowEncoder} writes).
 */
public final class RowArenaBatch {
  private final RowArenaColumnVector.Rows rows;
  private final ColumnarBatch batch;

  /** A batch of at most {@code capacity} rows of {@code schema}. */
  public RowArenaBatch(StructType schema, int capacity) {
    this.rows = new RowArenaColumnVector.Rows(schema.size(), capacity);
    ColumnVector[] columns = new ColumnVector[schema.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new RowArenaColumnVector(schema.fields()[i].dataType(), rows, i);
    }
    this.batch = new ColumnarBatch(columns);
  }

  /**
   * Points the batch at rows {@code [start, start + n)} of {@code buffer}; valid until the next
   * call.
   */
  public void point(TupleShuffleBuffer buffer, int start, int n) {
    rows.point(buffer, start, n);
    batch.setNumRows(n);
  }

  /**
   * Points row {@code i} of the batch at {@code row}'s bytes, which must stay where they are until
   * the batch has been read; {@link #setNumRows} ends the batch.
   */
  public void set(int i, UnsafeRow row) {
    rows.set(i, row);
  }

  /**
   * Loads the fixed-width rows {@code [0, n)} of {@code rowBytes} each into the cache ahead of
   * Spark's reads; returns a sum of what it read, for the caller to keep.
   */
  public long load(int n, int rowBytes) {
    return rows.load(n, rowBytes);
  }

  /** Ends a batch of rows {@code [0, n)} pointed at one by one. */
  public void setNumRows(int n) {
    batch.setNumRows(n);
  }

  /** The batch, as last pointed. */
  public ColumnarBatch batch() {
    return batch;
  }
}
