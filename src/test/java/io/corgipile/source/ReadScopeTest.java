package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.orderByPartition;
import static io.corgipile.source.TestTables.scanOf;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.shuffle.SyncInterval;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The typed channel from a driver thread to the scans of its jobs: what each setter makes a planned
 * DataFrame read, what it refuses, and a saved scope set again.
 */
class ReadScopeTest {
  private static final int ROWS = 3_000;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = TestTables.labelSorted(TestTables.tempDir("read-scope"), ROWS, 100);
  }

  @AfterEach
  void clearScope() {
    SparkContext sc = spark().sparkContext();
    ReadScope.setEpoch(sc, null);
    ReadScope.setSeed(sc, null);
    ReadScope.setWholeEpoch(sc);
  }

  private static Dataset<Row> read(String... options) {
    List<String> all = new ArrayList<>(List.of("bufferSize", "500", "partitions", "3"));
    all.addAll(List.of(options));
    return corgipile(all.toArray(String[]::new)).load(table);
  }

  @Test
  void epochAndSeedReadWhatTheOptionsWouldWithoutPlanningAgain() {
    SparkContext sc = spark().sparkContext();
    Dataset<Row> planned = read();
    List<List<Long>> own = orderByPartition(planned, "id");

    ReadScope.setEpoch(sc, 3);
    ReadScope.setSeed(sc, 9L);
    assertThat(orderByPartition(planned, "id"))
        .isEqualTo(orderByPartition(read("epoch", "3", "seed", "9"), "id"))
        .isNotEqualTo(own);
    assertThat(ReadScope.seed(sc)).isEqualTo(9L);

    ReadScope.setEpoch(sc, null);
    ReadScope.setSeed(sc, null);
    assertThat(orderByPartition(planned, "id")).isEqualTo(own);
    assertThat(ReadScope.seed(sc)).isNull();
  }

  @Test
  void theRoundsOfAnEpochTogetherReadItInOrder() {
    SparkContext sc = spark().sparkContext();
    Dataset<Row> planned = read();
    List<List<Long>> whole = orderByPartition(planned, "id");
    int rounds = EpochRounds.of(scanOf(planned), 0, null, SyncInterval.BUFFER).getAsInt();
    assertThat(rounds).isGreaterThan(1);

    List<List<Long>> joined = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      ReadScope.setRound(sc, SyncInterval.BUFFER, round, rounds);
      List<List<Long>> slice = orderByPartition(planned, "id");
      for (int p = 0; p < slice.size(); p++) {
        if (joined.size() <= p) {
          joined.add(new ArrayList<>());
        }
        joined.get(p).addAll(slice.get(p));
      }
    }
    assertThat(joined).isEqualTo(whole);

    ReadScope.setWholeEpoch(sc);
    assertThat(orderByPartition(planned, "id")).isEqualTo(whole);
  }

  @Test
  void aSavedScopeIsSetAgainOnClose() {
    SparkContext sc = spark().sparkContext();
    ReadScope.setEpoch(sc, 2);
    try (ReadScope.Saved saved = ReadScope.save(sc)) {
      ReadScope.setEpoch(sc, 5);
      ReadScope.setSeed(sc, 1L);
      ReadScope.setRound(sc, SyncInterval.BUFFER, 1, 2);
      ReadScope.setNext(sc, new ReadScope.Round(SyncInterval.BUFFER, 0, 3));
      ReadScope.setAnyOrder(sc, true);
    }
    assertThat(sc.getLocalProperty(ReadScope.EPOCH)).isEqualTo("2");
    for (String key :
        new String[] {
          ReadScope.SEED,
          ReadScope.ROUND,
          ReadScope.ROUNDS,
          ReadScope.SYNC_INTERVAL,
          ReadScope.NEXT_SYNC_INTERVAL,
          ReadScope.NEXT_ROUNDS,
          ReadScope.ROW_ORDER
        }) {
      assertThat(sc.getLocalProperty(key)).as(key).isNull();
    }
  }

  @Test
  void refusesAnEpochOrARoundThatCannotBeRead() {
    SparkContext sc = spark().sparkContext();
    assertThatThrownBy(() -> ReadScope.setEpoch(sc, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read epoch -1: epochs count from 0");
    assertThatThrownBy(() -> ReadScope.setRound(sc, SyncInterval.BUFFER, 2, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read round 2 of 2: rounds count from 0 to the epoch's round count - 1");
    assertThat(sc.getLocalProperty(ReadScope.EPOCH)).isNull();
    assertThat(sc.getLocalProperty(ReadScope.ROUND)).isNull();
  }

  @Test
  void aNextRoundCountSetByHandThatCannotBeIsNamed() {
    SparkContext sc = spark().sparkContext();
    Dataset<Row> planned = read();
    int rounds = EpochRounds.of(scanOf(planned), 0, null, SyncInterval.BUFFER).getAsInt();
    ReadScope.setRound(sc, SyncInterval.BUFFER, rounds - 1, rounds);
    sc.setLocalProperty(ReadScope.NEXT_SYNC_INTERVAL, "buffer");
    sc.setLocalProperty(ReadScope.NEXT_ROUNDS, "0");
    assertThatThrownBy(planned::collectAsList)
        .hasStackTraceContaining("Cannot use local property corgipile.nextRounds='0': ");
    sc.setLocalProperty(ReadScope.NEXT_ROUNDS, null);
    assertThatThrownBy(planned::collectAsList)
        .hasStackTraceContaining("local property corgipile.nextRounds is not set");
  }

  @Test
  void aSeedSetByHandThatIsNotANumberIsNamed() {
    SparkContext sc = spark().sparkContext();
    sc.setLocalProperty(ReadScope.SEED, "lucky");
    assertThatThrownBy(() -> ReadScope.seed(sc))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot use local property corgipile.seed='lucky': ");
  }
}
