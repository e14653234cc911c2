package io.corgipile.source;

import io.corgipile.shuffle.Prefetcher;
import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * A partition's shuffled buffers, one after the other, each filled by a {@link BufferFiller} on a
 * fill thread: with two buffers one is filled while the task reads the other; with one, the task
 * waits for its fill. Either way the task watches the fill ({@link Prefetcher.Progress}), so a
 * decoder that spins fails the task instead of hanging it. The first buffer may come filled already
 * ({@link RoundLookahead}); the second then fills from the slice's next fill at once.
 */
final class ShuffledBuffers implements Closeable {
  private final BlockRowStream source;
  private final BufferFiller filler;
  private final ReaderMetrics metrics;
  private final TupleShuffleBuffer first;
  private final TupleShuffleBuffer second;
  private final String threadName;
  private Prefetcher<TupleShuffleBuffer> prefetcher;
  private boolean prefilled;
  private boolean lastFillReady;
  private Runnable afterLastFill;
  private Runnable afterLastBuffer;
  private boolean exhausted;
  private TupleShuffleBuffer current;
  private int next;
  private int runStart;

  /**
   * @param second a second buffer to enable prefetching, or null
   * @param threadName the fill thread's name
   */
  ShuffledBuffers(
      BlockRowStream source,
      BufferFiller filler,
      TupleShuffleBuffer first,
      TupleShuffleBuffer second,
      String threadName,
      ReaderMetrics metrics) {
    this(source, filler, first, second, threadName, metrics, false, false);
  }

  private ShuffledBuffers(
      BlockRowStream source,
      BufferFiller filler,
      TupleShuffleBuffer first,
      TupleShuffleBuffer second,
      String threadName,
      ReaderMetrics metrics,
      boolean prefilled,
      boolean exhausted) {
    this.source = source;
    this.filler = filler;
    this.metrics = metrics;
    this.first = first;
    this.second = second;
    this.threadName = threadName;
    this.prefilled = prefilled;
    this.exhausted = exhausted;
    this.lastFillReady = exhausted;
    if (second != null && !exhausted) {
      // starts filling at once
      this.prefetcher =
          prefilled
              ? Prefetcher.holding(threadName, this::fill, first, second, source)
              : new Prefetcher<>(threadName, this::fill, first, second, source);
    }
  }

  /**
   * The slice of {@code filled}, whose first buffer is filled already; with {@code second}, the
   * slice's next fill goes there at once.
   */
  static ShuffledBuffers prefilled(
      FilledSlice filled, TupleShuffleBuffer second, String threadName) {
    filled.metrics().buffersFilledAhead.incrementAndGet();
    return new ShuffledBuffers(
        filled.source(),
        filled.filler(),
        filled.buffer(),
        second,
        threadName,
        filled.metrics(),
        filled.hasRows(),
        !filled.hasRows());
  }

  /**
   * Fills {@code buffer} on the fill thread. With two buffers, the fill that finds no rows left was
   * handed the buffer the task read before its last: nothing reads it any more, so its memory goes
   * to whatever fills next in this JVM ({@link #afterLastFill}).
   */
  private boolean fill(TupleShuffleBuffer buffer) throws IOException {
    boolean filled = filler.fill(buffer);
    metrics.observeBufferBytes(
        first.allocatedBytes() + (second == null ? 0 : second.allocatedBytes()));
    if (!filled && second != null) {
      buffer.release();
      lastFillReady();
    }
    return filled;
  }

  /**
   * Moves on to the next run of at most {@code max} rows, refilling when the current buffer is used
   * up; the run is rows {@code [runStart(), runStart() + n)} of {@link #current()}, valid until the
   * next call.
   *
   * @return the run's length n, or 0 when all blocks are read
   */
  int nextRun(int max) throws IOException {
    while (current == null || next >= current.size()) {
      current = refill();
      next = 0;
      if (current == null) {
        return 0;
      }
    }
    int n = Math.min(max, current.size() - next);
    runStart = next;
    next += n;
    return n;
  }

  TupleShuffleBuffer current() {
    return current;
  }

  int runStart() {
    return runStart;
  }

  /**
   * Runs {@code action} once the slice's last fill is in the buffer the task reads and the
   * partition holds no other buffer: with one buffer, on the task's thread when it takes that
   * buffer; with two, on the fill thread once it has let the other go. At once if that time has
   * come; never when the task fails or stops before.
   */
  void afterLastFill(Runnable action) {
    synchronized (this) {
      if (!lastFillReady) {
        afterLastFill = action;
        return;
      }
    }
    action.run();
  }

  private void lastFillReady() {
    Runnable action;
    synchronized (this) {
      lastFillReady = true;
      action = afterLastFill;
      afterLastFill = null;
    }
    if (action != null) {
      action.run();
    }
  }

  /**
   * Runs {@code action} on close, once the buffers are let go, when every buffer has been read: not
   * after a task that failed or stopped early.
   */
  void afterLastBuffer(Runnable action) {
    afterLastBuffer = action;
  }

  ReaderMetrics metrics() {
    return metrics;
  }

  /** The next filled and shuffled buffer, or null; the previous one goes back to the filler. */
  private TupleShuffleBuffer refill() throws IOException {
    if (exhausted) {
      return null;
    }
    TupleShuffleBuffer buffer;
    if (prefilled) {
      prefilled = false;
      metrics.observeBufferBytes(first.allocatedBytes());
      buffer = first;
    } else {
      if (prefetcher == null) {
        prefetcher = new Prefetcher<>(threadName, this::fill, first, null, source); // one buffer
      }
      try {
        buffer = prefetcher.next();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while waiting for the next shuffled buffer");
      }
      exhausted = buffer == null;
    }
    if (buffer == null || second == null && filler.filledAll()) {
      // with one buffer the fill thread now waits for it back, and no longer touches the filler
      lastFillReady();
    }
    return buffer;
  }

  /**
   * Stops the fill thread, hands the buffers' memory on to the next task's, and closes the source.
   */
  @Override
  public void close() throws IOException {
    if (prefetcher == null) {
      releaseBuffers();
      source.close();
      runAfterLastBuffer();
      return;
    }
    try {
      if (prefetcher.stopThenClose(source)) {
        releaseBuffers();
        runAfterLastBuffer();
      }
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private void runAfterLastBuffer() {
    Runnable action = afterLastBuffer;
    afterLastBuffer = null;
    if (action != null && exhausted) {
      action.run();
    }
  }

  private void releaseBuffers() {
    first.release();
    if (second != null) {
      second.release();
    }
  }
}
