package io.corgipile.shuffle;

import static io.corgipile.shuffle.TupleShuffleBufferTest.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SlidingWindowTest {

  private static final long UNBOUNDED = Long.MAX_VALUE;

  // ---------------------------------------------------------------- driver

  /** What one pass of the window emitted, plus what the driver observed along the way. */
  static final class Run {
    final List<byte[]> emitted = new ArrayList<>();
    int slots;
    long maxWindowBytes;
    int maxTuple;
  }

  /**
   * Streams {@code inputs} through the window the way a reader does: fill, then emit-and-replace
   * per input, then drain. Every input is passed through one reused source array that is scribbled
   * over after each call (so the window must copy), and the previously emitted tuple is re-checked
   * right before each following call (it must stay readable until then).
   */
  static Run run(SlidingWindow w, List<byte[]> inputs) {
    Run run = new Run();
    int maxLen = inputs.stream().mapToInt(t -> t.length).max().orElse(0);
    byte[] src = new byte[maxLen + 16];
    int off = 7;
    long windowBytes = 0;
    byte[] pendingExpected = null; // the last emitted tuple, which must still be readable
    byte[] pendingArray = null;
    int pendingOffset = 0;
    for (byte[] t : inputs) {
      run.maxTuple = Math.max(run.maxTuple, t.length);
      System.arraycopy(t, 0, src, off, t.length);
      if (pendingExpected != null) {
        assertStillReadable(pendingArray, pendingOffset, pendingExpected);
      }
      if (!w.isFilled() && w.tryFill(src, off, t.length)) {
        windowBytes += t.length;
        run.maxWindowBytes = Math.max(run.maxWindowBytes, windowBytes);
        Arrays.fill(src, off, off + t.length, (byte) 0x77);
        continue;
      }
      if (pendingExpected != null) {
        assertStillReadable(pendingArray, pendingOffset, pendingExpected);
      }
      if (run.slots == 0) {
        run.slots = w.size();
      }
      if (!w.isFilled()) {
        fail("tryFill refused a tuple but the window is not filled");
      }
      w.emitAndReplace(src, off, t.length);
      Arrays.fill(src, off, off + t.length, (byte) 0x77);
      byte[] e = emitted(w);
      run.emitted.add(e);
      windowBytes += t.length;
      run.maxWindowBytes = Math.max(run.maxWindowBytes, windowBytes);
      windowBytes -= e.length;
      if (w.size() != run.slots) {
        fail("slot count changed from " + run.slots + " to " + w.size());
      }
      pendingExpected = e;
      pendingArray = w.emittedArray();
      pendingOffset = w.emittedOffset();
    }
    if (pendingExpected != null) {
      assertStillReadable(pendingArray, pendingOffset, pendingExpected);
    }
    w.endFill();
    assertThat(w.isFilled()).isTrue();
    if (run.slots == 0) {
      run.slots = w.size();
    }
    while (w.size() > 0) {
      int before = w.size();
      if (pendingExpected != null) {
        assertStillReadable(pendingArray, pendingOffset, pendingExpected);
      }
      w.emitAndRemove();
      if (w.size() != before - 1) {
        fail("drain did not remove one slot");
      }
      byte[] e = emitted(w);
      run.emitted.add(e);
      pendingExpected = e;
      pendingArray = w.emittedArray();
      pendingOffset = w.emittedOffset();
    }
    return run;
  }

  private static byte[] emitted(SlidingWindow w) {
    int off = w.emittedOffset();
    int len = w.emittedLength();
    if (off < 0 || len < 0 || (long) off + len > w.emittedArray().length) {
      fail(
          "emitted tuple ["
              + off
              + ", +"
              + len
              + ") outside its array of "
              + w.emittedArray().length);
    }
    return Arrays.copyOfRange(w.emittedArray(), off, off + len);
  }

  // Plain checks in the per-tuple hot path: AssertJ per tuple would dominate the run time.
  private static void assertStillReadable(byte[] array, int offset, byte[] expected) {
    if (!Arrays.equals(array, offset, offset + expected.length, expected, 0, expected.length)) {
      fail("previously emitted tuple no longer readable before the next call");
    }
  }

  private static Map<ByteBuffer, Integer> multiset(List<byte[]> tuples) {
    Map<ByteBuffer, Integer> m = new HashMap<>();
    for (byte[] t : tuples) {
      m.merge(ByteBuffer.wrap(t), 1, Integer::sum);
    }
    return m;
  }

  /** Ids of tuples made by {@link TupleShuffleBufferTest#tuple}, checking each tuple's bytes. */
  private static int[] ids(List<byte[]> emitted) {
    int[] ids = new int[emitted.size()];
    for (int k = 0; k < ids.length; k++) {
      byte[] t = emitted.get(k);
      ids[k] = ByteBuffer.wrap(t).getInt(0);
      if (!Arrays.equals(t, tuple(ids[k], t.length))) {
        fail("output " + k + " (id " + ids[k] + ", " + t.length + " bytes) corrupted");
      }
    }
    return ids;
  }

  private static List<byte[]> tuples(long seed, int n, int minLen, int maxLen) {
    Random r = new Random(seed);
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(tuple(i, minLen + r.nextInt(maxLen - minLen + 1)));
    }
    return out;
  }

  private static void assertEachExactlyOnce(List<byte[]> inputs, Run run) {
    assertThat(run.emitted).hasSameSizeAs(inputs);
    int[] ids = ids(run.emitted);
    assertThat(Arrays.stream(ids).sorted().toArray())
        .isEqualTo(IntStream.range(0, inputs.size()).toArray());
    for (int k = 0; k < ids.length; k++) {
      if (!Arrays.equals(run.emitted.get(k), inputs.get(ids[k]))) {
        fail("output " + k + " differs from input " + ids[k]);
      }
    }
  }

  private static SlidingWindow window(long rows, long bytes, long seed) {
    return new SlidingWindow(rows, bytes, new SplitMix64(seed));
  }

  // ---------------------------------------------------------------- construction and fill

  @Test
  void rejectsNonPositiveCapacity() {
    assertThatThrownBy(() -> window(0, 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create a sliding window: capacity must be positive, got 0 rows, 10 bytes");
    assertThatThrownBy(() -> window(10, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create a sliding window: capacity must be positive, got 10 rows, 0 bytes");
    assertThatThrownBy(() -> window(-5, -6, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create a sliding window: capacity must be positive, got -5 rows, -6 bytes");
  }

  @Test
  void fillStopsAtTheRowLimit() {
    SlidingWindow w = window(5, UNBOUNDED, 1);
    assertThat(w.isFilled()).isFalse();
    assertThat(w.size()).isZero();
    byte[] t = tuple(1, 10);
    for (int i = 0; i < 5; i++) {
      assertThat(w.tryFill(t, 0, t.length)).isTrue();
      assertThat(w.size()).isEqualTo(i + 1);
    }
    assertThat(w.isFilled()).isFalse(); // not known to be full until an input is refused
    assertThat(w.tryFill(t, 0, t.length)).isFalse();
    assertThat(w.isFilled()).isTrue();
    assertThat(w.size()).isEqualTo(5);
    assertThat(w.tryFill(t, 0, 1)).as("fill is over for good").isFalse();
    assertThat(w.size()).isEqualTo(5);
  }

  @Test
  void fillStopsAtTheByteLimit() {
    SlidingWindow w = window(UNBOUNDED, 1000, 1);
    byte[] t = tuple(1, 300);
    assertThat(w.tryFill(t, 0, 300)).isTrue();
    assertThat(w.tryFill(t, 0, 300)).isTrue();
    assertThat(w.tryFill(t, 0, 300)).isTrue();
    assertThat(w.tryFill(t, 0, 300)).as("1200 bytes > 1000").isFalse();
    assertThat(w.isFilled()).isTrue();
    assertThat(w.size()).isEqualTo(3);
    // Exactly at the limit is still accepted.
    SlidingWindow x = window(UNBOUNDED, 900, 1);
    for (int i = 0; i < 3; i++) {
      assertThat(x.tryFill(t, 0, 300)).isTrue();
    }
    assertThat(x.tryFill(new byte[0], 0, 0)).as("a 0-byte tuple still fits").isTrue();
    assertThat(x.tryFill(t, 0, 1)).isFalse();
  }

  @Test
  void firstTupleIsAcceptedEvenWhenLargerThanTheByteLimit() {
    SlidingWindow w = window(UNBOUNDED, 100, 1);
    byte[] big = tuple(9, 5000);
    assertThat(w.tryFill(big, 0, big.length)).isTrue();
    assertThat(w.tryFill(tuple(10, 1), 0, 1)).isFalse();
    assertThat(w.size()).isEqualTo(1);
    w.emitAndRemove();
    assertThat(emitted(w)).isEqualTo(big);
  }

  @Test
  void endFillEndsTheFillEarly() {
    SlidingWindow w = window(100, UNBOUNDED, 1);
    byte[] t = tuple(1, 10);
    assertThat(w.tryFill(t, 0, 10)).isTrue();
    w.endFill();
    assertThat(w.isFilled()).isTrue();
    assertThat(w.tryFill(t, 0, 10)).isFalse();
    assertThat(w.size()).isEqualTo(1);
  }

  // ---------------------------------------------------------------- exactly once, bytes intact

  @Test
  void everyTupleEmittedExactlyOnceThroughFillReplacementAndDrain() {
    for (int n : new int[] {1, 2, 9, 10, 11, 50, 3000}) {
      List<byte[]> inputs = tuples(n, n, 4, 60);
      Run run = run(window(10, UNBOUNDED, n), inputs);
      assertEachExactlyOnce(inputs, run);
      assertThat(run.slots).isEqualTo(Math.min(10, n));
    }
  }

  @Test
  void inputShorterThanTheWindowDrainsInRandomOrder() {
    List<byte[]> inputs = tuples(1, 60, 4, 100);
    Run run = run(window(1000, UNBOUNDED, 2), inputs);
    assertEachExactlyOnce(inputs, run);
    assertThat(ids(run.emitted)).isNotEqualTo(IntStream.range(0, 60).toArray());
  }

  @Test
  void bytesStayIntactThroughManyCompactionsWithVariableSizes() {
    // ~2.3 MB through a window of ~8 KB of live data in a log of at least 64 KiB: the log is
    // compacted dozens of times.
    List<byte[]> inputs = tuples(3, 15_000, 4, 300);
    Run run = run(window(50, UNBOUNDED, 3), inputs);
    assertEachExactlyOnce(inputs, run);
  }

  @Test
  void bytesStayIntactThroughGrowth() {
    // Tuples growing from 4 bytes to ~150 KB: the log must grow many times while holding data.
    List<byte[]> inputs = new ArrayList<>();
    int len = 4;
    for (int i = 0; i < 150; i++) {
      inputs.add(tuple(i, len));
      len = Math.min(150_000, len + len / 8 + 3);
    }
    Run run = run(window(8, UNBOUNDED, 4), inputs);
    assertEachExactlyOnce(inputs, run);
    // ... and shrinking again, and a byte-bounded window.
    List<byte[]> reversed = new ArrayList<>();
    for (int i = inputs.size() - 1; i >= 0; i--) {
      reversed.add(tuple(inputs.size() - 1 - i, inputs.get(i).length));
    }
    Run back = run(window(UNBOUNDED, 500_000, 5), reversed);
    assertEachExactlyOnce(reversed, back);
  }

  @Test
  void variableSizesIncludingEmptyTuples() {
    Random r = new Random(6);
    List<byte[]> inputs = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      int kind = r.nextInt(4);
      int len =
          kind == 0 ? 0 : kind == 1 ? r.nextInt(4) : kind == 2 ? r.nextInt(100) : r.nextInt(2000);
      byte[] t = new byte[len];
      r.nextBytes(t);
      inputs.add(t);
    }
    for (long[] cap :
        new long[][] {{1, UNBOUNDED}, {64, UNBOUNDED}, {UNBOUNDED, 8_000}, {16, 3000}}) {
      Run run = run(window(cap[0], cap[1], 7), inputs);
      assertThat(run.emitted).hasSameSizeAs(inputs);
      assertThat(multiset(run.emitted)).isEqualTo(multiset(inputs));
    }
  }

  @Test
  void onlyEmptyTuples() {
    List<byte[]> inputs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      inputs.add(new byte[0]);
    }
    Run run = run(window(10, UNBOUNDED, 1), inputs);
    assertThat(run.emitted).hasSize(100).allMatch(t -> t.length == 0);
  }

  // ---------------------------------------------------------------- memory

  @Test
  void peakBytesStaysWithinTwiceTheLiveBytesPlusOneTuple() {
    // The log is compacted instead of growing with the input: its size is bounded by about twice
    // the largest live data (window plus the incoming tuple), plus a slot index and the 64 KiB
    // minimum log. Here up to 8 MB stream through windows of at most ~300 KB.
    record Case(long rows, long bytes, int minLen, int maxLen, int n) {}
    for (Case c :
        List.of(
            new Case(100, UNBOUNDED, 1000, 3000, 4_000),
            new Case(UNBOUNDED, 200_000, 500, 5000, 2_500),
            new Case(2000, UNBOUNDED, 10, 200, 30_000))) {
      List<byte[]> inputs = tuples(c.n(), c.n(), c.minLen(), c.maxLen());
      SlidingWindow w = window(c.rows(), c.bytes(), 8);
      Run run = run(w, inputs);
      long index = 16L * Math.max(1024, 2L * run.slots);
      long bound = Math.max(64 << 10, 2 * (run.maxWindowBytes + run.maxTuple)) + index;
      assertThat(w.peakBytes())
          .as("%s: window %d bytes", c, run.maxWindowBytes)
          .isGreaterThanOrEqualTo(run.maxWindowBytes)
          .isLessThanOrEqualTo(bound);
      long total = inputs.stream().mapToLong(t -> t.length).sum();
      assertThat(w.peakBytes()).isLessThan(total / 5);
    }
  }

  @Test
  void peakBytesIsZeroBeforeAnyTuple() {
    assertThat(window(10, 10, 1).peakBytes()).isZero();
  }

  // ---------------------------------------------------------------- randomness

  @Test
  void sameSeedSameOrderOtherSeedOtherOrder() {
    List<byte[]> inputs = tuples(9, 500, 4, 50);
    int[] a = ids(run(window(20, UNBOUNDED, 100), inputs).emitted);
    int[] b = ids(run(window(20, UNBOUNDED, 100), inputs).emitted);
    int[] c = ids(run(window(20, UNBOUNDED, 101), inputs).emitted);
    assertThat(a).isEqualTo(b);
    assertThat(c).isNotEqualTo(a);
  }

  @Test
  void windowOfOneKeepsStorageOrder() {
    List<byte[]> inputs = tuples(10, 200, 4, 50);
    assertThat(ids(run(window(1, UNBOUNDED, 1), inputs).emitted))
        .isEqualTo(IntStream.range(0, 200).toArray());
  }

  @Test
  void tuplesMoveEarlierByLessThanTheWindowButDoMix() {
    // With N slots, the k-th output is drawn from a window holding inputs 0 .. k + N - 1, so an
    // input can come out at most N - 1 places early; a window that mixes gets close to that.
    int n = 10_000;
    for (int slots : new int[] {2, 16, 100}) {
      List<byte[]> inputs = tuples(slots, n, 4, 40);
      int[] ids = ids(run(window(slots, UNBOUNDED, slots), inputs).emitted);
      int maxEarly = Integer.MIN_VALUE;
      long absDisplacement = 0;
      for (int k = 0; k < n; k++) {
        maxEarly = Math.max(maxEarly, ids[k] - k);
        absDisplacement += Math.abs(ids[k] - k);
      }
      assertThat(maxEarly)
          .as("window %d", slots)
          .isLessThanOrEqualTo(slots - 1)
          .isGreaterThanOrEqualTo(slots / 2);
      // A tuple stays a Geometric(1/N) number of steps in the window: mean |displacement| is of
      // order N.
      assertThat((double) absDisplacement / n).as("window %d", slots).isGreaterThan(slots / 4.0);
    }
  }

  @Test
  void firstOutputIsUniformOverTheWindow() {
    // 8 slots, 12 inputs, 2400 seeds: the first emitted input is uniform over 0..7 and never >= 8.
    // 7 df; 0.9999 quantile of chi2(7) = 29.88.
    List<byte[]> inputs = tuples(11, 12, 4, 20);
    long[] counts = new long[8];
    for (int seed = 0; seed < 2400; seed++) {
      int first = ids(run(window(8, UNBOUNDED, seed), inputs).emitted)[0];
      assertThat(first).isBetween(0, 7);
      counts[first]++;
    }
    assertThat(SplitMix64Test.chiSquare(counts)).isLessThan(29.88);
  }

  // ---------------------------------------------------------------- reserve

  @Test
  void tuplesEmittedAfterAReserveStayWhereTheyWereUntilItsRoomIsUsed() {
    int length = 24;
    int batch = 64;
    List<byte[]> inputs = tuples(3, 3000, length, length);
    SlidingWindow w = window(100, UNBOUNDED, 5);
    int next = 0;
    while (w.tryFill(inputs.get(next), 0, length)) {
      next++;
    }
    List<byte[]> expected = new ArrayList<>();
    List<byte[]> arrays = new ArrayList<>();
    List<Integer> offsets = new ArrayList<>();
    while (next < inputs.size()) {
      w.reserve((long) batch * length);
      expected.clear();
      arrays.clear();
      offsets.clear();
      for (int k = 0; k < batch && next < inputs.size(); k++) {
        assertThat(w.room()).isGreaterThanOrEqualTo(length);
        w.emitAndReplace(inputs.get(next++), 0, length);
        expected.add(
            Arrays.copyOfRange(w.emittedArray(), w.emittedOffset(), w.emittedOffset() + length));
        arrays.add(w.emittedArray());
        offsets.add(w.emittedOffset());
      }
      // the whole batch is still readable in place, as a batch that views it reads it
      for (int k = 0; k < expected.size(); k++) {
        assertStillReadable(arrays.get(k), offsets.get(k), expected.get(k));
      }
    }
  }

  @Test
  void reservingDoesNotChangeTheOrder() {
    List<byte[]> inputs = tuples(4, 2000, 16, 16);
    int[] plain = ids(run(window(50, UNBOUNDED, 8), inputs).emitted);
    SlidingWindow w = window(50, UNBOUNDED, 8);
    List<byte[]> emitted = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      if (i % 37 == 0) {
        w.reserve(37 * 16);
      }
      byte[] t = inputs.get(i);
      if (!w.isFilled() && w.tryFill(t, 0, t.length)) {
        continue;
      }
      w.emitAndReplace(t, 0, t.length);
      emitted.add(
          Arrays.copyOfRange(
              w.emittedArray(), w.emittedOffset(), w.emittedOffset() + w.emittedLength()));
    }
    while (w.size() > 0) {
      w.emitAndRemove();
      emitted.add(
          Arrays.copyOfRange(
              w.emittedArray(), w.emittedOffset(), w.emittedOffset() + w.emittedLength()));
    }
    assertThat(ids(emitted)).isEqualTo(plain);
  }
}
