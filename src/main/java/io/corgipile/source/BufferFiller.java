package io.corgipile.source;

import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * Pours blocks into a {@link TupleShuffleBuffer} and shuffles it: one fill per call.
 *
 * <p>A block that would not fit in the space left ends the fill, so a buffer holds whole blocks;
 * only a block larger than the whole buffer is split. A row that did not fit is kept (the
 * decoder's row stays valid until it is advanced) and opens the next fill. Fills run strictly one
 * after another, so their contents do not depend on threads.
 */
final class BufferFiller {
  private final BlockRowStream source;
  private boolean pendingRow;

  BufferFiller(BlockRowStream source) {
    this.source = source;
  }

  /** Fills {@code buffer} from scratch; false when no rows were left. */
  boolean fill(TupleShuffleBuffer buffer) throws IOException {
    buffer.clear();
    if (pendingRow && !add(buffer)) {
      throw new IllegalStateException("Cannot add a row to an empty tuple buffer");
    }
    pendingRow = false;
    while (true) {
      if (source.nextRowInBlock()) {
        if (!add(buffer)) {
          pendingRow = true;
          break;
        }
        continue;
      }
      if (!source.hasNextBlock() || (!buffer.isEmpty() && !fits(buffer, source.nextBlockRows()))) {
        break;
      }
      source.openNextBlock();
    }
    buffer.shuffle();
    return !buffer.isEmpty();
  }

  private boolean add(TupleShuffleBuffer buffer) {
    UnsafeRow row = source.row();
    return buffer.tryAdd(UnsafeRows.bytesOf(row), UnsafeRows.offsetOf(row), row.getSizeInBytes());
  }

  private boolean fits(TupleShuffleBuffer buffer, long rows) {
    if (rows > buffer.remainingRows()) {
      return false;
    }
    long bytes = buffer.remainingBytes();
    return bytes == Long.MAX_VALUE || rows * source.averageRowBytes() <= bytes;
  }
}
