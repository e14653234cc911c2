package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.scanOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.shuffle.FillPlan;
import io.corgipile.shuffle.SplitMix64;
import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * When a partition's next slice may be filled ahead ({@link ShuffledBuffers#afterLastFill}): once
 * the slice's last fill is in the buffer the task reads and no other buffer holds memory, so a
 * partition never holds more than the two buffers prefetch budgets.
 */
class ShuffledBuffersTest {
  private static final int GROUP_ROWS = 100;
  private static CorgiPileScan scan;

  @BeforeAll
  static void planTable() {
    // 8 row groups of 100 rows
    String table = TestTables.labelSorted(TestTables.tempDir("shuffled-buffers"), 800, GROUP_ROWS);
    scan = (CorgiPileScan) scanOf(corgipile("partitions", "1").load(table));
  }

  /** What the partition held when the action ran, and on which thread. */
  private record Held(long firstBytes, long secondBytes, long rowsRead, boolean onTaskThread) {}

  /**
   * Reads fills of {@code fillRows} over {@code groups} row groups through {@code first} and {@code
   * second} (or none), recording what was held when {@link ShuffledBuffers#afterLastFill} ran;
   * returns the rows read.
   */
  private static long read(
      int groups, long fillRows, boolean twoBuffers, AtomicReference<Held> held)
      throws IOException {
    ReaderMetrics metrics = new ReaderMetrics();
    int[] order = new int[groups];
    Arrays.setAll(order, i -> i);
    long[] blockRows = new long[groups];
    Arrays.fill(blockRows, GROUP_ROWS);
    FillPlan fills = FillPlan.of(blockRows, fillRows);
    BlockRowStream source =
        new BlockRowStream(
            new BlockOpener(scan.plan(), scan.settings(), metrics),
            order,
            0,
            (long) groups * GROUP_ROWS,
            metrics);
    BufferFiller filler =
        new BufferFiller(source, fills, 0, fills.fills(), fill -> new SplitMix64(fill));
    TupleShuffleBuffer first = new TupleShuffleBuffer(fillRows, Long.MAX_VALUE);
    TupleShuffleBuffer second =
        twoBuffers ? new TupleShuffleBuffer(fillRows, Long.MAX_VALUE) : null;
    Thread task = Thread.currentThread();
    long[] rows = {0};
    try (ShuffledBuffers buffers =
        new ShuffledBuffers(source, filler, first, second, "test-fill", metrics)) {
      buffers.afterLastFill(
          () ->
              held.set(
                  new Held(
                      first.allocatedBytes(),
                      second == null ? 0 : second.allocatedBytes(),
                      rows[0],
                      Thread.currentThread() == task)));
      int n;
      while ((n = buffers.nextRun(64)) > 0) {
        rows[0] += n;
      }
    }
    return rows[0];
  }

  @Test
  void withTwoBuffersTheLastFillLetsTheOtherGoBeforeTheNextSliceIsFilled() throws Exception {
    AtomicReference<Held> held = new AtomicReference<>();
    assertThat(read(8, 200, true, held)).isEqualTo(800);
    Held h = held.get();
    assertThat(h).as("ran").isNotNull();
    assertThat(h.onTaskThread()).as("on the fill thread").isFalse();
    assertThat(Math.min(h.firstBytes(), h.secondBytes())).as("one buffer released").isZero();
    assertThat(Math.max(h.firstBytes(), h.secondBytes())).as("the last fill held").isPositive();
  }

  @Test
  void withOneBufferTheTaskRunsItWhenItTakesTheLastFill() throws Exception {
    AtomicReference<Held> held = new AtomicReference<>();
    assertThat(read(8, 400, false, held)).isEqualTo(800);
    Held h = held.get();
    assertThat(h).as("ran").isNotNull();
    assertThat(h.onTaskThread()).isTrue();
    assertThat(h.rowsRead()).as("when the task took the second of two fills").isEqualTo(400);
    assertThat(h.firstBytes()).isPositive();
  }
}
