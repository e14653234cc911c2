package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.orderByPartition;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The order is a pure function of seed, epoch, blocks and options, and changes with the epoch. */
class ShuffleOrderTest {
  private static final int ROWS = 20000;
  private static final String WHOLE_STAGE = "spark.sql.codegen.wholeStage";
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = TestTables.labelSorted(TestTables.tempDir("order"), ROWS, 250);
  }

  @AfterEach
  void clearEpoch() {
    spark().sparkContext().setLocalProperty(ReadScope.EPOCH, null);
    spark().sparkContext().setLocalProperty(ReadScope.SEED, null);
  }

  private static List<List<Long>> order(
      String shuffle, String assignment, String prefetch, String... more) {
    List<String> options =
        new ArrayList<>(
            List.of(
                "shuffle",
                shuffle,
                "blockAssignment",
                assignment,
                "prefetch",
                prefetch,
                "bufferSize",
                "2000",
                "partitions",
                "3"));
    options.addAll(List.of(more));
    return orderByPartition(corgipile(options.toArray(new String[0])).load(table), "id");
  }

  private static Set<Long> set(List<Long> ids) {
    return new HashSet<>(ids);
  }

  @ParameterizedTest(name = "shuffle={0} blockAssignment={1} prefetch={2}")
  @CsvSource({
    "corgipile,epoch,true",
    "corgipile,epoch,false",
    "corgipile,fixed,true",
    "block,epoch,true",
    "block,fixed,false",
    "window,epoch,true",
    "none,fixed,true"
  })
  void sameSeedAndEpochGiveTheSameOrderPerPartition(
      String shuffle, String assignment, String prefetch) {
    List<List<Long>> first = order(shuffle, assignment, prefetch, "epoch", "2", "seed", "9");
    List<List<Long>> second = order(shuffle, assignment, prefetch, "epoch", "2", "seed", "9");
    assertThat(second).isEqualTo(first);
    assertThat(first.stream().mapToInt(List::size).sum()).isEqualTo(ROWS);
  }

  @ParameterizedTest(name = "shuffle={0}")
  @CsvSource({"corgipile", "block", "window"})
  void aNewEpochOrSeedGivesANewOrder(String shuffle) {
    List<List<Long>> epoch0 = order(shuffle, "epoch", "true", "epoch", "0");
    assertThat(order(shuffle, "epoch", "true", "epoch", "1")).isNotEqualTo(epoch0);
    assertThat(order(shuffle, "epoch", "true", "epoch", "0", "seed", "43")).isNotEqualTo(epoch0);
  }

  @Test
  void noneKeepsStorageOrderInEveryEpoch() {
    List<List<Long>> order = order("none", "epoch", "true", "epoch", "5");
    List<Long> all = order.stream().flatMap(List::stream).collect(Collectors.toList());
    assertThat(all).isSorted().hasSize(ROWS);
    assertThat(order("none", "epoch", "false", "epoch", "6")).isEqualTo(order);
  }

  @Test
  void prefetchDoesNotChangeTheOrder() {
    assertThat(order("corgipile", "epoch", "true", "epoch", "3"))
        .isEqualTo(order("corgipile", "epoch", "false", "epoch", "3"));
    assertThat(order("block", "fixed", "true")).isEqualTo(order("block", "fixed", "false"));
  }

  @Test
  void windowEmitsOneOrderWhicheverThreadDecodesAndHoweverSparkTakesTheRows() {
    List<List<Long>> batchesPrefetched = order("window", "epoch", "true", "epoch", "3");
    assertThat(order("window", "epoch", "false", "epoch", "3")).isEqualTo(batchesPrefetched);
    // without whole-stage code generation Spark takes rows rather than column batches
    spark().conf().set(WHOLE_STAGE, "false");
    try {
      assertThat(order("window", "epoch", "true", "epoch", "3")).isEqualTo(batchesPrefetched);
      assertThat(order("window", "epoch", "false", "epoch", "3")).isEqualTo(batchesPrefetched);
    } finally {
      spark().conf().unset(WHOLE_STAGE);
    }
  }

  @Test
  void epochAssignmentMovesBlocksBetweenPartitionsFixedKeepsThem() {
    List<List<Long>> epoch0 = order("corgipile", "epoch", "true", "epoch", "0");
    List<List<Long>> epoch1 = order("corgipile", "epoch", "true", "epoch", "1");
    assertThat(set(epoch1.get(0))).isNotEqualTo(set(epoch0.get(0)));

    List<List<Long>> fixed0 = order("corgipile", "fixed", "true", "epoch", "0");
    List<List<Long>> fixed1 = order("corgipile", "fixed", "true", "epoch", "1");
    for (int p = 0; p < 3; p++) {
      assertThat(set(fixed1.get(p))).isEqualTo(set(fixed0.get(p)));
      assertThat(fixed1.get(p)).isNotEqualTo(fixed0.get(p));
    }
  }

  @Test
  void localPropertyOverridesTheEpochOptionWithoutReplanning() {
    Dataset<Row> df = corgipile("bufferSize", "2000", "partitions", "3", "epoch", "0").load(table);
    List<List<Long>> byOption = order("corgipile", "epoch", "true", "epoch", "4");

    spark().sparkContext().setLocalProperty(ReadScope.EPOCH, "4");
    List<List<Long>> byProperty = orderByPartition(df, "id");
    spark().sparkContext().setLocalProperty(ReadScope.EPOCH, "5");
    List<List<Long>> nextEpoch = orderByPartition(df, "id");

    assertThat(byProperty).isEqualTo(byOption);
    assertThat(nextEpoch).isNotEqualTo(byProperty);
  }

  @Test
  void localPropertyOverridesTheSeedOptionWithoutReplanning() {
    Dataset<Row> df = corgipile("bufferSize", "2000", "partitions", "3", "seed", "1").load(table);
    List<List<Long>> byOption = order("corgipile", "epoch", "true", "seed", "9");

    spark().sparkContext().setLocalProperty(ReadScope.SEED, "9");
    List<List<Long>> byProperty = orderByPartition(df, "id");
    spark().sparkContext().setLocalProperty(ReadScope.SEED, null);
    List<List<Long>> ownSeed = orderByPartition(df, "id");

    assertThat(byProperty).isEqualTo(byOption);
    assertThat(ownSeed).isNotEqualTo(byProperty);
  }

  /**
   * Reads the ids of every partition through the planned RDD, failing partition 0's first attempt
   * midway.
   */
  static List<List<Long>> readFailingOnce(Dataset<Row> df, boolean fail) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df)
        .queryExecution()
        .toRdd()
        .toJavaRDD()
        .mapPartitionsWithIndex(
            (index, rows) -> {
              List<Long> ids = new ArrayList<>();
              TaskContext task = TaskContext.get();
              while (rows.hasNext()) {
                InternalRow row = rows.next();
                ids.add(row.getLong(0));
                if (fail && index == 0 && task.attemptNumber() == 0 && ids.size() == 1000) {
                  throw new IllegalStateException("injected failure of the first attempt");
                }
              }
              return List.of(ids).iterator();
            },
            false)
        .collect();
  }

  @ParameterizedTest(name = "shuffle={0} prefetch={1}")
  @CsvSource({"corgipile,true", "corgipile,false", "window,true", "block,true"})
  void aRetriedTaskEmitsTheSameRowsInTheSameOrder(String shuffle, String prefetch) {
    Dataset<Row> df =
        corgipile(
                "shuffle",
                shuffle,
                "prefetch",
                prefetch,
                "bufferSize",
                "2000",
                "partitions",
                "2",
                "epoch",
                "3")
            .load(table)
            .select("id");
    List<List<Long>> clean = readFailingOnce(df, false);
    List<List<Long>> retried = readFailingOnce(df, true);
    assertThat(retried).isEqualTo(clean);
    assertThat(clean.get(0).size()).isGreaterThan(1000);
  }
}
