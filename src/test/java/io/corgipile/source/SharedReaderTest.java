package io.corgipile.source;

import static io.corgipile.source.TestTables.canonicalRows;
import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The blocks of a task share one Spark reader where their files are read alike, and only there: a
 * table whose files differ in partition value and in schema (a column missing from some files)
 * reads every row once with its own values, in parts and in whole row groups, blocks of every kind
 * interleaved by the shuffle, also when fills end inside blocks.
 */
class SharedReaderTest {
  private static final String SCHEMA = "id long, y double, s string, p int";
  private static String table;

  /**
   * p=0: id, y and s; p=1: id and s only (y reads as null); 3 files of 2 row groups each, pages of
   * 100 rows.
   */
  @BeforeAll
  static void writeTable() {
    table = TestTables.tempDir("shared-reader").resolve("t").toString();
    spark()
        .range(0, 3000, 1, 3)
        .selectExpr("id", "cast(id as double) / 4 as y", "concat('a', id % 13) as s")
        .write()
        .option("parquet.block.row.count.limit", 500)
        .option("parquet.page.row.count.limit", 100)
        .parquet(table + "/p=0");
    spark()
        .range(3000, 6000, 1, 3)
        .selectExpr("id", "concat('b', id % 11) as s")
        .write()
        .option("parquet.block.row.count.limit", 500)
        .option("parquet.page.row.count.limit", 100)
        .parquet(table + "/p=1");
  }

  @ParameterizedTest(name = "blockSize={0} bufferSize={1} partitions={2}")
  @CsvSource({"rowGroup, 2000, 2", "100, 2000, 2", "200, 1100, 3", "auto, 10%, 1"})
  void everyRowOnceWithItsOwnValues(String blockSize, String bufferSize, int partitions) {
    Dataset<Row> read =
        corgipile(
                "seed",
                "11",
                "blockSize",
                blockSize,
                "bufferSize",
                bufferSize,
                "partitions",
                String.valueOf(partitions))
            .schema(SCHEMA)
            .load(table);
    Dataset<Row> expected = spark().read().schema(SCHEMA).parquet(table);

    assertThat(canonicalRows(read)).isEqualTo(canonicalRows(expected)).hasSize(6000);
    assertThat(read.where("p = 1 and y is not null").count()).isZero();
  }

  /** 3 files of 2 row groups cut into 5 parts each: 30 blocks, one Spark reader for a task. */
  @Test
  void aTaskSetsUpOneReaderForBlocksReadAlike() {
    Dataset<Row> alike =
        corgipile("seed", "11", "blockSize", "100", "bufferSize", "2000", "partitions", "1")
            .load(table + "/p=0");
    alike.collectAsList();

    Map<String, Long> metrics = TestTables.scanMetrics(alike);
    assertThat(metrics.get(CorgiPileMetrics.BLOCKS_READ)).isEqualTo(30);
    assertThat(metrics.get(CorgiPileMetrics.READERS_OPENED)).isEqualTo(1);
  }

  /**
   * Blocks of the two partitions interleaved: a new reader at each change of partition, never one a
   * block.
   */
  @Test
  void aTaskSetsUpAReaderAtEachChangeOfPartition() {
    Dataset<Row> mixed =
        corgipile("seed", "11", "blockSize", "100", "bufferSize", "2000", "partitions", "1")
            .schema(SCHEMA)
            .load(table);
    mixed.collectAsList();

    Map<String, Long> metrics = TestTables.scanMetrics(mixed);
    long readers = metrics.get(CorgiPileMetrics.READERS_OPENED);
    assertThat(metrics.get(CorgiPileMetrics.BLOCKS_READ)).isEqualTo(60);
    assertThat(readers).isGreaterThan(1).isLessThan(60);
  }
}
