package io.corgipile.source;

import io.corgipile.shuffle.Prefetcher;
import io.corgipile.shuffle.RowChunk;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * The rows of a {@link BlockRowStream}, decoded ahead on a background thread: the thread copies
 * them into one {@link RowChunk} while the task reads the other. The rows and their order are the
 * stream's; only the thread that decodes them changes.
 */
final class PrefetchedTupleStream implements TupleStream {
  /**
   * Large enough that handing a chunk over costs little per row, small beside a window or buffer.
   */
  static final int CHUNK_BYTES = 1 << 20;

  private final BlockRowStream source;
  private final Prefetcher<RowChunk> prefetcher;
  private final UnsafeRow row;

  /**
   * A row the last chunk had no room for; it opens the next one. Read and written by the prefetch
   * thread only.
   */
  private boolean pendingRow;

  private RowChunk current;
  private int next;

  PrefetchedTupleStream(BlockRowStream source, int numFields, String threadName) {
    this.source = source;
    this.row = new UnsafeRow(numFields);
    this.prefetcher =
        new Prefetcher<>(
            threadName, this::fill, new RowChunk(CHUNK_BYTES), new RowChunk(CHUNK_BYTES), source);
  }

  /** Fills {@code chunk} with the next rows; false, leaving it empty, at the end of the stream. */
  private boolean fill(RowChunk chunk) throws IOException {
    chunk.clear();
    if (pendingRow) {
      add(chunk);
      pendingRow = false;
    }
    while (source.next()) {
      if (!add(chunk)) {
        pendingRow = true; // the decoder's row stays valid until it is advanced
        break;
      }
    }
    return chunk.size() > 0;
  }

  private boolean add(RowChunk chunk) {
    UnsafeRow in = source.row();
    return chunk.tryAdd(UnsafeRows.bytesOf(in), UnsafeRows.offsetOf(in), in.getSizeInBytes());
  }

  @Override
  public boolean next() throws IOException {
    while (current == null || next >= current.size()) {
      try {
        current = prefetcher.next();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while waiting for rows decoded ahead");
      }
      next = 0;
      if (current == null) {
        return false;
      }
    }
    UnsafeRows.view(row, current.bytes(), current.offsetOf(next), current.lengthOf(next));
    next++;
    return true;
  }

  @Override
  public UnsafeRow get() {
    return row;
  }

  @Override
  public void close() throws IOException {
    try {
      prefetcher.stopThenClose(source);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
