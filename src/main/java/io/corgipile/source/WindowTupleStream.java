package io.corgipile.source;

import io.corgipile.shuffle.SlidingWindow;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * Storage order through a {@link SlidingWindow}: the {@code window} mode. Its input is the slice's
 * rows, decoded on the task's thread or ahead of it ({@link PrefetchedTupleStream}); either way the
 * same rows in the same order, so the window emits the same order.
 */
final class WindowTupleStream implements TupleStream {
  private final TupleStream source;
  private final SlidingWindow window;
  private final ReaderMetrics metrics;
  private final UnsafeRow row;
  private boolean sourceDone;
  private long observedBytes;

  WindowTupleStream(
      TupleStream source, SlidingWindow window, int numFields, ReaderMetrics metrics) {
    this.source = source;
    this.window = window;
    this.metrics = metrics;
    this.row = new UnsafeRow(numFields);
  }

  @Override
  public boolean next() throws IOException {
    if (!window.isFilled()) {
      while (source.next()) {
        UnsafeRow in = source.get();
        if (!window.tryFill(UnsafeRows.bytesOf(in), UnsafeRows.offsetOf(in), in.getSizeInBytes())) {
          // The window is full: this row is the first replacement.
          window.emitAndReplace(
              UnsafeRows.bytesOf(in), UnsafeRows.offsetOf(in), in.getSizeInBytes());
          return emitted();
        }
      }
      sourceDone = true;
      window.endFill();
    } else if (!sourceDone) {
      if (source.next()) {
        UnsafeRow in = source.get();
        window.emitAndReplace(UnsafeRows.bytesOf(in), UnsafeRows.offsetOf(in), in.getSizeInBytes());
        return emitted();
      }
      sourceDone = true;
    }
    if (window.size() == 0) {
      return false;
    }
    window.emitAndRemove();
    return emitted();
  }

  /**
   * Makes room for {@code bytes} of rows to come, so that the rows emitted meanwhile stay where
   * they are ({@link SlidingWindow#reserve}).
   */
  void reserve(long bytes) {
    window.reserve(bytes);
  }

  /**
   * Whether a row of {@code bytes} can come in without moving the rows emitted since {@link
   * #reserve}.
   */
  boolean hasRoomFor(long bytes) {
    return window.room() >= bytes;
  }

  private boolean emitted() {
    if (window.peakBytes() != observedBytes) {
      observedBytes = window.peakBytes();
      metrics.observeBufferBytes(observedBytes);
    }
    UnsafeRows.view(row, window.emittedArray(), window.emittedOffset(), window.emittedLength());
    return true;
  }

  @Override
  public UnsafeRow get() {
    return row;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
