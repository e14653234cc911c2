package io.corgipile.spark;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;

/**
 * The rows of column batches in the layout of a {@link ScanProjection}: a tile of rows at a time
 * written into one small reused array, small enough to stay in the L1 cache until its rows are
 * read, then each row viewed in place. A batch of a {@code corgipile} buffer's rows in the layout
 * asked for is not copied at all: each row is viewed where the buffer holds it. A batch is let go
 * as Spark's own column-to-row conversion lets it go ({@code closeIfFreeable}) once its rows are
 * read.
 */
final class ProjectedBatchRows implements Iterator<InternalRow> {
  private final Iterator<ColumnarBatch> batches;
  private final FixedWidthRowEncoder encoder;
  private final int[] columns;
  private final double[] constants;
  private final UnsafeRow row;
  private final byte[] tile;
  private ColumnarBatch batch;

  /** The batch's rows, when they are a {@code corgipile} buffer's, read in place; else null. */
  private RowArenaColumnVector.Rows arenaRows;

  /** Whether {@link #arenaRows} are in the layout asked for, so read where they are. */
  private boolean inPlace;

  private int numRows;

  /** The next row of the batch. */
  private int next;

  private int tileFirst;
  private int tileRows;

  ProjectedBatchRows(
      Iterator<ColumnarBatch> batches,
      FixedWidthRowEncoder encoder,
      int[] columns,
      double[] constants) {
    this.batches = batches;
    this.encoder = encoder;
    this.columns = columns;
    this.constants = constants;
    this.row = new UnsafeRow(columns.length);
    this.tile = new byte[FixedWidthRowEncoder.TILE_ROWS * encoder.rowBytes()];
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
      arenaRows =
          numRows > 0
                  && batch.numCols() > 0
                  && batch.column(0) instanceof RowArenaColumnVector arena
              ? arena.rows()
              : null;
      inPlace = arenaRows != null && encoder.writesRowsAsTheyAre(arenaRows.numFields());
      next = 0;
      tileFirst = 0;
      tileRows = 0;
    }
    return true;
  }

  @Override
  public InternalRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    if (inPlace) {
      row.pointTo(arenaRows.base(next), arenaRows.offset(next), encoder.rowBytes());
      next++;
      return row;
    }
    if (next >= tileFirst + tileRows) {
      writeTile();
    }
    UnsafeRows.view(row, tile, (next++ - tileFirst) * encoder.rowBytes(), encoder.rowBytes());
    return row;
  }

  /** Writes the tile of rows from {@link #next} on. */
  private void writeTile() {
    tileFirst = next;
    tileRows = Math.min(FixedWidthRowEncoder.TILE_ROWS, numRows - next);
    if (arenaRows != null) {
      encoder.encode(arenaRows, tileFirst, tileRows, tile);
    } else {
      encoder.encode(batch, tileFirst, tileRows, tile);
    }
    int bitSetBytes = UnsafeRows.bitSetBytes(columns.length);
    for (int field = 0; field < columns.length; field++) {
      if (columns[field] == FixedWidthRowEncoder.NO_COLUMN) {
        long slot = Platform.BYTE_ARRAY_OFFSET + bitSetBytes + 8L * field;
        for (int r = 0; r < tileRows; r++) {
          Platform.putDouble(tile, slot + (long) r * encoder.rowBytes(), constants[field]);
        }
      }
    }
  }
}
