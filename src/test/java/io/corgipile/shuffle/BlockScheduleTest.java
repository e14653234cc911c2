package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BlockScheduleTest {

  // ---------------------------------------------------------------- helpers

  private static BlockSchedule schedule(
      long[] rows, int partitions, ShuffleMode mode, BlockAssignment a, long seed) {
    return new BlockSchedule(rows, partitions, mode, a, new EpochSeeds(seed));
  }

  private static int[][] allPartitions(BlockSchedule s, int epoch) {
    int[][] out = new int[s.partitions()][];
    for (int p = 0; p < s.partitions(); p++) {
      out[p] = s.blocksFor(epoch, p);
    }
    return out;
  }

  private static int[] concat(int[][] lists) {
    return Arrays.stream(lists).flatMapToInt(Arrays::stream).toArray();
  }

  private static int[] sorted(int[] a) {
    int[] c = a.clone();
    Arrays.sort(c);
    return c;
  }

  private static int[] identity(int n) {
    return IntStream.range(0, n).toArray();
  }

  private static long sum(long[] rows) {
    return Arrays.stream(rows).sum();
  }

  private static long max(long[] rows) {
    return Arrays.stream(rows).max().orElse(0);
  }

  /** Block-row shapes that stress the slicing: equal, random, skewed, zeros, tiny. */
  private static List<long[]> shapes() {
    List<long[]> shapes = new ArrayList<>();
    shapes.add(new long[0]);
    shapes.add(new long[] {5});
    shapes.add(new long[] {0});
    shapes.add(new long[] {0, 0, 0, 0, 0, 0, 0});
    shapes.add(new long[] {10, 10, 10});
    shapes.add(new long[] {100, 1, 1, 1});
    shapes.add(new long[] {1, 1, 1, 1, 1_000_000});
    shapes.add(new long[] {0, 7, 0, 0, 3, 0, 9, 0});
    shapes.add(new long[] {1_000_000_000L, 1, 2, 3, 0, 500_000_000L, 4, 5, 6, 7, 8, 9});
    long[] equal = new long[40];
    Arrays.fill(equal, 1000);
    shapes.add(equal);
    Random r = new Random(1234);
    for (int i = 0; i < 40; i++) {
      int n = r.nextInt(60);
      long[] rows = new long[n];
      for (int b = 0; b < n; b++) {
        rows[b] =
            switch (r.nextInt(4)) {
              case 0 -> 0;
              case 1 -> r.nextInt(10);
              case 2 -> r.nextInt(100_000);
              default -> r.nextInt(1000) + 1000;
            };
      }
      if (n > 0 && r.nextBoolean()) {
        rows[r.nextInt(n)] = 5_000_000; // one giant block
      }
      shapes.add(rows);
    }
    return shapes;
  }

  private static int[] partitionCounts(int blocks) {
    return new int[] {1, 2, 3, 7, Math.max(1, blocks), blocks + 5};
  }

  /**
   * Checks the documented slicing rule on a concatenated order: the block whose rows occupy [s, s +
   * r) of the order's T rows belongs to slice floor(P * (s + r/2) / T) (the last slice when that is
   * P). Exact integer arithmetic; a midpoint exactly on a slice boundary may go either way. When
   * all blocks have 0 rows, the slices must instead be near-equal in block count.
   */
  private static void assertMidpointSlicing(long[] rows, int[] order, int[][] slices) {
    int partitions = slices.length;
    int[] owner = new int[rows.length];
    Arrays.fill(owner, -1);
    for (int p = 0; p < partitions; p++) {
      for (int b : slices[p]) {
        owner[b] = p;
      }
    }
    long total = 0;
    for (int b : order) {
      total += rows[b];
    }
    if (total == 0) {
      int min = Arrays.stream(slices).mapToInt(s -> s.length).min().orElse(0);
      int maxLen = Arrays.stream(slices).mapToInt(s -> s.length).max().orElse(0);
      assertThat(maxLen - min).as("0-row blocks spread by count").isLessThanOrEqualTo(1);
      return;
    }
    long start = 0;
    for (int b : order) {
      long twiceMid = 2 * start + rows[b];
      long num = twiceMid * partitions;
      long den = 2 * total;
      int expected = (int) Math.min(partitions - 1, num / den);
      boolean onBoundary = num % den == 0 && num / den >= 1 && num / den <= partitions - 1;
      if (onBoundary) {
        assertThat(owner[b]).as("block %d on a boundary", b).isIn(expected, expected - 1);
      } else {
        assertThat(owner[b])
            .as("owner of block %d (rows %d at %d of %d)", b, rows[b], start, total)
            .isEqualTo(expected);
      }
      start += rows[b];
    }
  }

  private static void assertNearEqualRows(BlockSchedule s, long[] rows, int[][] slices) {
    // A slice covers [pT/P, (p+1)T/P) up to half a block at each end, so it differs from T/P by at
    // most one block's rows. Integer form: |rows_p * P - T| <= maxBlock * P.
    int partitions = slices.length;
    long total = sum(rows);
    long maxBlock = max(rows);
    for (int p = 0; p < partitions; p++) {
      long got = s.rowsOf(slices[p]);
      assertThat(Math.abs(got * partitions - total))
          .as(
              "rows of partition %d: %d, ideal %d/%d, max block %d",
              p, got, total, partitions, maxBlock)
          .isLessThanOrEqualTo(maxBlock * partitions);
    }
  }

  // ---------------------------------------------------------------- coverage

  @Test
  void everyBlockExactlyOnceForEveryEpochModeAndAssignment() {
    for (long[] rows : shapes()) {
      for (int partitions : partitionCounts(rows.length)) {
        for (ShuffleMode mode : ShuffleMode.values()) {
          for (BlockAssignment a : BlockAssignment.values()) {
            BlockSchedule s = schedule(rows, partitions, mode, a, 17);
            for (int epoch = 0; epoch < 4; epoch++) {
              int[] all = concat(allPartitions(s, epoch));
              assertThat(sorted(all))
                  .as(
                      "rows %s, %d partitions, %s/%s, epoch %d",
                      Arrays.toString(rows), partitions, mode, a, epoch)
                  .isEqualTo(identity(rows.length));
            }
          }
        }
      }
    }
  }

  @Test
  void morePartitionsThanBlocksLeavesSomeEmptyAndEachBlockOnce() {
    long[] rows = {10, 10, 10};
    for (BlockAssignment a : BlockAssignment.values()) {
      BlockSchedule s = schedule(rows, 10, ShuffleMode.CORGIPILE, a, 3);
      int[][] slices = allPartitions(s, 0);
      assertThat(sorted(concat(slices))).containsExactly(0, 1, 2);
      assertThat(Arrays.stream(slices).filter(x -> x.length == 0).count()).isEqualTo(7);
      assertThat(Arrays.stream(slices).mapToInt(x -> x.length).max().getAsInt()).isEqualTo(1);
    }
  }

  @Test
  void noBlocksGivesEmptyPartitions() {
    for (ShuffleMode mode : ShuffleMode.values()) {
      for (BlockAssignment a : BlockAssignment.values()) {
        BlockSchedule s = schedule(new long[0], 3, mode, a, 1);
        for (int p = 0; p < 3; p++) {
          assertThat(s.blocksFor(0, p)).isEmpty();
        }
      }
    }
  }

  @Test
  void allZeroRowBlocksAreSpreadByCount() {
    long[] rows = new long[10];
    for (ShuffleMode mode : ShuffleMode.values()) {
      for (BlockAssignment a : BlockAssignment.values()) {
        BlockSchedule s = schedule(rows, 4, mode, a, 2);
        int[][] slices = allPartitions(s, 1);
        assertThat(sorted(concat(slices))).isEqualTo(identity(10));
        assertThat(Arrays.stream(slices).mapToInt(x -> x.length))
            .allMatch(len -> len == 2 || len == 3);
      }
    }
  }

  // ---------------------------------------------------------------- slicing

  @Test
  void epochSlicesAreContiguousMidpointSlicesOfOneEpochPermutation() {
    for (long[] rows : shapes()) {
      for (ShuffleMode mode : new ShuffleMode[] {ShuffleMode.CORGIPILE, ShuffleMode.BLOCK}) {
        for (int epoch = 0; epoch < 3; epoch++) {
          // The epoch's permutation of all blocks, as read by a single partition.
          int[] permutation = schedule(rows, 1, mode, BlockAssignment.EPOCH, 5).blocksFor(epoch, 0);
          assertThat(sorted(permutation)).isEqualTo(identity(rows.length));
          for (int partitions : partitionCounts(rows.length)) {
            BlockSchedule s = schedule(rows, partitions, mode, BlockAssignment.EPOCH, 5);
            int[][] slices = allPartitions(s, epoch);
            // Contiguous in the shuffled order: the slices, in partition order, are the
            // permutation.
            assertThat(concat(slices))
                .as("%d partitions, %s", partitions, Arrays.toString(rows))
                .isEqualTo(permutation);
            assertMidpointSlicing(rows, permutation, slices);
          }
        }
      }
    }
  }

  @Test
  void fixedAndUnshuffledSlicesAreContiguousMidpointSlicesOfStorageOrder() {
    for (long[] rows : shapes()) {
      for (int partitions : partitionCounts(rows.length)) {
        for (ShuffleMode mode : ShuffleMode.values()) {
          for (BlockAssignment a : BlockAssignment.values()) {
            if (mode.shufflesBlocks() && a == BlockAssignment.EPOCH) {
              continue;
            }
            BlockSchedule s = schedule(rows, partitions, mode, a, 9);
            int[][] slices = allPartitions(s, 2);
            int[][] sets =
                Arrays.stream(slices).map(BlockScheduleTest::sorted).toArray(int[][]::new);
            assertThat(concat(sets)).isEqualTo(identity(rows.length));
            assertMidpointSlicing(rows, identity(rows.length), sets);
          }
        }
      }
    }
  }

  @Test
  void slicesAreNearEqualInRowsForEveryModeAndAssignment() {
    for (long[] rows : shapes()) {
      for (int partitions : partitionCounts(rows.length)) {
        for (ShuffleMode mode : ShuffleMode.values()) {
          for (BlockAssignment a : BlockAssignment.values()) {
            BlockSchedule s = schedule(rows, partitions, mode, a, 21);
            for (int epoch = 0; epoch < 3; epoch++) {
              assertNearEqualRows(s, rows, allPartitions(s, epoch));
            }
          }
        }
      }
    }
  }

  @Test
  void equalBlocksSplitEvenly() {
    long[] rows = new long[12];
    Arrays.fill(rows, 100);
    for (ShuffleMode mode : ShuffleMode.values()) {
      for (BlockAssignment a : BlockAssignment.values()) {
        BlockSchedule s = schedule(rows, 4, mode, a, 4);
        for (int p = 0; p < 4; p++) {
          assertThat(s.blocksFor(3, p)).hasSize(3);
          assertThat(s.rowsOf(s.blocksFor(3, p))).isEqualTo(300);
        }
      }
    }
  }

  // ---------------------------------------------------------------- determinism and randomness

  @Test
  void sameArgumentsGiveSameResultAcrossInstances() {
    for (long[] rows : shapes()) {
      for (ShuffleMode mode : ShuffleMode.values()) {
        for (BlockAssignment a : BlockAssignment.values()) {
          BlockSchedule s1 = schedule(rows, 3, mode, a, 77);
          BlockSchedule s2 = schedule(rows.clone(), 3, mode, a, 77);
          for (int epoch = 0; epoch < 3; epoch++) {
            for (int p = 2; p >= 0; p--) { // other call order than s1
              assertThat(s2.blocksFor(epoch, p)).isEqualTo(s1.blocksFor(epoch, p));
            }
            assertThat(s1.blocksFor(epoch, 1)).as("repeat call").isEqualTo(s1.blocksFor(epoch, 1));
          }
        }
      }
    }
  }

  @Test
  void constructorCopiesTheRowArray() {
    long[] rows = {10, 20, 30, 40, 50, 60};
    BlockSchedule s = schedule(rows, 2, ShuffleMode.NONE, BlockAssignment.EPOCH, 1);
    int[] before = s.blocksFor(0, 0);
    long rowsBefore = s.rowsOf(new int[] {0, 1});
    Arrays.fill(rows, 0);
    rows[5] = 1_000_000;
    assertThat(s.blocksFor(0, 0)).isEqualTo(before);
    assertThat(s.rowsOf(new int[] {0, 1})).isEqualTo(rowsBefore);
  }

  private static long[] manyBlocks(int n) {
    long[] rows = new long[n];
    for (int i = 0; i < n; i++) {
      rows[i] = 1000 + (i * 37) % 200;
    }
    return rows;
  }

  @ParameterizedTest
  @EnumSource(
      value = ShuffleMode.class,
      names = {"CORGIPILE", "BLOCK"})
  void newEpochGivesNewPermutation(ShuffleMode mode) {
    long[] rows = manyBlocks(30);
    BlockSchedule one = schedule(rows, 1, mode, BlockAssignment.EPOCH, 8);
    Set<List<Integer>> seen = new HashSet<>();
    for (int epoch = 0; epoch < 50; epoch++) {
      int[] perm = one.blocksFor(epoch, 0);
      assertThat(seen.add(Arrays.stream(perm).boxed().toList()))
          .as("epoch %d repeats an order", epoch)
          .isTrue();
      assertThat(perm).as("shuffled, not storage order").isNotEqualTo(identity(30));
    }
  }

  @Test
  void differentSeedsGiveDifferentOrders() {
    long[] rows = manyBlocks(30);
    for (BlockAssignment a : BlockAssignment.values()) {
      int[] x = concat(allPartitions(schedule(rows, 2, ShuffleMode.CORGIPILE, a, 1), 0));
      int[] y = concat(allPartitions(schedule(rows, 2, ShuffleMode.CORGIPILE, a, 2), 0));
      assertThat(x).isNotEqualTo(y);
    }
  }

  @Test
  void epochAssignmentChangesEachPartitionsBlockSet() {
    long[] rows = manyBlocks(40);
    BlockSchedule s = schedule(rows, 4, ShuffleMode.CORGIPILE, BlockAssignment.EPOCH, 31);
    for (int p = 0; p < 4; p++) {
      Set<Set<Integer>> sets = new HashSet<>();
      for (int epoch = 0; epoch < 10; epoch++) {
        sets.add(toSet(s.blocksFor(epoch, p)));
      }
      // Random 10-of-40 subsets: two equal ones among 10 epochs is astronomically unlikely.
      assertThat(sets).as("partition %d", p).hasSize(10);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = ShuffleMode.class,
      names = {"CORGIPILE", "BLOCK"})
  void fixedAssignmentKeepsBlockSetsButChangesOrder(ShuffleMode mode) {
    long[] rows = manyBlocks(40);
    BlockSchedule s = schedule(rows, 4, mode, BlockAssignment.FIXED, 31);
    for (int p = 0; p < 4; p++) {
      int[] first = s.blocksFor(0, p);
      assertThat(first.length).isGreaterThanOrEqualTo(8);
      Set<List<Integer>> orders = new HashSet<>();
      for (int epoch = 0; epoch < 20; epoch++) {
        int[] blocks = s.blocksFor(epoch, p);
        assertThat(sorted(blocks)).as("partition %d epoch %d", p, epoch).isEqualTo(sorted(first));
        orders.add(Arrays.stream(blocks).boxed().toList());
        if (epoch > 0) {
          assertThat(blocks)
              .as("order changes from epoch %d", epoch - 1)
              .isNotEqualTo(s.blocksFor(epoch - 1, p));
        }
      }
      // 20 draws from >= 8! orders: all distinct unless the order does not really change.
      assertThat(orders).hasSize(20);
    }
  }

  @Test
  void fixedPartitionsShuffleIndependently() {
    // Two partitions with the same number of blocks must not apply the same permutation pattern.
    long[] rows = manyBlocks(40);
    BlockSchedule s = schedule(rows, 4, ShuffleMode.CORGIPILE, BlockAssignment.FIXED, 6);
    int[] a = s.blocksFor(0, 0);
    int[] b = s.blocksFor(0, 1);
    int lo = sorted(b)[0];
    int[] bRelative = Arrays.stream(b).map(x -> x - lo).toArray();
    assertThat(bRelative).isNotEqualTo(a);
  }

  @ParameterizedTest
  @EnumSource(
      value = ShuffleMode.class,
      names = {"NONE", "WINDOW"})
  void unshuffledModesKeepStorageOrderEveryEpoch(ShuffleMode mode) {
    for (long[] rows : shapes()) {
      for (int partitions : partitionCounts(rows.length)) {
        for (BlockAssignment a : BlockAssignment.values()) {
          int[][] reference = allPartitions(schedule(rows, partitions, mode, a, 0), 0);
          assertThat(concat(reference)).isEqualTo(identity(rows.length));
          for (long seed : new long[] {0, 99}) {
            BlockSchedule s = schedule(rows, partitions, mode, a, seed);
            for (int epoch = 0; epoch < 4; epoch++) {
              assertThat(allPartitions(s, epoch)).isDeepEqualTo(reference);
            }
          }
        }
      }
    }
  }

  @Test
  void firstBlockOfAnEpochIsUniform() {
    // 5 equal blocks, one partition: which block is read first, over 10000 epochs. Uniform over 5
    // blocks if epoch permutations are uniform and independent; 4 df; 0.9999 quantile 23.51.
    long[] rows = {10, 10, 10, 10, 10};
    BlockSchedule s = schedule(rows, 1, ShuffleMode.CORGIPILE, BlockAssignment.EPOCH, 1);
    long[] counts = new long[5];
    for (int epoch = 0; epoch < 10_000; epoch++) {
      counts[s.blocksFor(epoch, 0)[0]]++;
    }
    assertThat(SplitMix64Test.chiSquare(counts)).isLessThan(23.51);
  }

  // ---------------------------------------------------------------- API

  @Test
  void partitionsIsReported() {
    assertThat(schedule(new long[] {1}, 5, ShuffleMode.NONE, BlockAssignment.EPOCH, 0).partitions())
        .isEqualTo(5);
  }

  @Test
  void rowsOfSumsTheGivenBlocks() {
    BlockSchedule s =
        schedule(
            new long[] {5, 0, 7, 1_000_000_000_000L},
            1,
            ShuffleMode.NONE,
            BlockAssignment.EPOCH,
            0);
    assertThat(s.rowsOf(new int[0])).isZero();
    assertThat(s.rowsOf(new int[] {2})).isEqualTo(7);
    assertThat(s.rowsOf(new int[] {0, 1, 2, 3})).isEqualTo(1_000_000_000_012L);
    assertThat(s.rowsOf(new int[] {2, 2})).isEqualTo(14);
  }

  @Test
  void rejectsNonPositivePartitionCount() {
    for (int partitions : new int[] {0, -3}) {
      assertThatThrownBy(
              () ->
                  schedule(new long[] {1}, partitions, ShuffleMode.NONE, BlockAssignment.EPOCH, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Cannot schedule blocks: partitions must be >= 1, got " + partitions);
    }
  }

  @Test
  void rejectsPartitionOutsideRange() {
    BlockSchedule s =
        schedule(new long[] {1, 2}, 3, ShuffleMode.CORGIPILE, BlockAssignment.EPOCH, 0);
    assertThatThrownBy(() -> s.blocksFor(0, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot schedule blocks: partition -1 is outside [0, 3)");
    assertThatThrownBy(() -> s.blocksFor(0, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot schedule blocks: partition 3 is outside [0, 3)");
  }

  @Test
  void optionValuesAndModeFlags() {
    assertThat(BlockAssignment.EPOCH.optionValue()).isEqualTo("epoch");
    assertThat(BlockAssignment.FIXED.optionValue()).isEqualTo("fixed");
    assertThat(ShuffleMode.CORGIPILE.optionValue()).isEqualTo("corgipile");
    assertThat(ShuffleMode.BLOCK.optionValue()).isEqualTo("block");
    assertThat(ShuffleMode.WINDOW.optionValue()).isEqualTo("window");
    assertThat(ShuffleMode.NONE.optionValue()).isEqualTo("none");
    assertThat(ShuffleMode.CORGIPILE.shufflesBlocks()).isTrue();
    assertThat(ShuffleMode.BLOCK.shufflesBlocks()).isTrue();
    assertThat(ShuffleMode.WINDOW.shufflesBlocks()).isFalse();
    assertThat(ShuffleMode.NONE.shufflesBlocks()).isFalse();
  }

  private static Set<Integer> toSet(int[] a) {
    Set<Integer> s = new HashSet<>();
    for (int x : a) {
      s.add(x);
    }
    return s;
  }
}
