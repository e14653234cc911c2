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
 * decoder that spins fails the task instead of hanging it. With one buffer, the first may come
 * filled already ({@link RoundLookahead}).
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
  private Runnable afterFirstBuffer;
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
    this.source = source;
    this.filler = filler;
    this.metrics = metrics;
    this.first = first;
    this.second = second;
    this.threadName = threadName;
    if (second != null) {
      this.prefetcher = fillThread(); // starts filling at once
    }
  }

  private Prefetcher<TupleShuffleBuffer> fillThread() {
    return new Prefetcher<>(
        threadName,
        buffer -> {
          boolean filled = filler.fill(buffer);
          metrics.observeBufferBytes(
              first.allocatedBytes() + (second == null ? 0 : second.allocatedBytes()));
          return filled;
        },
        first,
        second,
        source);
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
   * One buffer, whose first fill is done: {@code filled}'s, or none when {@code hasRows} is false.
   */
  static ShuffledBuffers prefilled(FilledSlice filled, String threadName) {
    ShuffledBuffers buffers =
        new ShuffledBuffers(
            filled.source(), filled.filler(), filled.buffer(), null, threadName, filled.metrics());
    filled.metrics().buffersFilledAhead.incrementAndGet();
    buffers.prefilled = filled.hasRows();
    buffers.exhausted = !filled.hasRows();
    return buffers;
  }

  /** Runs {@code action} once the first buffer is ready, on the task's thread: at once if it is. */
  void afterFirstBuffer(Runnable action) {
    if (prefilled) {
      action.run();
    } else {
      afterFirstBuffer = action;
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
    TupleShuffleBuffer buffer = nextBuffer();
    if (afterFirstBuffer != null) {
      Runnable action = afterFirstBuffer;
      afterFirstBuffer = null;
      action.run();
    }
    return buffer;
  }

  private TupleShuffleBuffer nextBuffer() throws IOException {
    if (exhausted) {
      return null;
    }
    if (prefilled) {
      prefilled = false;
      metrics.observeBufferBytes(first.allocatedBytes()); // prefilled: one buffer
      return first;
    }
    if (prefetcher == null) {
      prefetcher = fillThread(); // one buffer, no longer read
    }
    TupleShuffleBuffer buffer;
    try {
      buffer = prefetcher.next();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting for the next shuffled buffer");
    }
    exhausted = buffer == null;
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
