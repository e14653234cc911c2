package io.corgipile.shuffle;

import java.util.Arrays;

/**
 * The tf.data {@code shuffle(buffer)} baseline: a window of tuples in storage order; each step
 * emits a random slot and puts the next input tuple in its place; at the end of the input the
 * window drains in random order.
 *
 * <p>Tuples live in one byte array used as a log: a replacement is appended at the end, and when
 * the end is reached the live tuples are compacted to the front. The array is at most twice the
 * live bytes (plus one tuple), or the live bytes plus a {@link #reserve reservation}, so compaction
 * costs O(1) amortized per tuple.
 *
 * <p>The window's slot count is fixed by the first fill: up to {@code maxRows} tuples, stopping
 * early once {@code maxBytes} of tuple data are held.
 */
public final class SlidingWindow {
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;
  private static final int INDEX_BYTES_PER_ROW = 2 * Integer.BYTES;

  private final long maxRows;
  private final long maxBytes;
  private final SplitMix64 random;

  private byte[] log = new byte[0];
  private int logEnd;
  private int[] offsets = new int[0];
  private int[] lengths = new int[0];
  private int size;
  private long liveBytes;
  private boolean filling = true;
  private long peakBytes;

  private int emittedOffset;
  private int emittedLength;
  private byte[] emittedArray;

  public SlidingWindow(long maxRows, long maxBytes, SplitMix64 random) {
    if (maxRows < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "Cannot create a sliding window: capacity must be positive, got "
              + maxRows
              + " rows, "
              + maxBytes
              + " bytes");
    }
    this.maxRows = Math.min(maxRows, MAX_ARRAY);
    this.maxBytes = maxBytes;
    this.random = random;
  }

  public int size() {
    return size;
  }

  /** Whether the first fill is over: from now on every input tuple replaces an emitted one. */
  public boolean isFilled() {
    return !filling;
  }

  /**
   * Adds a tuple during the first fill; returns false (and ends the fill) once the window is full.
   */
  public boolean tryFill(byte[] src, int offset, int length) {
    if (!filling) {
      return false;
    }
    if (size >= maxRows || (size > 0 && liveBytes + length > maxBytes)) {
      filling = false;
      return false;
    }
    if (size == offsets.length) {
      int capacity = (int) Math.min(maxRows, Math.max(1024L, 2L * offsets.length));
      offsets = Arrays.copyOf(offsets, capacity);
      lengths = Arrays.copyOf(lengths, capacity);
    }
    int at = append(src, offset, length, -1);
    offsets[size] = at;
    lengths[size] = length;
    size++;
    return true;
  }

  /** Ends the first fill early (the input ended before the window was full). */
  public void endFill() {
    filling = false;
  }

  /**
   * Emits a random slot and stores the given tuple in its place. The emitted tuple stays readable
   * through {@link #emittedArray()} until the next call.
   */
  public void emitAndReplace(byte[] src, int offset, int length) {
    filling = false;
    int slot = random.nextInt(size);
    // Make room first, while the emitted tuple still counts as live, so compaction keeps it.
    int at = append(src, offset, length, slot);
    markEmitted(slot);
    liveBytes -= lengths[slot];
    offsets[slot] = at;
    lengths[slot] = length;
  }

  /**
   * Makes room for {@code bytes} more tuple bytes, so that appending them does not compact the log:
   * every tuple emitted from now until those bytes are used stays readable where it was emitted,
   * which lets a caller hand out many emitted tuples at once. Compacts or grows the log now when
   * needed; the log then holds at most twice the live bytes, or the live bytes plus {@code bytes}.
   */
  public void reserve(long bytes) {
    if (room() >= bytes) {
      return;
    }
    compact();
    if (log.length - logEnd < bytes || logEnd > log.length / 2) {
      grow(Math.max(Math.max(2 * liveBytes, liveBytes + bytes), 64L << 10));
    }
  }

  /** The tuple bytes that can be appended before the log must be compacted or grown. */
  public long room() {
    return log.length - logEnd;
  }

  /** Emits a random slot and removes it: the drain at the end of the input. */
  public void emitAndRemove() {
    filling = false;
    int slot = random.nextInt(size);
    markEmitted(slot);
    liveBytes -= lengths[slot];
    size--;
    offsets[slot] = offsets[size];
    lengths[slot] = lengths[size];
  }

  public byte[] emittedArray() {
    return emittedArray;
  }

  public int emittedOffset() {
    return emittedOffset;
  }

  public int emittedLength() {
    return emittedLength;
  }

  /** The most bytes this window has allocated: the log plus the slot index. */
  public long peakBytes() {
    return peakBytes;
  }

  private void markEmitted(int slot) {
    emittedArray = log;
    emittedOffset = offsets[slot];
    emittedLength = lengths[slot];
  }

  /** Appends a tuple to the log, compacting or growing it first when the end is reached. */
  private int append(byte[] src, int offset, int length, int replacedSlot) {
    if (log.length - logEnd < length) {
      compact();
      long live = liveBytes + length;
      if (log.length - logEnd < length || logEnd > log.length / 2) {
        grow(Math.max(2 * live, 64L << 10));
      }
    }
    System.arraycopy(src, offset, log, logEnd, length);
    int at = logEnd;
    logEnd += length;
    liveBytes += length;
    notePeak();
    return at;
  }

  /** Slides the live tuples to the front of the log, in their current address order. */
  private void compact() {
    long[] byAddress = new long[size];
    for (int i = 0; i < size; i++) {
      byAddress[i] = ((long) offsets[i] << 32) | i;
    }
    Arrays.sort(byAddress);
    int end = 0;
    for (long key : byAddress) {
      int slot = (int) key;
      System.arraycopy(log, offsets[slot], log, end, lengths[slot]);
      offsets[slot] = end;
      end += lengths[slot];
    }
    logEnd = end;
  }

  private void grow(long wanted) {
    if (wanted > MAX_ARRAY) {
      throw new IllegalStateException(
          "Cannot hold a sliding window of "
              + wanted
              + " bytes in one partition: at most "
              + MAX_ARRAY
              + " bytes fit; use more partitions or a smaller bufferSize");
    }
    log = Arrays.copyOf(log, (int) wanted);
    notePeak();
  }

  private void notePeak() {
    peakBytes =
        Math.max(peakBytes, (long) log.length + (long) offsets.length * INDEX_BYTES_PER_ROW);
  }
}
