package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.orderByPartition;
import static io.corgipile.source.TestTables.scanMetrics;
import static io.corgipile.source.TestTables.scanOf;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.shuffle.SyncInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An epoch read in rounds ({@code corgipile.round}, {@code corgipile.syncInterval}): the slices
 * together are the epoch, each slice reads only its own row groups, and {@link EpochRounds} counts
 * them as the executors cut them.
 */
class RoundsTest {
  private static final int ROWS = 3000;
  private static final int GROUP_ROWS = 100;
  private static final String VECTORIZED = "spark.sql.parquet.enableVectorizedReader";
  private static String table;

  @BeforeAll
  static void writeTable() {
    // 30 row groups of 100 rows; id i is in row group i / 100.
    table = TestTables.labelSorted(TestTables.tempDir("rounds"), ROWS, GROUP_ROWS);
  }

  @AfterEach
  void clearSessionState() {
    ReadScope.setWholeEpoch(spark().sparkContext());
    ReadScope.setSeed(spark().sparkContext(), null);
    spark().conf().unset(VECTORIZED);
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (String shuffle : List.of("corgipile", "block", "none", "window")) {
      // At P=8 a partition holds 3 or 4 row groups, and every partition must cut at least two
      // rounds:
      // buffers of two row groups, or, without a buffer, rounds of whole row groups up to at least
      // the
      // buffer's rows.
      String bufferSize = shuffle.equals("block") || shuffle.equals("none") ? "150" : "250";
      for (int partitions : new int[] {1, 3, 8}) {
        for (String interval : List.of("buffer", "150")) {
          cases.add(Arguments.of(shuffle, partitions, interval, bufferSize, true));
        }
      }
      // rows rather than column batches
      cases.add(Arguments.of(shuffle, 3, "buffer", bufferSize, false));
      cases.add(Arguments.of(shuffle, 3, "150", bufferSize, false));
    }
    // row groups larger than the buffer, split over several fills
    for (String shuffle : List.of("corgipile", "window")) {
      cases.add(Arguments.of(shuffle, 3, "buffer", "70", true));
      cases.add(Arguments.of(shuffle, 3, "130", "70", false));
    }
    return cases.stream();
  }

  @ParameterizedTest(
      name = "shuffle={0} partitions={1} syncInterval={2} bufferSize={3} vectorized={4}")
  @MethodSource("cases")
  void theSlicesOfAnEpochAreTheEpoch(
      String shuffle, int partitions, String interval, String bufferSize, boolean vectorized) {
    spark().conf().set(VECTORIZED, vectorized);
    Dataset<Row> df =
        corgipile(
                "shuffle",
                shuffle,
                "partitions",
                Integer.toString(partitions),
                "bufferSize",
                bufferSize,
                "epoch",
                "2")
            .load(table);
    List<List<Long>> epoch = orderByPartition(df, "id");
    int rounds = EpochRounds.of(scanOf(df), 2, null, SyncInterval.parse(interval)).getAsInt();
    assertThat(rounds).isGreaterThan(1);

    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, interval);
    List<List<Long>> concatenated = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      concatenated.add(new ArrayList<>());
    }
    for (int round = 0; round < rounds; round++) {
      List<List<Long>> slice = readRound(df, round, rounds);
      assertThat(readRound(df, round, rounds)).as("round %d read again", round).isEqualTo(slice);
      for (int p = 0; p < partitions; p++) {
        assertThat(slice.get(p)).as("partition %d in round %d", p, round).isNotEmpty();
        concatenated.get(p).addAll(slice.get(p));
      }
    }
    for (int round : new int[] {rounds, rounds + 3}) {
      assertThat(readRound(df, round, rounds)).as("round %d", round).allMatch(List::isEmpty);
    }

    assertThat(concatenated.stream().flatMap(List::stream).sorted())
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().toList());
    if (shuffle.equals("window")) {
      // the window restarts at every slice, so only each partition's rows are the same
      for (int p = 0; p < partitions; p++) {
        assertThat(concatenated.get(p)).containsExactlyInAnyOrderElementsOf(epoch.get(p));
      }
    } else {
      assertThat(concatenated).isEqualTo(epoch);
    }
  }

  private static List<List<Long>> readRound(Dataset<Row> df, int round, int rounds) {
    selectRound(round, rounds);
    return orderByPartition(df, "id");
  }

  private static void selectRound(int round, int rounds) {
    spark().sparkContext().setLocalProperty(ReadScope.ROUND, Integer.toString(round));
    spark().sparkContext().setLocalProperty(ReadScope.ROUNDS, Integer.toString(rounds));
  }

  @Test
  void partitionsWithMoreBuffersReadSeveralInOneRound() {
    // 4 partitions of 7 or 8 row groups, a buffer of one: the epoch has 7 rounds, in which a
    // partition
    // of 8 reads two buffers once, so that no round is left to the partitions of 8 alone
    Dataset<Row> df = corgipile("partitions", "4", "bufferSize", "150").load(table);
    int rounds = EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER).getAsInt();
    assertThat(rounds).isEqualTo(7);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    List<List<List<Long>>> slices = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      slices.add(readRound(df, round, rounds));
    }
    for (int p = 0; p < 4; p++) {
      int partition = p;
      List<Integer> sizes = slices.stream().map(slice -> slice.get(partition).size()).toList();
      long groups =
          slices.stream().mapToLong(slice -> slice.get(partition).size()).sum() / GROUP_ROWS;
      assertThat(sizes)
          .as("partition %d", p)
          .containsExactlyInAnyOrderElementsOf(
              groups == 7
                  ? List.of(100, 100, 100, 100, 100, 100, 100)
                  : List.of(200, 100, 100, 100, 100, 100, 100));
    }
  }

  @Test
  void aSliceReadsOnlyItsOwnRowGroups() {
    for (String shuffle : List.of("corgipile", "block")) {
      Dataset<Row> df =
          corgipile("shuffle", shuffle, "partitions", "3", "bufferSize", "350").load(table);
      int rounds = EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER).getAsInt();
      spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
      for (int round = 0; round < rounds; round++) {
        selectRound(round, rounds);
        Dataset<Row> query = df.select("id");
        List<Long> ids = query.collectAsList().stream().map(r -> r.getLong(0)).toList();
        Set<Long> groups = ids.stream().map(id -> id / GROUP_ROWS).collect(Collectors.toSet());
        assertThat(scanMetrics(query))
            .as("%s round %d", shuffle, round)
            .containsEntry(CorgiPileMetrics.BLOCKS_READ, (long) groups.size())
            .containsEntry(CorgiPileMetrics.ROWS_READ, (long) ids.size());
      }
    }
  }

  @Test
  void eachRoundTakesTheBufferItsPartitionsLastRoundFilledAhead() {
    // 2 partitions on 2 cores run at once, so each fills its next round's buffer while it trains
    List<List<Long>> ahead = new ArrayList<>();
    List<Long> filledAhead = readRoundsOfOneQuery("true", "buffer", ahead);
    assertThat(filledAhead.get(0)).as("round 0").isZero();
    assertThat(filledAhead.subList(1, filledAhead.size())).as("later rounds").containsOnly(2L);

    List<List<Long>> own = new ArrayList<>();
    assertThat(readRoundsOfOneQuery("false", "buffer", own))
        .as("without prefetch")
        .containsOnly(0L);
    assertThat(ahead).isEqualTo(own);
  }

  @Test
  void roundsOfSeveralBuffersTakeTheirFirstFilledAheadAndReadTheRestThemselves()
      throws InterruptedException {
    awaitNoFillsAhead();
    List<List<Long>> ahead = new ArrayList<>();
    List<Long> filledAhead = readRoundsOfOneQuery("true", "600", ahead);
    assertThat(ahead).as("slices of 3 row groups, buffers of 2").allMatch(ids -> ids.size() > 250);
    assertThat(filledAhead.get(0)).as("round 0").isZero();
    assertThat(filledAhead.subList(1, filledAhead.size())).as("later rounds").containsOnly(2L);

    List<List<Long>> own = new ArrayList<>();
    assertThat(readRoundsOfOneQuery("false", "600", own)).as("without prefetch").containsOnly(0L);
    assertThat(ahead).isEqualTo(own);
  }

  @Test
  void anEpochsLastRoundFillsTheNextEpochsFirstWhenTheDriverSaysItFollows()
      throws InterruptedException {
    awaitNoFillsAhead();
    List<Long> filledAhead = new ArrayList<>();
    List<List<Long>> told = readFirstRoundOfEpochOne("true", true, filledAhead);
    assertThat(filledAhead).as("told, with prefetch").containsExactly(2L);
    filledAhead.clear();
    List<List<Long>> own = readFirstRoundOfEpochOne("false", true, filledAhead);
    assertThat(filledAhead).as("without prefetch").containsExactly(0L);
    assertThat(told).isEqualTo(own);
    filledAhead.clear();
    assertThat(readFirstRoundOfEpochOne("true", false, filledAhead)).isEqualTo(own);
    assertThat(filledAhead).as("not told").containsExactly(0L);
  }

  /**
   * Reads epoch 0's last round, saying epoch 1 follows when {@code tell}, then epoch 1's first
   * round, whose ids by partition it returns, adding its buffers filled ahead to {@code
   * filledAhead}.
   */
  private static List<List<Long>> readFirstRoundOfEpochOne(
      String prefetch, boolean tell, List<Long> filledAhead) {
    SparkContext sc = spark().sparkContext();
    Dataset<Row> df =
        corgipile("partitions", "2", "bufferSize", "250", "seed", "37", "prefetch", prefetch)
            .load(table);
    Dataset<Row> query = df.select(functions.spark_partition_id(), functions.col("id"));
    int lastRounds = EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER).getAsInt();
    int nextRounds = EpochRounds.of(scanOf(df), 1, null, SyncInterval.BUFFER).getAsInt();
    try {
      ReadScope.setEpoch(sc, 0);
      ReadScope.setRound(sc, SyncInterval.BUFFER, lastRounds - 1, lastRounds);
      ReadScope.setNext(sc, tell ? new ReadScope.Round(SyncInterval.BUFFER, 0, nextRounds) : null);
      query.collectAsList();
      ReadScope.setEpoch(sc, 1);
      ReadScope.setRound(sc, SyncInterval.BUFFER, 0, nextRounds);
      ReadScope.setNext(sc, null);
      List<List<Long>> ids = List.of(new ArrayList<>(), new ArrayList<>());
      query.collectAsList().forEach(r -> ids.get(r.getInt(0)).add(r.getLong(1)));
      filledAhead.add(scanMetrics(query).get(CorgiPileMetrics.BUFFERS_FILLED_AHEAD));
      return ids;
    } finally {
      ReadScope.setEpoch(sc, null);
    }
  }

  /**
   * Waits for the fills earlier tests left unclaimed, which count against the capacity, to expire.
   */
  private static void awaitNoFillsAhead() throws InterruptedException {
    long expired =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RoundLookahead.UNCLAIMED_MILLIS + 5_000);
    while (RoundLookahead.EXECUTOR.size() > 0 && System.nanoTime() < expired) {
      Thread.sleep(50);
    }
  }

  @Test
  void aRoundsTasksFillTheRoundAfterNextOnceTheyLetTheirBuffersGo() throws InterruptedException {
    Dataset<Row> df = corgipile("partitions", "2", "bufferSize", "250", "seed", "31").load(table);
    int rounds = EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER).getAsInt();
    assertThat(rounds).isGreaterThan(3);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    Dataset<Row> query = df.select("id");
    awaitNoFillsAhead();
    selectRound(0, rounds);
    query.collectAsList();

    // while the driver would merge round 0, both partitions' rounds 1 and 2 are filled or filling
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (aheadOf(31, rounds, 2).size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(10); // the tasks' readers close after their results are sent
    }
    assertThat(aheadOf(31, rounds, 1)).containsExactlyInAnyOrder(0, 1);
    assertThat(aheadOf(31, rounds, 2)).containsExactlyInAnyOrder(0, 1);

    List<Long> ids = new ArrayList<>();
    for (int round = 1; round < rounds; round++) { // the rest of the epoch takes every fill
      selectRound(round, rounds);
      query.collectAsList().forEach(r -> ids.add(r.getLong(0)));
    }
    assertThat(RoundLookahead.EXECUTOR.keys()).noneMatch(k -> k.seed() == 31);
    assertThat(ids).doesNotHaveDuplicates();
  }

  /**
   * The partitions whose round {@code round} of {@code rounds} is filled ahead, in scans of seed
   * {@code seed}.
   */
  private static List<Integer> aheadOf(long seed, int rounds, int round) {
    return RoundLookahead.EXECUTOR.keys().stream()
        .filter(k -> k.seed() == seed && k.rounds() == rounds && k.round() == round)
        .map(RoundLookahead.Key::partition)
        .toList();
  }

  @Test
  void aFailedRoundLeavesNoBufferFilledAhead() throws InterruptedException {
    Dataset<Row> df = corgipile("partitions", "2", "bufferSize", "250").load(table);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    selectRound(0, EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER).getAsInt());
    int before = RoundLookahead.EXECUTOR.size();

    // each task reads its first row, which starts the fill of its next round, and fails
    assertThatThrownBy(
            () ->
                df.select("id")
                    .toJavaRDD()
                    .foreachPartition(
                        rows -> {
                          assertThat(rows.hasNext()).isTrue();
                          throw new IllegalStateException("a round that fails");
                        }))
        .hasStackTraceContaining("a round that fails");

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (RoundLookahead.EXECUTOR.size() > before && System.nanoTime() < deadline) {
      Thread.sleep(20); // the last attempts' listeners may still be running
    }
    assertThat(RoundLookahead.EXECUTOR.size()).isEqualTo(before);
  }

  /**
   * Reads every round of one query, adding each round's ids by partition; returns the buffers
   * filled ahead.
   */
  private static List<Long> readRoundsOfOneQuery(
      String prefetch, String interval, List<List<Long>> ids) {
    Dataset<Row> df =
        corgipile("partitions", "2", "bufferSize", "250", "prefetch", prefetch).load(table);
    int rounds = EpochRounds.of(scanOf(df), 0, null, SyncInterval.parse(interval)).getAsInt();
    assertThat(rounds).isGreaterThan(2);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, interval);
    Dataset<Row> query = df.select(functions.spark_partition_id(), functions.col("id"));
    List<Long> filledAhead = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      selectRound(round, rounds);
      List<List<Long>> slice = List.of(new ArrayList<>(), new ArrayList<>());
      query.collectAsList().forEach(r -> slice.get(r.getInt(0)).add(r.getLong(1)));
      ids.addAll(slice);
      filledAhead.add(scanMetrics(query).get(CorgiPileMetrics.BUFFERS_FILLED_AHEAD));
    }
    return filledAhead;
  }

  @Test
  void aSliceThatStartsInsideARowGroupDecodesOnlyThatRowGroup() {
    // 70-row buffers over 100-row groups: the first row group fills 70 rows, its last 30 the next
    // buffer (the next row group does not fit beside them)
    Dataset<Row> df = corgipile("partitions", "1", "bufferSize", "70").load(table);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    selectRound(1, EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER).getAsInt());
    Dataset<Row> query = df.select("id");
    List<Long> ids = query.collectAsList().stream().map(r -> r.getLong(0)).toList();
    assertThat(ids).hasSize(30);
    assertThat(ids.stream().map(id -> id / GROUP_ROWS).distinct()).hasSize(1);
    // its first 70 rows are decoded and dropped
    assertThat(scanMetrics(query))
        .containsEntry(CorgiPileMetrics.BLOCKS_READ, 1L)
        .containsEntry(CorgiPileMetrics.ROWS_READ, (long) GROUP_ROWS);
  }

  @Test
  void roundsFollowTheSeedTheJobsRunWith() {
    Dataset<Row> df = corgipile("partitions", "3", "bufferSize", "70", "seed", "1").load(table);
    int rounds = EpochRounds.of(scanOf(df), 0, 9L, SyncInterval.parse("150")).getAsInt();
    spark().sparkContext().setLocalProperty(ReadScope.SEED, "9");
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "150");
    long rows = 0;
    for (int round = 0; round < rounds; round++) {
      rows += readRound(df, round, rounds).stream().mapToLong(List::size).sum();
    }
    assertThat(rows).isEqualTo(ROWS);
    assertThat(readRound(df, rounds, rounds)).allMatch(List::isEmpty);
  }

  @Test
  void anEpochIntervalIsOneRoundOfTheWholeEpoch() {
    Dataset<Row> df = corgipile("partitions", "3").load(table);
    assertThat(EpochRounds.of(scanOf(df), 0, null, SyncInterval.EPOCH)).hasValue(1);
    List<List<Long>> epoch = orderByPartition(df, "id");
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "epoch");
    assertThat(readRound(df, 0, 1)).isEqualTo(epoch);
    assertThat(readRound(df, 1, 1)).allMatch(List::isEmpty);
  }

  @Test
  void otherScansHaveNoRounds() {
    // Spark's own Parquet source, read through DataSource V2 so that the plan has a Scan
    spark().conf().set("spark.sql.sources.useV1SourceList", "");
    try {
      assertThat(
              EpochRounds.of(scanOf(spark().read().parquet(table)), 0, null, SyncInterval.BUFFER))
          .isEmpty();
    } finally {
      spark().conf().unset("spark.sql.sources.useV1SourceList");
    }
  }

  @Test
  void theDefaultBufferHoldsSeveralRowGroupsOfASmallPartition() {
    // 3 partitions of 10 row groups: 10% would be one row group; auto makes room for 4, and the 10
    // are poured evenly into 3 fills: 3, 3, 4
    Dataset<Row> df = corgipile("partitions", "3").load(table);
    assertThat(EpochRounds.of(scanOf(df), 0, null, SyncInterval.BUFFER)).hasValue(3);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    for (List<Long> firstBuffer : readRound(df, 0, 3)) {
      assertThat(firstBuffer).hasSize(3 * GROUP_ROWS);
      assertThat(firstBuffer.stream().map(id -> id / GROUP_ROWS).distinct()).hasSize(3);
      assertThat(firstBuffer).isNotEqualTo(firstBuffer.stream().sorted().toList());
    }
  }
}
