package io.corgipile.source;

import io.corgipile.shuffle.Prefetcher;
import io.corgipile.spark.BlockRows;
import java.io.Closeable;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * The rows of a list of blocks, block after block, from {@code skipRows} rows into the first block,
 * {@code rows} rows in all: a slice of a partition's stream, which may start and end inside a
 * block.
 */
final class BlockRowStream implements Closeable, Prefetcher.Progress {
  /** {@link #rowsSeen} for a prefetcher's consumer thread: opaque, so no fence per row. */
  private static final VarHandle ROWS_SEEN;

  static {
    try {
      ROWS_SEEN =
          MethodHandles.lookup().findVarHandle(BlockRowStream.class, "rowsSeen", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final BlockCursor<BlockRows> blocks;
  private final ReaderMetrics metrics;

  private BlockRows rows;
  private long toSkip;
  private long rowsLeft;
  private long rowsSeen;
  private long rowsPublished;

  BlockRowStream(BlockOpener opener, int[] order, long skipRows, long rows, ReaderMetrics metrics) {
    this.blocks = BlockCursor.rows(opener, order);
    this.toSkip = skipRows;
    this.rowsLeft = rows;
    this.metrics = metrics;
  }

  /** Advances to the next row, opening blocks as needed; false at the end of the slice. */
  boolean next() throws IOException {
    if (rowsLeft == 0) {
      closeCurrent();
      return false;
    }
    while (true) {
      if (nextRowInBlock()) {
        if (toSkip > 0) {
          // A slice that starts inside a block (one split over several fills) decodes and drops the
          // block's earlier rows: Spark's decoders cannot seek to a row.
          toSkip--;
          continue;
        }
        if (--rowsLeft == 0) {
          // The slice's last row: Spark may collect the metrics before the stream is closed.
          publishRows();
        }
        return true;
      }
      if (!blocks.hasNext()) {
        return false;
      }
      closeCurrent();
      rows = blocks.openNext();
    }
  }

  /** Advances to the next row of the current block; false at its end. */
  private boolean nextRowInBlock() throws IOException {
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
    ROWS_SEEN.setOpaque(this, rowsSeen + 1);
    return true;
  }

  @Override
  public long count() {
    return (long) ROWS_SEEN.getOpaque(this);
  }

  /** Names the block being read, as every read error does. */
  @Override
  public RuntimeException stalled(String why) {
    return blocks.failure(new IOException(why));
  }

  /**
   * The rows from the current one on that {@link #writeRun} can write in one go: at least 1, at
   * most {@code max}, never past the slice.
   */
  int runLength(int max) {
    return (int) Math.min(Math.min(max, rows.runAhead()), rowsLeft + 1);
  }

  /** Bytes of each row of the current run. */
  int runRowBytes() {
    return rows.runRowBytes();
  }

  /**
   * Writes the current row and the {@code n - 1} after it ({@code n} at most {@link #runLength}),
   * row i at {@code chunks[i]} from {@code offsets[i]}; the last one written is then the current
   * row.
   */
  void writeRun(int n, byte[][] chunks, int[] offsets) {
    try {
      rows.writeRun(n, chunks, offsets);
    } catch (RuntimeException e) {
      throw blocks.failure(e);
    }
    if (n > 1) {
      rowsLeft -= n - 1;
      ROWS_SEEN.setOpaque(this, rowsSeen + n - 1);
      if (rowsLeft == 0) {
        publishRows();
      }
    }
  }

  /** The current row; valid until the next call that advances the stream. */
  UnsafeRow row() {
    return rows.row();
  }

  private void closeCurrent() throws IOException {
    publishRows();
    rows = null;
    blocks.closeCurrent();
  }

  /** Published per block, not per row: an atomic update per row would cost more than the row. */
  private void publishRows() {
    metrics.rowsRead.addAndGet(rowsSeen - rowsPublished);
    rowsPublished = rowsSeen;
  }

  @Override
  public void close() throws IOException {
    publishRows();
    rows = null;
    blocks.close();
  }
}
