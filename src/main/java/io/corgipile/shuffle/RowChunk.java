package io.corgipile.shuffle;

import java.util.Arrays;

/**
 * Rows copied one after another into one byte array: what a decoding thread hands to the thread
 * that reads them, many rows at a time. A row larger than the whole chunk is kept, alone.
 */
public final class RowChunk {
  private final byte[] standard;
  private byte[] bytes;

  /** Row i is bytes [starts[i], starts[i + 1]). */
  private int[] starts = new int[1025];

  private int size;

  /** A chunk of {@code capacity} bytes of rows. */
  public RowChunk(int capacity) {
    this.standard = new byte[capacity];
    this.bytes = standard;
  }

  /** Empties the chunk, giving back the room a row larger than the chunk took. */
  public void clear() {
    bytes = standard;
    size = 0;
  }

  /**
   * Appends a row; false, leaving the chunk as it was, when it holds rows and this one does not
   * fit.
   */
  public boolean tryAdd(byte[] src, int offset, int length) {
    int end = starts[size];
    if (bytes.length - end < length) {
      if (size > 0) {
        return false;
      }
      bytes = new byte[length];
    }
    if (size + 1 == starts.length) {
      starts = Arrays.copyOf(starts, 2 * starts.length);
    }
    System.arraycopy(src, offset, bytes, end, length);
    starts[++size] = end + length;
    return true;
  }

  public int size() {
    return size;
  }

  public byte[] bytes() {
    return bytes;
  }

  public int offsetOf(int row) {
    return starts[row];
  }

  public int lengthOf(int row) {
    return starts[row + 1] - starts[row];
  }
}
