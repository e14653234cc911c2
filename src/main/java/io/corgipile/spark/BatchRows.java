package io.corgipile.spark;

import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Rows of Spark's vectorized reader. Fixed-width rows are encoded where they are asked for: a run
 * straight to its destination ({@link #writeRun}), single rows a tile at a time into a scratch array
 * small enough to stay in cache; other rows through the projection, one at a time.
 */
final class BatchRows implements RowGroupRows {
  /** Rows encoded at a time for {@link #row()}. */
  private static final int TILE_ROWS = 64;

  private final RowGroupBatches batches;
  private final UnsafeProjection projection;
  private final FixedWidthRowEncoder encoder;
  private ColumnarBatch batch;
  /** The index after the current row in {@link #batch}. */
  private int next;
  private UnsafeRow row;
  private byte[] tile = new byte[0];
  private final byte[][] tileChunks = new byte[TILE_ROWS][];
  private final int[] tileOffsets = new int[TILE_ROWS];
  /** The batch row {@link #tile} starts with, or -1 when it holds none of this batch. */
  private int tileFirst = -1;
  private int tileRows;

  /** @param encoder writes the rows of fixed-width schemas, or null to use the projection */
  BatchRows(RowGroupBatches batches, UnsafeProjection projection, FixedWidthRowEncoder encoder, int numFields) {
    this.batches = batches;
    this.projection = projection;
    this.encoder = encoder;
    this.row = new UnsafeRow(numFields);
    if (encoder != null) {
      tile = new byte[TILE_ROWS * encoder.rowBytes()];
      encoder.placeInOrder(tile, TILE_ROWS, tileChunks, tileOffsets);
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
      tileFirst = -1;
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
      int current = next - 1;
      if (tileFirst < 0 || current < tileFirst || current >= tileFirst + tileRows) {
        tileFirst = current;
        tileRows = Math.min(TILE_ROWS, batch.numRows() - current);
        encoder.encode(batch, current, tileRows, tileChunks, tileOffsets);
      }
      UnsafeRows.view(row, tile, (current - tileFirst) * encoder.rowBytes(), encoder.rowBytes());
    }
    return row;
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
      RowGroupRows.super.writeRun(n, chunks, offsets);
      return;
    }
    encoder.encode(batch, next - 1, n, chunks, offsets);
    next += n - 1;
  }

  @Override
  public void close() throws IOException {
    batches.close();
  }
}
