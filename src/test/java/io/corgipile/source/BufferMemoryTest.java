package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A reader's memory is bounded by its buffer, whatever the data size: the peak the reader measured
 * (pages of row bytes plus index, for all its buffers) stays within the stated bound on data many
 * times the buffer's size.
 */
class BufferMemoryTest {
  private static final int ROWS = 200_000;
  private static String small;
  private static String large;

  @BeforeAll
  static void writeTables() {
    Path dir = TestTables.tempDir("memory");
    small = write(dir.resolve("small").toString(), ROWS / 4);
    large = write(dir.resolve("large").toString(), ROWS);
  }

  /** About 60 bytes per decoded row: some 12 MB for the large table. */
  private static String write(String path, int rows) {
    spark()
        .range(0, rows, 1, 1)
        .selectExpr("id", "cast(id as double) / 2 as x", "concat('row-', id) as s")
        .write()
        .option("parquet.block.size", 64 * 1024)
        .parquet(path);
    return path;
  }

  private static long peak(String table, String... options) {
    Dataset<Row> df = corgipile(options).load(table);
    df.collectAsList();
    Map<String, Long> metrics = TestTables.scanMetrics(df);
    assertThat(metrics.get(CorgiPileMetrics.ROWS_READ)).isPositive();
    return metrics.get(CorgiPileMetrics.PEAK_BUFFER_BYTES);
  }

  @ParameterizedTest(name = "prefetch={0}")
  @CsvSource({"true,2", "false,1"})
  void aByteBudgetBoundsEveryBuffer(String prefetch, int buffers) {
    long budget = 256 * 1024;
    for (String table : new String[] {small, large}) {
      long peak = peak(table, "prefetch", prefetch, "bufferSize", "256k", "partitions", "1");
      assertThat(peak).as(table).isPositive().isLessThanOrEqualTo(buffers * budget);
    }
  }

  @ParameterizedTest(name = "shuffle={0}")
  @CsvSource({"none", "block"})
  void modesThatReorderNoTuplesHoldNoBuffer(String shuffle) {
    assertThat(peak(large, "shuffle", shuffle, "bufferSize", "256k", "partitions", "1")).isZero();
  }

  @Test
  void aRowCountBoundsMemoryIndependentlyOfTheData() {
    long smallPeak = peak(small, "bufferSize", "5000", "partitions", "1");
    long largePeak = peak(large, "bufferSize", "5000", "partitions", "1");
    // Rows of this table are at most 48 bytes (3 fixed slots, an 8-byte null bitset, a string of
    // at most 16 bytes), so 5000 rows are at most 240,000 bytes, one cache-sized bucket: chunks add
    // at
    // most one partly filled 16 KiB chunk, the index 26 bytes a slot with doubling; two buffers
    // with
    // prefetch.
    long rowBound = 5000L * 48;
    long bound = 2 * (rowBound + 16 * 1024 + 2 * 26 * 5000);
    assertThat(largePeak).isLessThanOrEqualTo(bound).isEqualTo(smallPeak);
  }

  @Test
  void aShareOfThePartitionGrowsWithThePartition() {
    long smallPeak = peak(small, "bufferSize", "10%", "partitions", "1");
    long largePeak = peak(large, "bufferSize", "10%", "partitions", "1");
    assertThat(largePeak).isGreaterThan(2 * smallPeak);
  }

  @Test
  void theSlidingWindowStaysWithinTwiceItsRows() {
    long peak = peak(large, "shuffle", "window", "bufferSize", "5000", "partitions", "1");
    long window = 5000L * 48;
    // The log holds at most twice the live rows plus the incoming one; the index is two ints a
    // slot.
    assertThat(peak).isPositive().isLessThanOrEqualTo(2 * (window + 48) + 2 * 4 * 5000);
  }
}
