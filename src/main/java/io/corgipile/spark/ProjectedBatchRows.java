package io.corgipile.spark;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;

/**
 * The rows of column batches in the layout of a {@link ScanProjection}, a batch at a time: the
 * batch written as rows into one reused array, then each row viewed in place. A batch is let go as
 * Spark's own column-to-row conversion lets it go ({@code closeIfFreeable}) once its rows are read.
 */
final class ProjectedBatchRows implements Iterator<InternalRow> {
  private final Iterator<ColumnarBatch> batches;
  private final FixedWidthRowEncoder encoder;
  private final int[] columns;
  private final double[] constants;
  private final UnsafeRow row;
  private byte[] rows = new byte[0];
  /** Where {@link #rows} holds each row of a batch, for the encoder. */
  private byte[][] chunks = new byte[0][];
  private int[] offsets = new int[0];
  private ColumnarBatch batch;
  private int numRows;
  private int next;

  ProjectedBatchRows(Iterator<ColumnarBatch> batches, FixedWidthRowEncoder encoder, int[] columns,
      double[] constants) {
    this.batches = batches;
    this.encoder = encoder;
    this.columns = columns;
    this.constants = constants;
    this.row = new UnsafeRow(columns.length);
  }

  @Override
  public boolean hasNext() {
    while (next >= numRows) {
      if (batch != null) {
        batch.closeIfFreeable();
        batch = null;
      }
      if (!batches.hasNext()) {
        return false;
      }
      batch = batches.next();
      numRows = batch.numRows();
      next = 0;
      write();
    }
    return true;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    UnsafeRows.view(row, rows, next++ * encoder.rowBytes(), encoder.rowBytes());
    return row;
  }

  private void write() {
    int bytes = numRows * encoder.rowBytes();
    if (rows.length < bytes) {
      rows = new byte[bytes];
    }
    if (numRows > 0 && batch.numCols() > 0 && batch.column(0) instanceof RowArenaColumnVector arena) {
      encoder.encode(arena.rows(), numRows, rows);
    } else {
      if (chunks.length < numRows) {
        chunks = new byte[numRows][];
        offsets = new int[numRows];
      }
      encoder.placeInOrder(rows, numRows, chunks, offsets);
      encoder.encode(batch, 0, numRows, chunks, offsets);
    }
    int bitSetBytes = UnsafeRows.bitSetBytes(columns.length);
    for (int field = 0; field < columns.length; field++) {
      if (columns[field] == FixedWidthRowEncoder.NO_COLUMN) {
        long slot = Platform.BYTE_ARRAY_OFFSET + bitSetBytes + 8L * field;
        for (int r = 0; r < numRows; r++) {
          Platform.putDouble(rows, slot + (long) r * encoder.rowBytes(), constants[field]);
        }
      }
    }
  }
}
