package io.corgipile.source;

import io.corgipile.shuffle.SlidingWindow;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/** Storage order through a {@link SlidingWindow}: the {@code window} mode. */
final class WindowTupleStream implements TupleStream {
  private final BlockRowStream source;
  private final SlidingWindow window;
  private final ReaderMetrics metrics;
  private final UnsafeRow row;
  private boolean sourceDone;
  private long observedBytes;

  WindowTupleStream(BlockRowStream source, SlidingWindow window, int numFields, ReaderMetrics metrics) {
    this.source = source;
    this.window = window;
    this.metrics = metrics;
    this.row = new UnsafeRow(numFields);
  }

  @Override
  public boolean next() throws IOException {
    if (!window.isFilled()) {
      while (source.next()) {
        UnsafeRow in = source.row();
        if (!window.tryFill(UnsafeRows.bytesOf(in), UnsafeRows.offsetOf(in), in.getSizeInBytes())) {
          // The window is full: this row is the first replacement.
          window.emitAndReplace(UnsafeRows.bytesOf(in), UnsafeRows.offsetOf(in), in.getSizeInBytes());
          return emitted();
        }
      }
      sourceDone = true;
      window.endFill();
    } else if (!sourceDone) {
      if (source.next()) {
        UnsafeRow in = source.row();
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
