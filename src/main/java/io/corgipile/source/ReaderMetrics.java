package io.corgipile.source;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one partition reader measured. Written by the thread that decodes (possibly the prefetch
 * thread) and read by the task thread when Spark collects metrics.
 */
final class ReaderMetrics {
  final AtomicLong blocksRead = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong rowsRead = new AtomicLong();
  final AtomicLong peakBufferBytes = new AtomicLong();
  final AtomicLong buffersFilledAhead = new AtomicLong();
  final AtomicLong footersRead = new AtomicLong();
  final AtomicLong readersOpened = new AtomicLong();

  void observeBufferBytes(long bytes) {
    peakBufferBytes.accumulateAndGet(bytes, Math::max);
  }
}
