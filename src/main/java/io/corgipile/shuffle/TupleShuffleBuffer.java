package io.corgipile.shuffle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A bounded buffer of serialized tuples that is shuffled, uniformly, in a cache-friendly way.
 *
 * <p>Tuples are copied into byte chunks (an arena), so a buffer of millions of rows is a few
 * thousand arrays, not millions of objects; chunks are kept across fills ({@link #startFill}) so
 * refilling allocates nothing, and {@link #release} hands them on to the next buffer in this JVM
 * ({@link ChunkPool}).
 *
 * <p>The shuffle is Rao and Sandelius's: each tuple goes, as it arrives, to a random bucket of
 * about {@value #BUCKET_BYTES} bytes, small enough for a core's L2 cache; {@link #shuffle()} then
 * permutes each bucket with Fisher-Yates and concatenates the buckets. Each bucket assignment and
 * each bucket's permutation being uniform, the whole order is a uniform random permutation of the
 * buffer, as one Fisher-Yates over all of it would give; but reading the tuples in that order stays
 * within one bucket at a time instead of jumping across the whole buffer, which on a large buffer
 * costs a cache and TLB miss per tuple.
 *
 * <p>Capacity is a row count, a byte budget, or both. The byte budget covers everything the buffer
 * allocates: chunks and index. Under a row count alone, chunks exceed the tuples' bytes by at most
 * one partly filled chunk per bucket, and the index by at most its doubling. A single tuple larger
 * than the whole budget is still accepted into an empty buffer, so reading always makes progress.
 */
public final class TupleShuffleBuffer {
  /** Target bytes of tuples per bucket. */
  static final int BUCKET_BYTES = 256 << 10;

  static final int MAX_BUCKETS = 4096;

  /** Bytes of a chunk; a larger tuple gets a chunk of its own. */
  static final int CHUNK_BYTES = 16 << 10;

  /**
   * Index bytes per tuple: position, length and bucket in arrival order, position and length in
   * emitted order.
   */
  static final int INDEX_BYTES_PER_ROW = 2 * Long.BYTES + 2 * Integer.BYTES + Character.BYTES;

  private static final int MAX_ROWS = Integer.MAX_VALUE - 16;

  /**
   * What {@link #place} answers when the budget is spent; a real position has a chunk id above it.
   */
  private static final long NO_ROOM = Long.MIN_VALUE;

  /**
   * The most a buffer of {@code rows} tuples of {@code tupleBytes} bytes allocates under a row
   * count alone (the bound of docs/design.md): the tuples, one partly filled chunk per bucket, the
   * index doubled.
   */
  static long rowsBound(long rows, double tupleBytes) {
    long bytes = (long) Math.ceil(rows * tupleBytes);
    long buckets = Math.max(1, Math.min(MAX_BUCKETS, bytes / BUCKET_BYTES));
    return bytes + buckets * CHUNK_BYTES + 2L * INDEX_BYTES_PER_ROW * rows;
  }

  private final long maxRows;
  private final long maxBytes;
  private final ChunkPool chunkPool;

  /** Chunks taken from {@link #chunkPool} and not yet used; used from {@link #takenNext} on. */
  private byte[][] taken;

  private int takenNext;

  /** The stream of the current fill. */
  private SplitMix64 random;

  /** The rows the current fill expects, for sizing its buckets. */
  private long fillRows;

  /** Chunks reused across fills; id i >= 0 is {@code pool.get(i)}. */
  private final List<byte[]> pool = new ArrayList<>();

  /** Chunks of single oversized tuples of this fill; id -1 - i is {@code oversized.get(i)}. */
  private final List<byte[]> oversized = new ArrayList<>();

  /**
   * Oversized chunks of earlier fills, reused when large enough, let go when they stand in the way.
   */
  private final List<byte[]> spare = new ArrayList<>();

  private int nextFree;
  private long chunkBytes;

  private int buckets;
  // Each bucket's current chunk: id, array, bytes used and bytes left. Kept here so the hot path of
  // an add touches no chunk but the one it copies into.
  private int[] bucketChunk = new int[0];
  private byte[][] bucketArray = new byte[0][];
  private int[] bucketFill = new int[0];
  private int[] bucketRoom = new int[0];

  /** The array {@link #place} chose, for the copy. */
  private byte[] placedArray;

  // Arrival order: chunk << 32 | offset, length, bucket.
  private long[] positions = new long[0];
  private int[] lengths = new int[0];
  private char[] bucketOf = new char[0];
  // Emitted order, written by shuffle().
  private long[] shuffledPositions = new long[0];
  private int[] shuffledLengths = new int[0];
  private boolean shuffled;

  private int size;
  private long usedBytes;

  /** An empty buffer; {@link #startFill} starts each fill. */
  public TupleShuffleBuffer(long maxRows, long maxBytes) {
    this(maxRows, maxBytes, ChunkPool.SHARED);
  }

  TupleShuffleBuffer(long maxRows, long maxBytes, ChunkPool chunkPool) {
    if (maxRows < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "Cannot create a tuple buffer: capacity must be positive, got "
              + maxRows
              + " rows, "
              + maxBytes
              + " bytes");
    }
    this.maxRows = Math.min(maxRows, MAX_ROWS);
    this.maxBytes = maxBytes;
    this.chunkPool = chunkPool;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Rows that still fit by the row limit. */
  public long remainingRows() {
    return maxRows - size;
  }

  /** Bytes the buffer holds allocated now: chunks plus index. */
  public long allocatedBytes() {
    return chunkBytes + (long) positions.length * INDEX_BYTES_PER_ROW;
  }

  /** Bytes of tuple data held now. */
  public long usedBytes() {
    return usedBytes;
  }

  /** Bytes still free in the budget, counting index space for the rows that fit. */
  public long remainingBytes() {
    return maxBytes == Long.MAX_VALUE
        ? Long.MAX_VALUE
        : maxBytes - usedBytes - (long) size * INDEX_BYTES_PER_ROW;
  }

  /**
   * Empties the buffer, keeping its chunks, for a fill of about {@code rows} tuples.
   *
   * @param random the stream that places and permutes this fill's tuples; the buffer draws from it
   *     on every add and shuffle, so equal streams and equal input give equal orders
   */
  public void startFill(SplitMix64 random, long rows) {
    this.random = random;
    this.fillRows = rows;
    spare.addAll(oversized);
    oversized.clear();
    nextFree = 0;
    buckets = 0;
    size = 0;
    usedBytes = 0;
    shuffled = false;
  }

  /**
   * Copies one tuple in, into a random bucket, unless the row limit or the byte budget would be
   * exceeded.
   *
   * @return whether the tuple was added
   */
  public boolean tryAdd(byte[] src, int offset, int length) {
    long at = reserveOne(length);
    if (at == NO_ROOM) {
      return false;
    }
    System.arraycopy(src, offset, placedArray, (int) at, length);
    return true;
  }

  /**
   * Makes room for up to {@code n} tuples of {@code length} bytes each, for the caller to write
   * where they lie: tuple i at {@code chunks[i]} from {@code offsets[i]} (an index into the array).
   * The same as {@code n} calls of {@link #tryAdd} (the same buckets, the same limits), so a tuple
   * written in place is placed and ordered as a copied one would be; a decoder writes a row once,
   * where it is read from, instead of into scratch and then here.
   *
   * @return how many of the {@code n} tuples have room, from the first on; fewer when the limits
   *     are reached
   */
  public int reserve(int length, int n, byte[][] chunks, int[] offsets) {
    for (int i = 0; i < n; i++) {
      long at = reserveOne(length);
      if (at == NO_ROOM) {
        return i;
      }
      chunks[i] = placedArray;
      offsets[i] = (int) at;
    }
    return n;
  }

  /** Room for a tuple in a random bucket, counted as added: its position, or NO_ROOM. */
  private long reserveOne(int length) {
    if (size >= maxRows || (size > 0 && allocatedBytes() > maxBytes)) {
      return NO_ROOM;
    }
    if (buckets == 0) {
      sizeBuckets(length);
    }
    if (size == positions.length && !growIndex()) {
      return NO_ROOM;
    }
    int bucket = buckets == 1 ? 0 : random.nextInt(buckets);
    long at = place(bucket, length);
    if (at == NO_ROOM) {
      return NO_ROOM;
    }
    positions[size] = at;
    lengths[size] = length;
    bucketOf[size] = (char) bucket;
    size++;
    usedBytes += length;
    shuffled = false;
    return at;
  }

  /**
   * Puts the tuples in uniformly random order: each bucket is permuted with Fisher-Yates and the
   * buckets follow each other. Until the next {@link #startFill} or add, the accessors then give
   * the tuples in that order; before, in arrival order.
   */
  public void shuffle() {
    if (shuffledPositions.length < size) {
      shuffledPositions = new long[positions.length];
      shuffledLengths = new int[positions.length];
    }
    // Counting sort by bucket, then each bucket's run permuted where it lies.
    int[] start = new int[buckets + 1];
    for (int i = 0; i < size; i++) {
      start[bucketOf[i] + 1]++;
    }
    for (int b = 0; b < buckets; b++) {
      start[b + 1] += start[b];
    }
    int[] next = Arrays.copyOf(start, buckets);
    for (int i = 0; i < size; i++) {
      int to = next[bucketOf[i]]++;
      shuffledPositions[to] = positions[i];
      shuffledLengths[to] = lengths[i];
    }
    for (int b = 0; b < buckets; b++) {
      for (int i = start[b + 1] - 1; i > start[b]; i--) {
        int j = start[b] + random.nextInt(i - start[b] + 1);
        long p = shuffledPositions[i];
        shuffledPositions[i] = shuffledPositions[j];
        shuffledPositions[j] = p;
        int l = shuffledLengths[i];
        shuffledLengths[i] = shuffledLengths[j];
        shuffledLengths[j] = l;
      }
    }
    shuffled = true;
  }

  /** The chunk holding tuple {@code i} (in current order). */
  public byte[] pageOf(int i) {
    return chunkOf(positionOf(i));
  }

  /** The offset of tuple {@code i} in {@link #pageOf(int)}. */
  public int offsetOf(int i) {
    return (int) positionOf(i);
  }

  public int lengthOf(int i) {
    return shuffled ? shuffledLengths[i] : lengths[i];
  }

  /**
   * Where tuple {@code i} (in current order) lies, packed: read its chunk with {@link #chunkOf} and
   * its offset as the low 32 bits. One array read for both, for callers that walk many tuples.
   */
  public long positionOf(int i) {
    return shuffled ? shuffledPositions[i] : positions[i];
  }

  /** The chunk of a position from {@link #positionOf}. */
  public byte[] chunkOf(long position) {
    int id = (int) (position >>> 32);
    return id >= 0 ? pool.get(id) : oversized.get(-1 - id);
  }

  /**
   * Sizes the buckets for this fill from the bytes it expects: its rows (at most the row limit)
   * times the first tuple's size, at most the byte budget.
   */
  private void sizeBuckets(int firstLength) {
    double rows = Math.min(fillRows, maxRows);
    long expected = (long) Math.min(maxBytes, rows * Math.max(1, firstLength));
    buckets = (int) Math.max(1, Math.min(MAX_BUCKETS, expected / BUCKET_BYTES));
    if (bucketChunk.length < buckets) {
      bucketChunk = new int[buckets];
      bucketArray = new byte[buckets][];
      bucketFill = new int[buckets];
      bucketRoom = new int[buckets];
    }
    Arrays.fill(bucketRoom, 0, buckets, -1);
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
    bucketOf = Arrays.copyOf(bucketOf, (int) capacity);
    shuffledPositions = new long[0];
    shuffledLengths = new int[0];
    return true;
  }

  /**
   * Room for {@code length} bytes in {@code bucket}: chunk << 32 | offset, or NO_ROOM when the
   * budget is spent.
   */
  private long place(int bucket, int length) {
    if (bucketRoom[bucket] >= length) {
      int offset = bucketFill[bucket];
      bucketFill[bucket] += length;
      bucketRoom[bucket] -= length;
      placedArray = bucketArray[bucket];
      return ((long) bucketChunk[bucket] << 32) | offset;
    }
    int chunk;
    if (length > CHUNK_BYTES) {
      byte[] big = takeSpare(length);
      if (big == null) {
        if (!affordable(length)) {
          return NO_ROOM;
        }
        big = new byte[length];
        chunkBytes += length;
      }
      oversized.add(big);
      placedArray = big;
      return (long) (-oversized.size()) << 32;
    }
    while (nextFree < pool.size() && pool.get(nextFree).length < length) {
      nextFree++; // a short chunk, cut to a small budget, cannot take this tuple
    }
    if (nextFree < pool.size()) {
      chunk = nextFree++;
    } else {
      int bytes = CHUNK_BYTES;
      if (maxBytes != Long.MAX_VALUE) {
        // Leave the index room for the tuples the chunk will hold, judging by the tuples so far.
        double tupleBytes = Math.max(1.0, size == 0 ? length : (double) usedBytes / size);
        long share =
            (long)
                ((maxBytes - allocatedBytes()) * (tupleBytes / (tupleBytes + INDEX_BYTES_PER_ROW)));
        bytes = (int) Math.max(length, Math.min(CHUNK_BYTES, share));
      }
      if (!affordable(bytes)) {
        return NO_ROOM;
      }
      byte[] released = bytes == CHUNK_BYTES ? takeReleased() : null;
      pool.add(released != null ? released : new byte[bytes]);
      chunkBytes += bytes;
      chunk = pool.size() - 1;
      nextFree = pool.size();
    }
    bucketChunk[bucket] = chunk;
    bucketArray[bucket] = pool.get(chunk);
    bucketFill[bucket] = length;
    bucketRoom[bucket] = bucketArray[bucket].length - length;
    placedArray = bucketArray[bucket];
    return (long) chunk << 32;
  }

  /** A chunk another buffer released, or null. */
  private byte[] takeReleased() {
    while (taken == null || takenNext == taken.length) {
      taken = chunkPool.take();
      takenNext = 0;
      if (taken == null) {
        return null;
      }
    }
    byte[] chunk = taken[takenNext];
    taken[takenNext++] = null;
    return chunk;
  }

  /**
   * Empties the buffer, hands its chunks to the buffers made after it in this JVM and lets its
   * index go, so it holds no memory. Nothing may read this buffer's tuples any more; it may be
   * filled again, with chunks and an index of its own.
   */
  public void release() {
    List<byte[]> chunks = new ArrayList<>(pool.size());
    for (byte[] chunk : pool) {
      if (chunk.length == CHUNK_BYTES) {
        chunks.add(chunk); // shorter ones were cut to a small budget
      }
    }
    if (taken != null) {
      for (int i = takenNext; i < taken.length; i++) {
        chunks.add(taken[i]);
      }
    }
    taken = null;
    pool.clear();
    oversized.clear();
    spare.clear();
    chunkBytes = 0;
    nextFree = 0;
    buckets = 0;
    size = 0;
    usedBytes = 0;
    shuffled = false;
    positions = new long[0];
    lengths = new int[0];
    bucketOf = new char[0];
    shuffledPositions = new long[0];
    shuffledLengths = new int[0];
    Arrays.fill(bucketArray, null); // the chunks are the pool's now
    chunkPool.give(chunks);
  }

  /** A kept oversized chunk of at least {@code length} bytes, or null. */
  private byte[] takeSpare(int length) {
    for (int i = 0; i < spare.size(); i++) {
      if (spare.get(i).length >= length) {
        return spare.remove(i);
      }
    }
    return null;
  }

  /**
   * Whether {@code bytes} more fit the budget, letting kept chunks go if that makes room. The first
   * tuple of a fill always fits: alone, over a budget smaller than itself, with nothing else kept.
   */
  private boolean affordable(long bytes) {
    if (allocatedBytes() + bytes <= maxBytes) {
      return true;
    }
    for (byte[] chunk : spare) {
      chunkBytes -= chunk.length;
    }
    spare.clear();
    if (allocatedBytes() + bytes <= maxBytes) {
      return true;
    }
    if (size > 0) {
      return false;
    }
    // Nothing is placed yet (size 0), so no chunk is in use.
    pool.clear();
    nextFree = 0;
    chunkBytes = 0;
    return true;
  }
}
