package io.corgipile.source;

import io.corgipile.shuffle.Prefetcher;
import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * Rows emitted buffer by buffer, each buffer filled (and for {@code corgipile} shuffled) by a
 * {@link BufferFiller}: on the task's thread with one buffer, or on a prefetch thread with two.
 */
final class BufferedTupleStream implements TupleStream {
  private final BlockRowStream source;
  private final UnsafeRow row;
  private final TupleShuffleBuffer single;
  private final BufferFiller filler;
  private final ReaderMetrics metrics;
  private final Prefetcher<TupleShuffleBuffer> prefetcher;
  private TupleShuffleBuffer current;
  private int next;
  private boolean exhausted;

  /**
   * @param second a second buffer to enable prefetching, or null
   */
  BufferedTupleStream(BlockRowStream source, BufferFiller filler, int numFields, TupleShuffleBuffer first,
      TupleShuffleBuffer second, String threadName, ReaderMetrics metrics) {
    this.source = source;
    this.filler = filler;
    this.metrics = metrics;
    this.row = new UnsafeRow(numFields);
    if (second == null) {
      this.single = first;
      this.prefetcher = null;
    } else {
      this.single = null;
      this.prefetcher = new Prefetcher<>(threadName, buffer -> {
        boolean filled = filler.fill(buffer);
        metrics.observeBufferBytes(first.allocatedBytes() + second.allocatedBytes());
        return filled;
      }, first, second);
    }
  }

  @Override
  public boolean next() throws IOException {
    while (current == null || next >= current.size()) {
      if (exhausted || !refill()) {
        exhausted = true;
        return false;
      }
    }
    row.pointTo(current.pageOf(next), Platform.BYTE_ARRAY_OFFSET + current.offsetOf(next), current.lengthOf(next));
    next++;
    return true;
  }

  private boolean refill() throws IOException {
    next = 0;
    if (prefetcher == null) {
      current = filler.fill(single) ? single : null;
      metrics.observeBufferBytes(single.allocatedBytes());
      return current != null;
    }
    try {
      current = prefetcher.next();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting for the next shuffled buffer");
    }
    return current != null;
  }

  @Override
  public UnsafeRow get() {
    return row;
  }

  @Override
  public void close() throws IOException {
    try {
      if (prefetcher != null) {
        prefetcher.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      source.close();
    }
  }
}
