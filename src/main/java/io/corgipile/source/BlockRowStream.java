package io.corgipile.source;

import io.corgipile.spark.RowGroupRows;
import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/** The rows of a list of blocks, block after block. */
final class BlockRowStream implements Closeable {
  private final BlockCursor<RowGroupRows> blocks;
  private final ReaderMetrics metrics;

  private RowGroupRows rows;
  private long rowsSeen;
  private long rowsPublished;
  private long bytesSeen;

  BlockRowStream(BlockOpener opener, int[] order, ReaderMetrics metrics) {
    this.blocks = BlockCursor.rows(opener, order);
    this.metrics = metrics;
  }

  /** Whether another block remains after the current one. */
  boolean hasNextBlock() {
    return blocks.hasNext();
  }

  /** Rows of the block {@link #openNextBlock()} would open. */
  long nextBlockRows() {
    return blocks.nextRows();
  }

  /** Average bytes of the rows decoded so far, or 0 before the first row. */
  double averageRowBytes() {
    return rowsSeen == 0 ? 0 : (double) bytesSeen / rowsSeen;
  }

  /** Closes the current block and opens the next one. */
  void openNextBlock() throws IOException {
    closeCurrent();
    rows = blocks.openNext();
  }

  /** Advances to the next row of the current block; false at its end. */
  boolean nextRowInBlock() throws IOException {
    if (rows == null) {
      return false;
    }
    try {
      if (!rows.next()) {
        closeCurrent();
        return false;
      }
    } catch (IOException | RuntimeException e) {
      throw blocks.failure(e);
    }
    rowsSeen++;
    bytesSeen += rows.row().getSizeInBytes();
    return true;
  }

  /** Advances to the next row, opening blocks as needed; false when all blocks are read. */
  boolean next() throws IOException {
    while (!nextRowInBlock()) {
      if (!hasNextBlock()) {
        return false;
      }
      openNextBlock();
    }
    return true;
  }

  /** The current row; valid until the next call that advances the stream. */
  UnsafeRow row() {
    return rows.row();
  }

  private void closeCurrent() throws IOException {
    // Published per block, not per row: an atomic update per row would cost more than the row.
    metrics.rowsRead.addAndGet(rowsSeen - rowsPublished);
    rowsPublished = rowsSeen;
    rows = null;
    blocks.closeCurrent();
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
  }
}
