package io.corgipile.source;

import static io.corgipile.source.TestTables.canonicalRows;
import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rows, schema, pruning and pushdown of a corgipile scan are those of Spark's own Parquet
 * reader.
 */
class CorgiPileSourceTest {
  private static final int ROWS = 6000;
  private static String allTypes;
  private static List<String> expected;

  @BeforeAll
  static void writeTable() {
    allTypes = TestTables.allTypes(TestTables.tempDir("all-types"), ROWS, 3);
    expected = canonicalRows(spark().read().parquet(allTypes));
  }

  @Test
  void fixtureHasManyRowGroups() {
    assertThat(TestTables.rowGroups(allTypes)).isGreaterThan(20);
    assertThat(expected).hasSize(ROWS);
  }

  @Test
  void schemaIsSparksParquetSchema() {
    assertThat(corgipile().load(allTypes).schema())
        .isEqualTo(spark().read().parquet(allTypes).schema());
  }

  static Stream<Arguments> modes() {
    Stream.Builder<Arguments> all = Stream.builder();
    for (String shuffle : new String[] {"corgipile", "block", "window", "none"}) {
      for (String assignment : new String[] {"epoch", "fixed"}) {
        for (String prefetch : new String[] {"true", "false"}) {
          all.add(Arguments.of(shuffle, assignment, prefetch, "500"));
        }
      }
      all.add(Arguments.of(shuffle, "epoch", "true", "10%"));
      all.add(Arguments.of(shuffle, "epoch", "true", "64k"));
    }
    return all.build();
  }

  @ParameterizedTest(name = "shuffle={0} blockAssignment={1} prefetch={2} bufferSize={3}")
  @MethodSource("modes")
  void everyModeReturnsSparksRowsExactlyOnce(
      String shuffle, String assignment, String prefetch, String buffer) {
    Dataset<Row> df =
        corgipile(
                "shuffle",
                shuffle,
                "blockAssignment",
                assignment,
                "prefetch",
                prefetch,
                "bufferSize",
                buffer,
                "partitions",
                "3")
            .load(allTypes);
    assertThat(canonicalRows(df)).isEqualTo(expected);
  }

  @Test
  void sparksRecordReaderPathGivesTheSameRowsWhenVectorizationIsOff() {
    String key = "spark.sql.parquet.enableVectorizedReader";
    spark().conf().set(key, "false");
    try {
      Dataset<Row> df = corgipile("bufferSize", "300").load(allTypes);
      assertThat(canonicalRows(df)).isEqualTo(expected);
      Dataset<Row> pruned = corgipile().load(allTypes).select("st.c.x", "m", "id");
      assertThat(canonicalRows(pruned))
          .isEqualTo(canonicalRows(spark().read().parquet(allTypes).select("st.c.x", "m", "id")));
    } finally {
      spark().conf().unset(key);
    }
  }

  @Test
  void readsNestedDirectoriesAsSparkDoes() {
    Path dir = TestTables.tempDir("nested");
    spark().range(0, 100).write().parquet(dir.resolve("t/a").toString());
    spark().range(100, 250).write().parquet(dir.resolve("t/b/c").toString());
    String table = dir.resolve("t").toString();
    Dataset<Row> ours = corgipile("recursiveFileLookup", "true").load(table);
    assertThat(canonicalRows(ours))
        .isEqualTo(
            canonicalRows(spark().read().option("recursiveFileLookup", "true").parquet(table)))
        .hasSize(250);
  }

  /**
   * A table of primitive columns only, with nulls: the layout corgipile hands Spark as column
   * batches.
   */
  private static String primitives() {
    String path = TestTables.tempDir("primitives").resolve("t").toString();
    spark()
        .range(0, 5000, 1, 2)
        .selectExpr(
            "id",
            "if(id % 3 = 0, null, id % 2 = 0) as bool",
            "cast(if(id % 5 = 0, null, id % 100) as tinyint) as b",
            "cast(id % 1000 as smallint) as sh",
            "if(id % 7 = 0, null, cast(id as int)) as i",
            "cast(id / 3.0 as float) as f",
            "if(id % 11 = 0, cast('NaN' as double), id * -1.5) as d",
            "date_add(date'2000-01-01', cast(id as int)) as dt",
            "if(id % 13 = 0, null, timestamp_micros(id * 1000003)) as ts")
        .write()
        .option("parquet.block.row.count.limit", 300)
        .parquet(path);
    return path;
  }

  private static String plan(Dataset<Row> df) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df)
        .queryExecution()
        .executedPlan()
        .toString();
  }

  @ParameterizedTest(name = "shuffle={0} prefetch={1}")
  @CsvSource({
    "corgipile,true",
    "corgipile,false",
    "block,true",
    "none,true",
    "window,true",
    "window,false"
  })
  void primitiveColumnsGoThroughColumnBatchesWithTheSameRows(String shuffle, String prefetch) {
    String table = primitives();
    Dataset<Row> df =
        corgipile("shuffle", shuffle, "prefetch", prefetch, "bufferSize", "700", "partitions", "2")
            .load(table);
    assertThat(canonicalRows(df))
        .isEqualTo(canonicalRows(spark().read().parquet(table)))
        .hasSize(5000);
    assertThat(plan(df)).contains("ColumnarToRow");
    // Spark's reader vectorizes nested types, which none and block pass through; corgipile and
    // window hold rows with strings, arrays and maps as UnsafeRows and hand them over as rows.
    String allTypesPlan = plan(corgipile("shuffle", shuffle).load(allTypes));
    if (shuffle.equals("block") || shuffle.equals("none")) {
      assertThat(allTypesPlan).contains("ColumnarToRow");
    } else {
      assertThat(allTypesPlan).doesNotContain("ColumnarToRow");
    }
  }

  @Test
  void epochsAndSeedsDoNotChangeTheRows() {
    for (String epoch : new String[] {"1", "7"}) {
      Dataset<Row> df =
          corgipile("epoch", epoch, "seed", "-5", "bufferSize", "1000").load(allTypes);
      assertThat(canonicalRows(df)).isEqualTo(expected);
    }
  }

  @Test
  void prunesColumnsIncludingNestedFields() {
    Dataset<Row> df = corgipile().load(allTypes).select("st.c.x", "i", "vec");
    assertThat(df.schema())
        .isEqualTo(spark().read().parquet(allTypes).select("st.c.x", "i", "vec").schema());
    assertThat(canonicalRows(df))
        .isEqualTo(canonicalRows(spark().read().parquet(allTypes).select("st.c.x", "i", "vec")));
    String plan =
        ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().executedPlan().toString();
    assertThat(plan).contains("BatchScan").doesNotContain("dec_big");
  }

  @Test
  void countWithoutColumns() {
    assertThat(corgipile().load(allTypes).count()).isEqualTo(ROWS);
  }

  @Test
  void filtersSkipRowGroupsByStatisticsWithSparksResults() {
    Path dir = TestTables.tempDir("filtered");
    String sorted = TestTables.labelSorted(dir, 20000, 500);
    int groups = TestTables.rowGroups(sorted);
    for (String condition :
        new String[] {
          "id < 1200",
          "id >= 19000 and x > 9600",
          "id in (5, 15000)",
          "id % 7 = 0",
          "x is null",
          "label = 1 or id = 3"
        }) {
      Dataset<Row> ours = corgipile("partitions", "2").load(sorted).where(condition);
      assertThat(canonicalRows(ours))
          .as(condition)
          .isEqualTo(canonicalRows(spark().read().parquet(sorted).where(condition)));
    }
    Dataset<Row> narrow = corgipile().load(sorted).where("id < 1200");
    narrow.collectAsList();
    long read = TestTables.scanMetrics(narrow).get(CorgiPileMetrics.BLOCKS_READ);
    assertThat(read).isGreaterThan(0).isLessThan(groups / 4);
  }

  @Test
  void readsHivePartitionsSeveralPathsAndSkipsHiddenFiles() throws Exception {
    Path dir = TestTables.tempDir("partitioned");
    String table = dir.resolve("t").toString();
    spark()
        .range(0, 3000, 1, 2)
        .selectExpr("id", "cast(id % 3 as int) as k", "cast(id % 2 as string) as part")
        .write()
        .partitionBy("k", "part")
        .option("parquet.block.size", 4096)
        .parquet(table);
    Path someFile;
    try (Stream<Path> files = Files.walk(Path.of(table))) {
      someFile = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.copy(someFile, someFile.resolveSibling(".hidden.parquet"));
    Files.copy(someFile, someFile.resolveSibling("_ignored.parquet"));

    Dataset<Row> ours = corgipile().load(table);
    Dataset<Row> spark = spark().read().parquet(table);
    assertThat(ours.schema()).isEqualTo(spark.schema());
    assertThat(canonicalRows(ours)).isEqualTo(canonicalRows(spark)).hasSize(3000);
    assertThat(canonicalRows(ours.where("k = 1 and part = '0'")))
        .isEqualTo(canonicalRows(spark.where("k = 1 and part = '0'")));

    String k0 = dir.resolve("t/k=0").toString();
    String k2 = dir.resolve("t/k=2").toString();
    Dataset<Row> two = corgipile("basePath", table).load(k0, k2);
    assertThat(canonicalRows(two))
        .isEqualTo(canonicalRows(spark().read().option("basePath", table).parquet(k0, k2)));
    assertThat(two.schema()).isEqualTo(spark.schema());
  }

  @Test
  void acceptsAUserSchemaLikeSparksReader() {
    Dataset<Row> ours =
        spark().read().format("corgipile").schema("i int, s string, missing double").load(allTypes);
    Dataset<Row> spark = spark().read().schema("i int, s string, missing double").parquet(allTypes);
    assertThat(ours.schema()).isEqualTo(spark.schema());
    assertThat(canonicalRows(ours)).isEqualTo(canonicalRows(spark));
  }

  @Test
  void partitionsDefaultToParallelismAndFollowTheOption() {
    int parallelism = spark().sparkContext().defaultParallelism();
    assertThat(corgipile().load(allTypes).javaRDD().getNumPartitions()).isEqualTo(parallelism);
    assertThat(corgipile("partitions", "5").load(allTypes).javaRDD().getNumPartitions())
        .isEqualTo(5);
    Path dir = TestTables.tempDir("one-group");
    String tiny = dir.resolve("tiny").toString();
    spark().range(10).coalesce(1).write().parquet(tiny);
    assertThat(corgipile().load(tiny).javaRDD().getNumPartitions()).isEqualTo(1);
  }

  @Test
  void reportsStatisticsAndMetrics() {
    Dataset<Row> df = corgipile("bufferSize", "1000").load(allTypes);
    df.collectAsList();
    Map<String, Long> metrics = TestTables.scanMetrics(df);
    assertThat(metrics.get(CorgiPileMetrics.BLOCKS_READ)).isEqualTo(TestTables.rowGroups(allTypes));
    assertThat(metrics.get(CorgiPileMetrics.ROWS_READ)).isEqualTo(ROWS);
    assertThat(metrics.get(CorgiPileMetrics.BYTES_READ)).isPositive();
    assertThat(metrics.get(CorgiPileMetrics.PEAK_BUFFER_BYTES)).isPositive();
    org.apache.spark.sql.catalyst.plans.logical.Statistics stats =
        ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().optimizedPlan().stats();
    assertThat(stats.rowCount().get().longValue()).isEqualTo(ROWS);
  }
}
