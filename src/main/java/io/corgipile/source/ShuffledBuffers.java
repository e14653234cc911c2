package io.corgipile.source;

import io.corgipile.shuffle.Prefetcher;
import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * A partition's shuffled buffers, one after the other, each filled by a {@link BufferFiller}: on
 * the task's thread with one buffer, or on a prefetch thread with two.
 */
final class ShuffledBuffers implements Closeable {
  private final BlockRowStream source;
  private final BufferFiller filler;
  private final ReaderMetrics metrics;
  private final TupleShuffleBuffer single;
  private final Prefetcher<TupleShuffleBuffer> prefetcher;
  private boolean exhausted;

  /**
   * @param second a second buffer to enable prefetching, or null
   * @param threadName the prefetch thread's name
   */
  ShuffledBuffers(BlockRowStream source, BufferFiller filler, TupleShuffleBuffer first, TupleShuffleBuffer second,
      String threadName, ReaderMetrics metrics) {
    this.source = source;
    this.filler = filler;
    this.metrics = metrics;
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

  /**
   * The next filled and shuffled buffer, or null when all blocks are read. The buffer returned
   * before must no longer be read.
   */
  TupleShuffleBuffer next() throws IOException {
    if (exhausted) {
      return null;
    }
    TupleShuffleBuffer buffer;
    if (prefetcher == null) {
      buffer = filler.fill(single) ? single : null;
      metrics.observeBufferBytes(single.allocatedBytes());
    } else {
      try {
        buffer = prefetcher.next();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while waiting for the next shuffled buffer");
      }
    }
    exhausted = buffer == null;
    return buffer;
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
