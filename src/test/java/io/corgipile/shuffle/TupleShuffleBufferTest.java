package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TupleShuffleBufferTest {

  private static final long UNBOUNDED = Long.MAX_VALUE;

  // ---------------------------------------------------------------- helpers

  /** A tuple whose bytes are a function of (id, length); ids >= 4 bytes long start with the id. */
  static byte[] tuple(int id, int length) {
    byte[] t = new byte[length];
    for (int k = 0; k < length; k++) {
      t[k] = (byte) (id * 131 + k * 7 + (k >>> 8) * 13 + 1);
    }
    if (length >= 4) {
      ByteBuffer.wrap(t).putInt(0, id);
    }
    return t;
  }

  static byte[] read(TupleShuffleBuffer b, int i) {
    byte[] page = b.pageOf(i);
    int off = b.offsetOf(i);
    int len = b.lengthOf(i);
    if (off < 0 || len < 0 || (long) off + len > page.length) {
      fail("tuple " + i + " at [" + off + ", +" + len + ") outside its page of " + page.length);
    }
    return Arrays.copyOfRange(page, off, off + len);
  }

  /**
   * Adds a tuple through a shared, reused source array at an odd offset, then scribbles over the
   * source, so a buffer that keeps a reference instead of copying is caught.
   */
  private static boolean add(TupleShuffleBuffer b, byte[] t, byte[] scratch) {
    int offset = 3;
    System.arraycopy(t, 0, scratch, offset, t.length);
    boolean added = b.tryAdd(scratch, offset, t.length);
    Arrays.fill(scratch, offset, offset + t.length, (byte) 0x5a);
    return added;
  }

  private static byte[] scratchFor(List<byte[]> tuples) {
    return new byte[tuples.stream().mapToInt(t -> t.length).max().orElse(0) + 10];
  }

  private static List<byte[]> randomTuples(long seed, int n, int minLen, int maxLen) {
    Random r = new Random(seed);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(tuple(i, minLen + r.nextInt(maxLen - minLen + 1)));
    }
    return out;
  }

  private static void assertHoldsInOrder(TupleShuffleBuffer b, List<byte[]> expected) {
    assertThat(b.size()).isEqualTo(expected.size());
    long used = 0;
    for (int i = 0; i < expected.size(); i++) {
      if (!Arrays.equals(read(b, i), expected.get(i))) {
        fail("tuple " + i + " differs");
      }
      used += expected.get(i).length;
    }
    assertThat(b.usedBytes()).isEqualTo(used);
  }

  /** Adds tuples until the first rejection; returns those accepted. */
  private static List<byte[]> fillUntilRejected(
      TupleShuffleBuffer b, List<byte[]> tuples, long maxBytes) {
    byte[] scratch = scratchFor(tuples);
    List<byte[]> accepted = new ArrayList<>();
    for (byte[] t : tuples) {
      if (!add(b, t, scratch)) {
        break;
      }
      accepted.add(t);
      if (b.allocatedBytes()
          > maxBytes) { // plain check: AssertJ per tuple would dominate the run time
        fail(
            "allocated "
                + b.allocatedBytes()
                + " > budget "
                + maxBytes
                + " after "
                + accepted.size()
                + " tuples");
      }
    }
    return accepted;
  }

  // ---------------------------------------------------------------- construction and state

  @Test
  void rejectsNonPositiveCapacity() {
    assertThatThrownBy(() -> new TupleShuffleBuffer(0, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create a tuple buffer: capacity must be positive, got 0 rows, 10 bytes");
    assertThatThrownBy(() -> new TupleShuffleBuffer(10, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create a tuple buffer: capacity must be positive, got 10 rows, 0 bytes");
    assertThatThrownBy(() -> new TupleShuffleBuffer(-1, -2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create a tuple buffer: capacity must be positive, got -1 rows, -2 bytes");
  }

  @Test
  void newBufferIsEmpty() {
    TupleShuffleBuffer b = filling(100, 1_000_000, new SplitMix64(0));
    assertThat(b.size()).isZero();
    assertThat(b.isEmpty()).isTrue();
    assertThat(b.remainingRows()).isPositive();
    assertThat(b.remainingRows()).isEqualTo(100);
    assertThat(b.usedBytes()).isZero();
    assertThat(b.allocatedBytes()).isZero();
    assertThat(b.remainingBytes()).isEqualTo(1_000_000);
    assertThat(filling(UNBOUNDED, UNBOUNDED, new SplitMix64(0)).remainingBytes())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(filling(UNBOUNDED, UNBOUNDED, new SplitMix64(0)).remainingRows())
        .isGreaterThan(1_000_000_000L);
  }

  // ---------------------------------------------------------------- round trip

  @Test
  void roundTripsBytesExactlyAcrossIndexGrowthAndManyPages() {
    List<byte[]> tuples =
        randomTuples(1, 5000, 0, 400); // ~1 MB: several pages, index grows past 1024, 2048, 4096
    TupleShuffleBuffer b = filling(UNBOUNDED, UNBOUNDED, new SplitMix64(0));
    byte[] scratch = scratchFor(tuples);
    for (byte[] t : tuples) {
      assertThat(add(b, t, scratch)).isTrue();
    }
    assertHoldsInOrder(b, tuples);
    assertThat(b.isEmpty()).isFalse();
    assertThat(b.allocatedBytes()).isGreaterThanOrEqualTo(b.usedBytes());
  }

  @Test
  void zeroLengthTuplesAreHeldAndReadBackEmpty() {
    TupleShuffleBuffer b = filling(UNBOUNDED, UNBOUNDED, new SplitMix64(0));
    assertThat(b.tryAdd(new byte[0], 0, 0)).as("zero-length first tuple").isTrue();
    List<byte[]> expected = new ArrayList<>();
    expected.add(new byte[0]);
    byte[] scratch = new byte[100];
    for (int i = 0; i < 3000; i++) {
      byte[] t = tuple(i, i % 3 == 0 ? 20 : 0);
      assertThat(add(b, t, scratch)).isTrue();
      expected.add(t);
    }
    assertHoldsInOrder(b, expected);
    assertThat(b.lengthOf(0)).isZero();
    assertThat(b.usedBytes()).isEqualTo(1000L * 20);
  }

  @Test
  void zeroLengthTuplesOnlyUnderATightBudget() {
    TupleShuffleBuffer b = filling(50, 20_000, new SplitMix64(0));
    for (int i = 0; i < 50; i++) {
      assertThat(b.tryAdd(new byte[0], 0, 0)).isTrue();
      assertThat(b.allocatedBytes()).isLessThanOrEqualTo(20_000);
    }
    assertThat(b.tryAdd(new byte[0], 0, 0)).as("row limit").isFalse();
    assertThat(b.usedBytes()).isZero();
  }

  @Test
  void tuplesLargerThanAPageRoundTrip() {
    int page = TupleShuffleBuffer.CHUNK_BYTES;
    List<byte[]> tuples =
        List.of(
            tuple(0, 10),
            tuple(1, page),
            tuple(2, page + 1),
            tuple(3, 5),
            tuple(4, 3 * page + 17),
            tuple(5, 0),
            tuple(6, page - 1),
            tuple(7, 2 * page),
            tuple(8, 1));
    TupleShuffleBuffer b = filling(UNBOUNDED, UNBOUNDED, new SplitMix64(0));
    byte[] scratch = scratchFor(tuples);
    for (byte[] t : tuples) {
      assertThat(add(b, t, scratch)).isTrue();
    }
    assertHoldsInOrder(b, tuples);
  }

  @Test
  void tuplesLargerThanAPageUnderAByteBudget() {
    int page = 4 * TupleShuffleBuffer.CHUNK_BYTES;
    long budget = 2_000_000;
    List<byte[]> tuples = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      tuples.add(tuple(i, i % 2 == 0 ? 3 * page + i : 100 + i));
    }
    TupleShuffleBuffer b = filling(UNBOUNDED, budget, new SplitMix64(0));
    List<byte[]> accepted = fillUntilRejected(b, tuples, budget);
    assertThat(accepted.size()).isBetween(2, 39);
    assertHoldsInOrder(b, accepted);
  }

  // ---------------------------------------------------------------- limits

  @Test
  void rowLimitIsRespected() {
    TupleShuffleBuffer b = filling(10, UNBOUNDED, new SplitMix64(0));
    List<byte[]> accepted = new ArrayList<>();
    byte[] scratch = new byte[100];
    for (int i = 0; i < 10; i++) {
      assertThat(b.remainingRows()).isPositive();
      assertThat(b.remainingRows()).isEqualTo(10 - i);
      byte[] t = tuple(i, 30);
      assertThat(add(b, t, scratch)).isTrue();
      accepted.add(t);
    }
    assertThat(b.remainingRows()).isZero();
    assertThat(b.remainingRows()).isZero();
    assertThat(add(b, tuple(99, 30), scratch)).isFalse();
    assertThat(add(b, new byte[0], scratch)).isFalse();
    assertHoldsInOrder(b, accepted);
  }

  @Test
  void rowLimitAboveTheIndexGrowthStep() {
    TupleShuffleBuffer b = filling(2500, UNBOUNDED, new SplitMix64(0));
    byte[] one = {7};
    for (int i = 0; i < 2500; i++) {
      assertThat(b.tryAdd(one, 0, 1)).isTrue();
    }
    assertThat(b.tryAdd(one, 0, 1)).isFalse();
    assertThat(b.size()).isEqualTo(2500);
    assertThat(b.remainingRows()).isZero();
  }

  @Test
  void byteBudgetIsNeverExceededAndMostlyUsed() {
    long[] budgets = {20_000, 100_000, 1_000_000, 2_000_000};
    int[][] sizeRanges = {{1, 20}, {100, 1000}, {0, 4000}};
    for (long budget : budgets) {
      for (int[] range : sizeRanges) {
        List<byte[]> tuples =
            randomTuples(
                budget + range[1],
                (int) (2 * budget / ((range[0] + range[1]) / 2 + 12)) + 10,
                range[0],
                range[1]);
        TupleShuffleBuffer b = filling(UNBOUNDED, budget, new SplitMix64(0));
        List<byte[]> accepted = fillUntilRejected(b, tuples, budget);
        assertThat(accepted.size())
            .as("budget %d, sizes %s", budget, Arrays.toString(range))
            .isLessThan(tuples.size());
        // Rejection must not come absurdly early: at least a quarter of the budget holds
        // data/index.
        assertThat(b.usedBytes() + 12L * b.size())
            .as("budget %d, sizes %s", budget, Arrays.toString(range))
            .isGreaterThanOrEqualTo(budget / 4);
        // After the first rejection, further attempts never break the budget either.
        byte[] scratch = scratchFor(tuples);
        for (byte[] t :
            tuples.subList(accepted.size(), Math.min(tuples.size(), accepted.size() + 200))) {
          if (add(b, t, scratch)) {
            accepted.add(t);
          }
          assertThat(b.allocatedBytes()).isLessThanOrEqualTo(budget);
        }
        assertHoldsInOrder(b, accepted);
      }
    }
  }

  @Test
  void remainingBytesTracksTheBudget() {
    long budget = 200_000;
    TupleShuffleBuffer b = filling(UNBOUNDED, budget, new SplitMix64(0));
    assertThat(b.remainingBytes()).isEqualTo(budget);
    byte[] scratch = new byte[600];
    long before = b.remainingBytes();
    for (int i = 0; i < 100; i++) {
      byte[] t = tuple(i, 500);
      assertThat(add(b, t, scratch)).isTrue();
      long now = b.remainingBytes();
      assertThat(before - now)
          .as("a 500-byte tuple costs at least its bytes")
          .isGreaterThanOrEqualTo(500);
      assertThat(now).isLessThanOrEqualTo(budget - b.usedBytes()).isGreaterThanOrEqualTo(0);
      before = now;
    }
    b.startFill(new SplitMix64(0), Long.MAX_VALUE);
    assertThat(b.remainingBytes()).isEqualTo(budget);
  }

  @Test
  void oversizedTupleIsAcceptedOnlyIntoAnEmptyBuffer() {
    long budget = 1000;
    TupleShuffleBuffer b = filling(10, budget, new SplitMix64(0));
    byte[] big = tuple(1, 5000);
    byte[] scratch = new byte[6000];
    assertThat(add(b, big, scratch)).as("progress: oversized into empty").isTrue();
    assertThat(read(b, 0)).isEqualTo(big);
    assertThat(add(b, tuple(2, 1), scratch)).as("budget exhausted").isFalse();
    assertThat(add(b, tuple(3, 5000), scratch)).isFalse();
    assertThat(b.size()).isEqualTo(1);
    assertThat(read(b, 0)).isEqualTo(big);

    TupleShuffleBuffer c = filling(10, budget, new SplitMix64(0));
    assertThat(add(c, tuple(4, 10), scratch)).isTrue();
    assertThat(add(c, big, scratch)).as("oversized into non-empty").isFalse();
    assertThat(c.size()).isEqualTo(1);
    assertThat(c.allocatedBytes()).isLessThanOrEqualTo(budget);

    // After startFill the buffer is empty again: the oversized tuple makes progress again.
    c.startFill(new SplitMix64(0), Long.MAX_VALUE);
    assertThat(add(c, big, scratch)).isTrue();
    assertThat(read(c, 0)).isEqualTo(big);
    assertThat(add(c, tuple(5, 1), scratch)).isFalse();
  }

  @Test
  void oversizedTupleAmongPagesAfterClear() {
    long budget = 100_000;
    TupleShuffleBuffer b = filling(UNBOUNDED, budget, new SplitMix64(0));
    List<byte[]> small = fillUntilRejected(b, randomTuples(3, 1000, 50, 500), budget);
    assertThat(small).isNotEmpty();
    b.startFill(new SplitMix64(0), Long.MAX_VALUE);
    byte[] big = tuple(77, 150_000);
    assertThat(add(b, big, new byte[150_010])).isTrue();
    assertThat(read(b, 0)).isEqualTo(big);
    assertThat(b.tryAdd(new byte[1], 0, 1)).isFalse();
  }

  @Test
  void smallBudgetIsRespectedForTuplesThatFitIt() {
    long budget = 4096;
    TupleShuffleBuffer b = filling(UNBOUNDED, budget, new SplitMix64(0));
    byte[] t = tuple(1, 100); // far smaller than the budget: not the oversized-tuple exception
    assertThat(b.tryAdd(t, 0, t.length)).isTrue();
    assertThat(b.allocatedBytes()).isLessThanOrEqualTo(budget); // actual: 12288 + 100 = 12388
  }

  // ---------------------------------------------------------------- clear and reuse

  /** The page arrays (by identity) that hold the current tuples. */
  private static Set<byte[]> pagesOf(TupleShuffleBuffer b) {
    Set<byte[]> pages = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < b.size(); i++) {
      pages.add(b.pageOf(i));
    }
    return pages;
  }

  @Test
  void clearEmptiesAndRefillReusesMemory() {
    record Scenario(String name, long maxRows, long maxBytes, List<byte[]> tuples) {}
    List<Scenario> scenarios =
        List.of(
            new Scenario("rows", 2000, UNBOUNDED, randomTuples(5, 2500, 0, 300)),
            new Scenario("bytes", UNBOUNDED, 300_000, randomTuples(6, 5000, 0, 300)),
            new Scenario("big tuples", UNBOUNDED, 3_000_000, randomTuples(7, 100, 1000, 200_000)),
            new Scenario("both", 700, 150_000, randomTuples(8, 2000, 10, 400)));
    for (Scenario s : scenarios) {
      TupleShuffleBuffer b = filling(s.maxRows(), s.maxBytes(), new SplitMix64(0));
      List<byte[]> first = fillUntilRejected(b, s.tuples(), s.maxBytes());
      assertThat(first).as(s.name()).isNotEmpty();
      long allocated = b.allocatedBytes();
      Set<byte[]> pages = pagesOf(b);
      for (int round = 0; round < 3; round++) {
        b.startFill(new SplitMix64(0), Long.MAX_VALUE);
        assertThat(b.size()).isZero();
        assertThat(b.isEmpty()).isTrue();
        assertThat(b.usedBytes()).isZero();
        assertThat(b.remainingRows()).isPositive();
        assertThat(b.remainingRows()).isEqualTo(Math.min(s.maxRows(), Integer.MAX_VALUE - 16));
        List<byte[]> again = fillUntilRejected(b, s.tuples(), s.maxBytes());
        assertThat(again)
            .as("%s round %d: same tuples fit again", s.name(), round)
            .hasSameSizeAs(first);
        assertThat(b.allocatedBytes())
            .as("%s round %d: no new memory", s.name(), round)
            .isEqualTo(allocated);
        assertThat(pagesOf(b))
            .as("%s round %d: the same page arrays are reused", s.name(), round)
            .isEqualTo(pages);
        assertHoldsInOrder(b, again);
      }
    }
  }

  @Test
  void releaseHandsTheChunksToTheNextBufferWhichHoldsTheSameOrder() {
    ChunkPool pool = new ChunkPool();
    List<byte[]> tuples = randomTuples(11, 3000, 1, 300);
    List<byte[]> others = randomTuples(12, 3000, 1, 300);
    TupleShuffleBuffer first = new TupleShuffleBuffer(UNBOUNDED, 400_000, pool);
    first.startFill(new SplitMix64(3), Long.MAX_VALUE);
    fillUntilRejected(first, others, 400_000);
    Set<byte[]> released = pagesOf(first);
    first.release();
    assertThat(first.size()).isZero();
    assertThat(first.allocatedBytes())
        .as("nothing: the chunks went to the pool, the index was let go")
        .isZero();

    TupleShuffleBuffer reusing = new TupleShuffleBuffer(UNBOUNDED, 400_000, pool);
    TupleShuffleBuffer fresh = new TupleShuffleBuffer(UNBOUNDED, 400_000, new ChunkPool());
    for (TupleShuffleBuffer b : List.of(reusing, fresh)) {
      b.startFill(new SplitMix64(4), Long.MAX_VALUE);
      assertHoldsInOrder(b, fillUntilRejected(b, tuples, 400_000));
      b.shuffle();
    }
    assertThat(reusing.size()).isEqualTo(fresh.size());
    assertThat(reusing.allocatedBytes()).isEqualTo(fresh.allocatedBytes());
    for (int i = 0; i < fresh.size(); i++) {
      assertThat(read(reusing, i))
          .as("tuple %d, read over a released chunk's old bytes", i)
          .isEqualTo(read(fresh, i));
    }
    Set<byte[]> reused = pagesOf(reusing);
    reused.retainAll(released);
    assertThat(reused).as("chunks of the released buffer, not new ones").isNotEmpty();
    assertThat(pool.take()).as("the next buffer took every released chunk it needed").isNull();
  }

  @Test
  void aReleasedBufferFillsAgainWithChunksOfItsOwn() {
    ChunkPool pool = new ChunkPool();
    TupleShuffleBuffer b = new TupleShuffleBuffer(UNBOUNDED, UNBOUNDED, pool);
    List<byte[]> tuples = randomTuples(13, 500, 1, 100);
    b.startFill(new SplitMix64(5), Long.MAX_VALUE);
    fillUntilRejected(b, tuples, UNBOUNDED);
    b.release();
    b.release(); // a second close of the reader gives nothing twice
    byte[][] kept = pool.take();
    assertThat(Arrays.asList(kept)).isNotEmpty().doesNotContainNull();
    assertThat(pool.take()).isNull();
    b.startFill(new SplitMix64(5), Long.MAX_VALUE);
    assertHoldsInOrder(b, fillUntilRejected(b, tuples, UNBOUNDED));
    Set<byte[]> own = pagesOf(b);
    assertThat(Arrays.stream(kept).filter(own::contains).count())
        .as("released chunks it reads from")
        .isZero();
  }

  @Test
  void refillWithOtherDataShowsNoStaleBytes() {
    TupleShuffleBuffer b = filling(UNBOUNDED, 500_000, new SplitMix64(0));
    List<byte[]> a = fillUntilRejected(b, randomTuples(9, 3000, 0, 500), 500_000);
    assertHoldsInOrder(b, a);
    b.startFill(new SplitMix64(0), Long.MAX_VALUE);
    List<byte[]> other = new ArrayList<>();
    Random r = new Random(10);
    for (int i = 0; i < 2000; i++) {
      other.add(tuple(100_000 + i, r.nextInt(700)));
    }
    List<byte[]> c = fillUntilRejected(b, other, 500_000);
    assertThat(c).isNotEmpty();
    assertHoldsInOrder(b, c);
    b.startFill(new SplitMix64(0), Long.MAX_VALUE);
    List<byte[]> prefix = fillUntilRejected(b, a.subList(0, 10), 500_000);
    assertHoldsInOrder(b, prefix);
  }

  // ---------------------------------------------------------------- shuffle

  private static TupleShuffleBuffer filledWithIds(int n, long seed) {
    return filledWithIds(n, seed, 42, UNBOUNDED);
  }

  /**
   * A buffer of n tuples whose first 4 bytes are their ids; placed and shuffled by stream {@code
   * shuffleSeed}.
   */
  private static TupleShuffleBuffer filledWithIds(
      int n, long seed, long shuffleSeed, long maxBytes) {
    TupleShuffleBuffer b = filling(UNBOUNDED, maxBytes, new SplitMix64(shuffleSeed));
    Random r = new Random(seed);
    byte[] scratch = new byte[1000];
    for (int i = 0; i < n; i++) {
      assertThat(add(b, tuple(i, 4 + r.nextInt(300)), scratch)).isTrue();
    }
    return b;
  }

  private static int[] idsInOrder(TupleShuffleBuffer b) {
    int[] ids = new int[b.size()];
    for (int i = 0; i < ids.length; i++) {
      byte[] t = read(b, i);
      ids[i] = ByteBuffer.wrap(t).getInt(0);
      if (!Arrays.equals(t, tuple(ids[i], t.length))) {
        fail("tuple " + ids[i] + " corrupted");
      }
    }
    return ids;
  }

  @Test
  void shufflePermutesAndKeepsEveryTupleIntact() {
    int n = 1000;
    TupleShuffleBuffer b = filledWithIds(n, 1);
    Map<Integer, Integer> lengthById = new HashMap<>();
    for (int i = 0; i < n; i++) {
      lengthById.put(i, b.lengthOf(i));
    }
    long used = b.usedBytes();
    b.shuffle();
    int[] ids = idsInOrder(b);
    assertThat(Arrays.stream(ids).sorted().toArray())
        .isEqualTo(java.util.stream.IntStream.range(0, n).toArray());
    for (int i = 0; i < n; i++) {
      assertThat(b.lengthOf(i)).isEqualTo(lengthById.get(ids[i]));
    }
    assertThat(b.size()).isEqualTo(n);
    assertThat(b.usedBytes()).isEqualTo(used);
    long fixedPoints = java.util.stream.IntStream.range(0, n).filter(i -> ids[i] == i).count();
    assertThat(fixedPoints).as("a uniform permutation has ~1 fixed point").isLessThan(10);

    // A second shuffle is again a permutation, and a different one.
    b.shuffle();
    int[] ids2 = idsInOrder(b);
    assertThat(Arrays.stream(ids2).sorted().toArray())
        .isEqualTo(java.util.stream.IntStream.range(0, n).toArray());
    assertThat(ids2).isNotEqualTo(ids);
  }

  @Test
  void shuffleIsDeterministicPerSeed() {
    TupleShuffleBuffer a = filledWithIds(300, 2, 5, UNBOUNDED);
    TupleShuffleBuffer b = filledWithIds(300, 2, 5, UNBOUNDED);
    TupleShuffleBuffer c = filledWithIds(300, 2, 6, UNBOUNDED);
    a.shuffle();
    b.shuffle();
    c.shuffle();
    assertThat(idsInOrder(a)).isEqualTo(idsInOrder(b));
    assertThat(idsInOrder(c)).isNotEqualTo(idsInOrder(a));
  }

  @Test
  void shuffleOfEmptyAndSingletonBuffers() {
    TupleShuffleBuffer empty = filling(10, 1000, new SplitMix64(0));
    empty.shuffle();
    assertThat(empty.size()).isZero();
    TupleShuffleBuffer one = filledWithIds(1, 3);
    byte[] before = read(one, 0);
    one.shuffle();
    assertThat(read(one, 0)).isEqualTo(before);
  }

  @Test
  void shuffleAfterClearOnlyMovesCurrentTuples() {
    TupleShuffleBuffer b = filledWithIds(500, 4);
    b.startFill(new SplitMix64(0), Long.MAX_VALUE);
    byte[] scratch = new byte[100];
    for (int i = 0; i < 20; i++) {
      assertThat(add(b, tuple(1000 + i, 8), scratch)).isTrue();
    }
    b.shuffle();
    assertThat(Arrays.stream(idsInOrder(b)).sorted().toArray())
        .isEqualTo(java.util.stream.IntStream.range(1000, 1020).toArray());
  }

  @Test
  void shufflePlacesATupleUniformly() {
    // Final position of tuple 0 among 4, over 8000 seeds: uniform; 3 df, 0.9999 quantile 21.11.
    byte[] scratch = new byte[100];
    long[] counts = new long[4];
    for (int seed = 0; seed < 8000; seed++) {
      TupleShuffleBuffer b = filling(4, 10_000, new SplitMix64(seed));
      for (int i = 0; i < 4; i++) {
        assertThat(add(b, tuple(i, 4 + i), scratch)).isTrue();
      }
      b.shuffle();
      for (int p = 0; p < 4; p++) {
        if (b.lengthOf(p) == 4) {
          counts[p]++;
        }
      }
    }
    assertThat(SplitMix64Test.chiSquare(counts)).isLessThan(21.11);
  }

  @Test
  void bucketedShuffleIsUniformOverPermutations() {
    // 3 tuples in a buffer sized for 4 buckets: each of the 6 orders equally likely over 12000
    // seeds;
    // chi-square with 5 degrees of freedom, 0.9999 quantile 25.74.
    byte[] scratch = new byte[100];
    java.util.Map<String, Long> counts = new java.util.TreeMap<>();
    for (int seed = 0; seed < 12000; seed++) {
      TupleShuffleBuffer b =
          filling(UNBOUNDED, 4L * TupleShuffleBuffer.BUCKET_BYTES, new SplitMix64(seed));
      for (int i = 0; i < 3; i++) {
        assertThat(add(b, tuple(i, 4), scratch)).isTrue();
      }
      b.shuffle();
      counts.merge(Arrays.toString(idsInOrder(b)), 1L, Long::sum);
    }
    assertThat(counts).hasSize(6);
    assertThat(
            SplitMix64Test.chiSquare(counts.values().stream().mapToLong(Long::longValue).toArray()))
        .isLessThan(25.74);
  }

  @Test
  void bucketedShufflePlacesEveryTupleAnywhere() {
    // 64 tuples, 16 buckets: the final position of tuple 0 is uniform over 64 places (4000 seeds;
    // chi-square with 63 degrees of freedom, 0.9999 quantile 117.0), as a full Fisher-Yates gives.
    byte[] scratch = new byte[100];
    long[] counts = new long[64];
    for (int seed = 0; seed < 4000; seed++) {
      TupleShuffleBuffer b =
          filling(UNBOUNDED, 16L * TupleShuffleBuffer.BUCKET_BYTES, new SplitMix64(seed));
      for (int i = 0; i < 64; i++) {
        assertThat(add(b, tuple(i, 4), scratch)).isTrue();
      }
      b.shuffle();
      int[] ids = idsInOrder(b);
      for (int p = 0; p < ids.length; p++) {
        if (ids[p] == 0) {
          counts[p]++;
        }
      }
    }
    assertThat(SplitMix64Test.chiSquare(counts)).isLessThan(117.0);
  }

  @Test
  void aLargeBufferKeepsEachRunOfEmittedTuplesWithinCacheSizedBuckets() {
    // 200,000 tuples of 240 bytes (48 MB): emitted tuples come bucket by bucket, so the chunks a
    // run
    // of 1,000 emitted tuples touches are a few hundred KB, not the whole buffer.
    TupleShuffleBuffer b = filling(200_000, UNBOUNDED, new SplitMix64(1));
    byte[] row = new byte[240];
    for (int i = 0; i < 200_000; i++) {
      assertThat(b.tryAdd(row, 0, row.length)).isTrue();
    }
    b.shuffle();
    for (int start = 0; start + 1000 <= b.size(); start += 1000) {
      Set<byte[]> chunks = Collections.newSetFromMap(new IdentityHashMap<>());
      for (int i = start; i < start + 1000; i++) {
        chunks.add(b.pageOf(i));
      }
      // A run of 240 KB spans two buckets at most; a bucket holds its expected 256 KB give or take
      // a
      // few standard deviations of its binomial size (about 3% each), so three buckets' bytes bound
      // it.
      assertThat((long) chunks.size() * TupleShuffleBuffer.CHUNK_BYTES)
          .isLessThanOrEqualTo(3L * TupleShuffleBuffer.BUCKET_BYTES);
    }
  }

  /** A buffer started on a fill of unknown size drawing from {@code random}. */
  @Test
  void tuplesWrittenWhereReservedAreHeldAndOrderedAsCopiedOnes() {
    long[][] limits = {
      {UNBOUNDED, UNBOUNDED}, {1_000, UNBOUNDED}, {UNBOUNDED, 300_000}, {UNBOUNDED, 5_000}
    };
    for (long[] limit : limits) {
      int length = 48;
      List<byte[]> tuples = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        tuples.add(tuple(i, length));
      }
      TupleShuffleBuffer copied = filling(limit[0], limit[1], new SplitMix64(9));
      List<byte[]> accepted = fillUntilRejected(copied, tuples, limit[1]);
      TupleShuffleBuffer written = filling(limit[0], limit[1], new SplitMix64(9));
      byte[][] chunks = new byte[100][];
      int[] offsets = new int[100];
      int placed = 0;
      for (int run = 100; placed < tuples.size(); placed += run) {
        int n = written.reserve(length, run, chunks, offsets);
        for (int i = 0; i < n; i++) {
          System.arraycopy(tuples.get(placed + i), 0, chunks[i], offsets[i], length);
        }
        if (n < run) {
          placed += n;
          break;
        }
      }
      assertThat(placed).as("limits %s", Arrays.toString(limit)).isEqualTo(accepted.size());
      assertThat(written.allocatedBytes()).isEqualTo(copied.allocatedBytes());
      assertHoldsInOrder(written, accepted);
      copied.shuffle();
      written.shuffle();
      assertThat(idsInOrder(written)).isEqualTo(idsInOrder(copied));
    }
  }

  private static TupleShuffleBuffer filling(long maxRows, long maxBytes, SplitMix64 random) {
    TupleShuffleBuffer b = new TupleShuffleBuffer(maxRows, maxBytes);
    b.startFill(random, Long.MAX_VALUE);
    return b;
  }
}
