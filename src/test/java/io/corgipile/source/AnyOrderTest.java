package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.orderByPartition;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.shuffle.SyncInterval;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job that takes the rows in any order ({@link ReadScope#setAnyOrder}) reads each partition's
 * blocks of the epoch straight through: the same rows per partition, each once, the blocks in
 * storage order; a job that reads a round ignores it.
 */
class AnyOrderTest {
  private static final int ROWS = 12_000;
  private static final int GROUP_ROWS = 500;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = TestTables.labelSorted(TestTables.tempDir("any-order"), ROWS, GROUP_ROWS);
  }

  @AfterEach
  void clearProperties() {
    ReadScope.setAnyOrder(spark().sparkContext(), false);
    ReadScope.setWholeEpoch(spark().sparkContext());
  }

  private static List<List<Long>> read(String shuffle, boolean vectorized) {
    spark().conf().set("spark.sql.parquet.enableVectorizedReader", Boolean.toString(vectorized));
    try {
      return orderByPartition(
          corgipile("shuffle", shuffle, "bufferSize", "2000", "partitions", "3", "epoch", "1")
              .load(table),
          "id");
    } finally {
      spark().conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
  }

  private static List<List<Long>> sorted(List<List<Long>> partitions) {
    List<List<Long>> out = new ArrayList<>();
    for (List<Long> ids : partitions) {
      out.add(ids.stream().sorted().toList());
    }
    return out;
  }

  @ParameterizedTest(name = "shuffle={0} vectorized={1}")
  @CsvSource({"corgipile,true", "corgipile,false", "window,true", "window,false"})
  void aJobInAnyOrderReadsTheEpochsBlocksStraightThrough(String shuffle, boolean vectorized) {
    List<List<Long>> shuffled = read(shuffle, vectorized);
    ReadScope.setAnyOrder(spark().sparkContext(), true);
    List<List<Long>> straight = read(shuffle, vectorized);

    assertThat(sorted(straight)).isEqualTo(sorted(shuffled));
    assertThat(straight).isNotEqualTo(shuffled);
    for (List<Long> ids :
        straight) { // whole blocks, each file front to back: ids are storage positions
      assertThat(ids).isSorted();
      assertThat(ids.get(0) % GROUP_ROWS).isZero();
    }
  }

  @ParameterizedTest(name = "shuffle={0}")
  @CsvSource({"corgipile", "window"})
  void aJobThatReadsARoundKeepsTheShuffledOrder(String shuffle) {
    SparkContext sc = spark().sparkContext();
    ReadScope.setRound(sc, SyncInterval.BUFFER, 1, 2);
    List<List<Long>> shuffled = read(shuffle, true);
    ReadScope.setAnyOrder(sc, true);

    assertThat(read(shuffle, true)).isEqualTo(shuffled);
  }
}
