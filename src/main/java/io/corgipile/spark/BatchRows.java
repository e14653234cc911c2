package io.corgipile.spark;

import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Rows of Spark's vectorized reader, converted one batch at a time. */
final class BatchRows implements RowGroupRows {
  private final RowGroupBatches batches;
  private final UnsafeProjection projection;
  private final FixedWidthRowEncoder encoder;
  private ColumnarBatch batch;
  private int next;
  private UnsafeRow row;
  private byte[] encoded = new byte[0];

  /** @param encoder writes the rows of fixed-width schemas, or null to use the projection */
  BatchRows(RowGroupBatches batches, UnsafeProjection projection, FixedWidthRowEncoder encoder, int numFields) {
    this.batches = batches;
    this.projection = projection;
    this.encoder = encoder;
    this.row = new UnsafeRow(numFields);
  }

  @Override
  public boolean next() throws IOException {
    while (batch == null || next >= batch.numRows()) {
      batch = batches.nextBatch();
      if (batch == null) {
        return false;
      }
      next = 0;
      if (encoder != null) {
        int bytes = batch.numRows() * encoder.rowBytes();
        if (encoded.length < bytes) {
          encoded = new byte[bytes];
        }
        encoder.encode(batch, encoded);
      }
    }
    if (encoder != null) {
      UnsafeRows.view(row, encoded, next * encoder.rowBytes(), encoder.rowBytes());
    } else {
      row = projection.apply(batch.getRow(next));
    }
    next++;
    return true;
  }

  @Override
  public UnsafeRow row() {
    return row;
  }

  @Override
  public void close() throws IOException {
    batches.close();
  }
}
