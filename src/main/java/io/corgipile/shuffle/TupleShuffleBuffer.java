package io.corgipile.shuffle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A bounded buffer of serialized tuples that can be shuffled in place.
 *
 * <p>Tuples are copied into large byte pages (an arena), so a buffer of millions of rows is a few
 * arrays, not millions of objects. Shuffling permutes only the (position, length) index. Pages are
 * kept across {@link #clear()} so refilling allocates nothing.
 *
 * <p>Capacity is a row count, a byte budget, or both. The byte budget covers everything the buffer
 * allocates: pages and index arrays. Under a row count alone, allocation exceeds the tuples' bytes
 * by at most a quarter plus one page, and the index by at most its doubling. A single tuple larger
 * than the whole budget is still accepted into an empty buffer, so reading always makes progress.
 */
public final class TupleShuffleBuffer {
  static final int MIN_PAGE = 64 << 10;
  static final int MAX_PAGE = 64 << 20;
  private static final int INDEX_BYTES_PER_ROW = Long.BYTES + Integer.BYTES;
  private static final int MAX_ROWS = Integer.MAX_VALUE - 16;

  private final long maxRows;
  private final long maxBytes;
  private final List<byte[]> pages = new ArrayList<>();
  private long pageBytes;
  private int page = -1;
  private int pageFill;

  private long[] positions = new long[0];
  private int[] lengths = new int[0];
  private int size;
  private long usedBytes;

  public TupleShuffleBuffer(long maxRows, long maxBytes) {
    if (maxRows < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "Cannot create a tuple buffer: capacity must be positive, got " + maxRows + " rows, " + maxBytes + " bytes");
    }
    this.maxRows = Math.min(maxRows, MAX_ROWS);
    this.maxBytes = maxBytes;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public boolean isFullByRows() {
    return size >= maxRows;
  }

  /** Rows that still fit by the row limit. */
  public long remainingRows() {
    return maxRows - size;
  }

  /** Bytes the buffer holds allocated now: pages plus index. */
  public long allocatedBytes() {
    return pageBytes + (long) positions.length * INDEX_BYTES_PER_ROW;
  }

  /** Bytes of tuple data held now. */
  public long usedBytes() {
    return usedBytes;
  }

  /** Bytes still free in the budget, counting index space for the rows that fit. */
  public long remainingBytes() {
    return maxBytes == Long.MAX_VALUE ? Long.MAX_VALUE : maxBytes - usedBytes - (long) size * INDEX_BYTES_PER_ROW;
  }

  /** Empties the buffer, keeping its memory for the next fill. */
  public void clear() {
    size = 0;
    usedBytes = 0;
    page = pages.isEmpty() ? -1 : 0;
    pageFill = 0;
  }

  /**
   * Copies one tuple in, unless the row limit or the byte budget would be exceeded.
   *
   * @return whether the tuple was added
   */
  public boolean tryAdd(byte[] src, int offset, int length) {
    if (size >= maxRows || (size > 0 && allocatedBytes() > maxBytes)) {
      return false;
    }
    if (size == positions.length && !growIndex()) {
      return false;
    }
    if (!ensurePageRoom(length)) {
      return false;
    }
    System.arraycopy(src, offset, pages.get(page), pageFill, length);
    positions[size] = ((long) page << 32) | pageFill;
    lengths[size] = length;
    size++;
    pageFill += length;
    usedBytes += length;
    return true;
  }

  /** Shuffles the held tuples with Fisher-Yates. */
  public void shuffle(SplitMix64 random) {
    for (int i = size - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      long p = positions[i];
      positions[i] = positions[j];
      positions[j] = p;
      int l = lengths[i];
      lengths[i] = lengths[j];
      lengths[j] = l;
    }
  }

  /** The page holding tuple {@code i} (in current order). */
  public byte[] pageOf(int i) {
    return pages.get((int) (positions[i] >>> 32));
  }

  /** The offset of tuple {@code i} in {@link #pageOf(int)}. */
  public int offsetOf(int i) {
    return (int) positions[i];
  }

  public int lengthOf(int i) {
    return lengths[i];
  }

  private boolean growIndex() {
    long capacity = Math.min(maxRows, Math.max(16L, 2L * positions.length));
    if (maxBytes != Long.MAX_VALUE) {
      long affordable = positions.length + (maxBytes - allocatedBytes()) / INDEX_BYTES_PER_ROW;
      capacity = Math.min(capacity, Math.max(affordable, size == 0 ? 1 : 0));
    }
    if (capacity <= positions.length) {
      return false;
    }
    positions = Arrays.copyOf(positions, (int) capacity);
    lengths = Arrays.copyOf(lengths, (int) capacity);
    return true;
  }

  /** Moves to a page with room for {@code length} bytes, reusing or allocating one. */
  private boolean ensurePageRoom(int length) {
    if (page >= 0 && pages.get(page).length - pageFill >= length) {
      return true;
    }
    int next = page + 1;
    if (next < pages.size() && pages.get(next).length >= length) {
      page = next;
      pageFill = 0;
      return true;
    }
    // Each new page is a quarter of what is held: small buffers stay small, large ones use few
    // pages, and at most about a quarter of the memory is unused slack.
    long wanted = Math.max(length, Math.min(MAX_PAGE, Math.max(MIN_PAGE, pageBytes / 4)));
    long budget = maxBytes - allocatedBytes();
    if (next < pages.size()) {
      budget += pages.get(next).length; // the too-small page is replaced
    }
    if (maxBytes != Long.MAX_VALUE) {
      // Leave the index room for the tuples the page will hold, judging by the tuples so far.
      double tupleBytes = Math.max(1.0, size == 0 ? length : (double) usedBytes / size);
      budget = (long) (budget * (tupleBytes / (tupleBytes + INDEX_BYTES_PER_ROW)));
    }
    long pageSize = Math.min(wanted, budget);
    if (pageSize < length) {
      if (size > 0) {
        return false;
      }
      // An oversized tuple into an empty buffer: progress over the budget, holding nothing else.
      pages.clear();
      pageBytes = 0;
      next = 0;
      pageSize = length;
    }
    byte[] fresh = new byte[(int) pageSize];
    if (next < pages.size()) {
      pageBytes -= pages.get(next).length;
      pages.set(next, fresh);
    } else {
      pages.add(fresh);
    }
    pageBytes += pageSize;
    page = next;
    pageFill = 0;
    return true;
  }
}
