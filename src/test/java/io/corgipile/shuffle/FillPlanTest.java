package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.shuffle.FillPlan.Slice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FillPlanTest {
  private static List<Long> fillRows(FillPlan plan) {
    List<Long> rows = new ArrayList<>();
    for (int i = 0; i < plan.fills(); i++) {
      rows.add(plan.rows(i));
    }
    return rows;
  }

  @Test
  void poursWholeBlocksWhileTheyFit() {
    assertThat(fillRows(FillPlan.of(new long[] {3, 3, 3, 3, 3}, 10))).containsExactly(9L, 6L);
    assertThat(fillRows(FillPlan.of(new long[] {4, 7, 2, 1}, 10))).containsExactly(4L, 10L);
    assertThat(fillRows(FillPlan.of(new long[] {10, 10}, 10))).containsExactly(10L, 10L);
  }

  @Test
  void splitsOnlyABlockLargerThanTheWholeBuffer() {
    // 3 | 25 = 10 + 10 + 5, whose rest stays alone: 5 | 6 is nearer even than 9 | 2
    assertThat(fillRows(FillPlan.of(new long[] {3, 25, 4, 2}, 10)))
        .containsExactly(3L, 10L, 10L, 5L, 6L);
  }

  @Test
  void leavesTheLastFillNoRemainder() {
    long[] tenRowBlocks = new long[21];
    Arrays.fill(tenRowBlocks, 10);
    assertThat(fillRows(FillPlan.of(tenRowBlocks, 100)))
        .containsExactly(70L, 70L, 70L); // not 100, 100, 10
    // shaped like the 11M-row bench table at one partition: 612 blocks, a buffer of 10% of its
    // rows,
    // which a greedy pour cuts into ten fills of 61 blocks and a last one of 2
    long[] rowGroups = new long[612];
    Arrays.fill(rowGroups, 17_974);
    rowGroups[611] = 11_000_000 - 611 * 17_974L;
    FillPlan plan = FillPlan.of(rowGroups, 1_100_000);
    assertThat(plan.fills()).isEqualTo(11);
    assertThat(fillRows(plan))
        .allSatisfy(rows -> assertThat(rows).isBetween(55 * 17_886L, 56 * 17_974L));
  }

  @Test
  void poursTheFewestFillsAsEvenAsBlocksAllow() {
    Random random = new Random(7);
    for (int trial = 0; trial < 2_000; trial++) {
      long capacity = 1 + random.nextInt(200);
      long[] blocks = random.longs(1 + random.nextInt(60), 0, capacity + 1).toArray();
      FillPlan plan = FillPlan.of(blocks, capacity);
      long total = Arrays.stream(blocks).sum();
      long largest = Arrays.stream(blocks).max().orElseThrow();
      assertThat(plan.fills())
          .as("fills of %s", Arrays.toString(blocks))
          .isEqualTo(greedyFills(blocks, capacity));
      for (int i = 0; i < plan.fills(); i++) {
        assertThat(plan.rows(i))
            .isLessThanOrEqualTo(capacity)
            .isGreaterThan(total / plan.fills() - largest);
      }
    }
  }

  /**
   * Fills of a pour that closes a fill only when the next block does not fit: the fewest there are.
   */
  private static int greedyFills(long[] blocks, long capacity) {
    int fills = 0;
    long inFill = 0;
    for (long rows : blocks) {
      if (inFill > 0 && inFill + rows > capacity) {
        fills++;
        inFill = 0;
      }
      inFill += rows;
    }
    return inFill > 0 ? fills + 1 : fills;
  }

  @Test
  void blocksOfNoRowsMakeNoFills() {
    assertThat(FillPlan.of(new long[0], 10).fills()).isZero();
    assertThat(FillPlan.of(new long[] {0, 0}, 10).fills()).isZero();
    assertThat(fillRows(FillPlan.of(new long[] {0, 4, 0, 4, 0}, 10))).containsExactly(8L);
    assertThat(fillRows(FillPlan.perBlock(new long[] {0, 4, 0, 3, 0}))).containsExactly(4L, 3L);
  }

  @Test
  void slicesNameTheirFillsBlocksAndRows() {
    FillPlan plan = FillPlan.of(new long[] {3, 25, 4, 2}, 10);
    assertThat(plan.rounds(SyncInterval.EPOCH)).isEqualTo(1);
    assertThat(plan.slice(SyncInterval.EPOCH, 0, 1)).isEqualTo(new Slice(0, 5, 0, 4, 0, 34));
    assertThat(plan.rounds(SyncInterval.BUFFER)).isEqualTo(5);
    assertThat(plan.slice(SyncInterval.BUFFER, 0, 5)).isEqualTo(new Slice(0, 1, 0, 1, 0, 3));
    assertThat(plan.slice(SyncInterval.BUFFER, 1, 5)).isEqualTo(new Slice(1, 2, 1, 2, 0, 10));
    assertThat(plan.slice(SyncInterval.BUFFER, 2, 5)).isEqualTo(new Slice(2, 3, 1, 2, 10, 10));
    assertThat(plan.slice(SyncInterval.BUFFER, 3, 5)).isEqualTo(new Slice(3, 4, 1, 2, 20, 5));
    assertThat(plan.slice(SyncInterval.BUFFER, 4, 5)).isEqualTo(new Slice(4, 5, 2, 4, 0, 6));
    // 3 + 10 >= 12; 10 + 5 >= 12; 6
    assertThat(plan.rounds(SyncInterval.parse("12"))).isEqualTo(3);
    assertThat(plan.slice(SyncInterval.parse("12"), 1, 3)).isEqualTo(new Slice(2, 4, 1, 2, 10, 15));
  }

  @Test
  void slicesBeyondTheLastRoundAreEmpty() {
    FillPlan plan = FillPlan.of(new long[] {3, 3}, 10);
    assertThat(plan.slice(SyncInterval.BUFFER, 1, 1)).isEqualTo(new Slice(1, 1, 2, 2, 0, 0));
    assertThat(plan.slice(SyncInterval.EPOCH, 1, 1).rows()).isZero();
    assertThat(FillPlan.of(new long[0], 10).slice(SyncInterval.EPOCH, 0, 1).rows()).isZero();
    assertThatThrownBy(() -> plan.slice(SyncInterval.BUFFER, 0, 0))
        .hasMessage("Cannot slice an epoch into 0 rounds: it has at least 1");
  }

  @Test
  void aPartitionSpreadsItsBuffersEvenlyOverTheEpochsRounds() {
    FillPlan plan =
        FillPlan.of(new long[] {10, 10, 10, 10, 10}, 10); // five fills of one block each
    // fewer rounds than fills: every round reads, consecutive fills together (0-2, 3-4)
    assertThat(plan.slice(SyncInterval.BUFFER, 0, 2)).isEqualTo(new Slice(0, 3, 0, 3, 0, 30));
    assertThat(plan.slice(SyncInterval.BUFFER, 1, 2)).isEqualTo(new Slice(3, 5, 3, 5, 0, 20));
    // more rounds than fills: the empty rounds are spread, not all at the end
    assertThat(
            IntStream.range(0, 8)
                .map(r -> (int) plan.slice(SyncInterval.BUFFER, r, 8).rows())
                .toArray())
        .containsExactly(10, 0, 10, 10, 0, 10, 0, 10);
  }

  @Test
  void slicesLeaveOutBlocksOfNoRowsAtTheirEdges() {
    FillPlan plan = FillPlan.perBlock(new long[] {0, 4, 0, 3, 0});
    assertThat(plan.slice(SyncInterval.BUFFER, 0, 2)).isEqualTo(new Slice(0, 1, 1, 2, 0, 4));
    assertThat(plan.slice(SyncInterval.BUFFER, 1, 2)).isEqualTo(new Slice(1, 2, 3, 4, 0, 3));
    assertThat(plan.slice(SyncInterval.EPOCH, 0, 1)).isEqualTo(new Slice(0, 2, 1, 4, 0, 7));
  }

  @Test
  void slicesCoverTheStreamOnceInOrder() {
    long[] blocks = {7, 1, 30, 2, 2, 9, 11, 0, 5};
    for (long capacity : new long[] {1, 3, 8, 10, 100}) {
      FillPlan plan = FillPlan.of(blocks, capacity);
      for (SyncInterval interval :
          List.of(SyncInterval.EPOCH, SyncInterval.BUFFER, SyncInterval.parse("9"))) {
        long next = 0;
        int fill = 0;
        int rounds = 1 + (int) (capacity % 4); // fewer, as many or more rounds than the plan's own
        for (int r = 0; r < rounds; r++) {
          Slice s = plan.slice(interval, r, rounds);
          if (s.rows() == 0) {
            continue; // a round the partition skips
          }
          assertThat(s.firstFill()).isEqualTo(fill);
          long start = 0;
          for (int b = 0; b < s.firstBlock(); b++) {
            start += blocks[b];
          }
          assertThat(start + s.skipRows()).isEqualTo(next);
          next += s.rows();
          fill = s.endFill();
        }
        assertThat(next).isEqualTo(67);
        assertThat(fill).isEqualTo(plan.fills());
      }
      for (int i = 0; i < plan.fills(); i++) {
        assertThat(plan.rows(i)).isBetween(1L, capacity);
      }
    }
  }

  @Test
  void rejectsACapacityOfNoRows() {
    assertThatThrownBy(() -> FillPlan.of(new long[] {1}, 0))
        .hasMessage("Cannot plan fills: the capacity must be >= 1 row, got 0");
  }
}
