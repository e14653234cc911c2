package io.corgipile.spark;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * The decoded rows of one block (a row group, or a range of its rows), in the scan's output schema:
 * one at a time ({@link #row}), or a run at a time written straight where the caller wants them
 * ({@link #writeRun}).
 */
public interface BlockRows extends Closeable {
  /** Advances to the next row; false at the end of the block. */
  boolean next() throws IOException;

  /** The current row; reused by the next call to {@link #next()}. */
  UnsafeRow row();

  /**
   * The rows from the current one on that {@link #writeRun} can write in one go, all of {@link
   * #runRowBytes} bytes: at least 1. Rows that come one at a time make runs of 1.
   */
  default int runAhead() {
    return 1;
  }

  /** Bytes of each row of the current run. */
  default int runRowBytes() {
    return row().getSizeInBytes();
  }

  /**
   * Writes the current row and the {@code n - 1} after it (at most {@link #runAhead}), row i at
   * {@code chunks[i]} from {@code offsets[i]} (an index into the array); the last one written is
   * then the current row.
   */
  default void writeRun(int n, byte[][] chunks, int[] offsets) {
    UnsafeRow row = row();
    Platform.copyMemory(
        row.getBaseObject(),
        row.getBaseOffset(),
        chunks[0],
        Platform.BYTE_ARRAY_OFFSET + offsets[0],
        row.getSizeInBytes());
  }
}
