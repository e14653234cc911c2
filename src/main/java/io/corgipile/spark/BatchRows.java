package io.corgipile.spark;

import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Rows of Spark's vectorized reader. Fixed-width rows are encoded a tile at a time into a scratch
 * array small enough to stay in the L1 cache, as they are asked for, and a run of them copied from
 * there to where the caller wants each ({@link #writeRun}); other rows go through the projection,
 * one at a time. Encoding a column at a time straight into rows scattered over a shuffle buffer's
 * buckets costs twice as much: every column's pass touches every row's page again.
 */
final class BatchRows implements BlockRows {
  private final BlockBatches batches;
  private final UnsafeProjection projection;
  private final FixedWidthRowEncoder encoder;
  private ColumnarBatch batch;

  /** The index after the current row in {@link #batch}. */
  private int next;

  private UnsafeRow row;
  private byte[] tile = new byte[0];

  /**
   * The batch rows {@link #tile} holds: {@code tileRows} from {@code tileFirst}; none of a new
   * batch.
   */
  private int tileFirst;

  private int tileRows;

  /**
   * @param encoder writes the rows of fixed-width schemas, or null to use the projection
   */
  BatchRows(
      BlockBatches batches,
      UnsafeProjection projection,
      FixedWidthRowEncoder encoder,
      int numFields) {
    this.batches = batches;
    this.projection = projection;
    this.encoder = encoder;
    this.row = new UnsafeRow(numFields);
    if (encoder != null) {
      tile = new byte[FixedWidthRowEncoder.TILE_ROWS * encoder.rowBytes()];
    }
  }

  @Override
  public boolean next() throws IOException {
    while (batch == null || next >= batch.numRows()) {
      batch = batches.nextBatch();
      if (batch == null) {
        return false;
      }
      next = 0;
      tileRows = 0;
    }
    if (encoder == null) {
      row = projection.apply(batch.getRow(next));
    }
    next++;
    return true;
  }

  @Override
  public UnsafeRow row() {
    if (encoder != null) {
      UnsafeRows.view(row, tile, tileOffset(), encoder.rowBytes());
    }
    return row;
  }

  /** Where the current row is in {@link #tile}, encoding its tile first if need be. */
  private int tileOffset() {
    int current = next - 1;
    if (current < tileFirst || current >= tileFirst + tileRows) {
      tileFirst = current;
      tileRows = Math.min(FixedWidthRowEncoder.TILE_ROWS, batch.numRows() - current);
      encoder.encode(batch, current, tileRows, tile);
    }
    return (current - tileFirst) * encoder.rowBytes();
  }

  @Override
  public int runAhead() {
    return encoder == null ? 1 : batch.numRows() - (next - 1);
  }

  @Override
  public int runRowBytes() {
    return encoder == null ? row.getSizeInBytes() : encoder.rowBytes();
  }

  @Override
  public void writeRun(int n, byte[][] chunks, int[] offsets) {
    if (encoder == null) {
      BlockRows.super.writeRun(n, chunks, offsets);
      return;
    }
    int rowBytes = encoder.rowBytes();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        next++;
      }
      System.arraycopy(tile, tileOffset(), chunks[i], offsets[i], rowBytes);
    }
  }

  @Override
  public void close() throws IOException {
    batches.close();
  }
}
