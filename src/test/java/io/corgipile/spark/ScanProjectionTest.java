package io.corgipile.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.SharedSpark;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.SparkPlan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading a projection straight from its scan's column batches gives, partition for partition, the
 * bytes and the order of the rows Spark's own column-to-row conversion and projection give; plans
 * of any other shape are left to Spark.
 */
class ScanProjectionTest {
  private static String table;

  @BeforeAll
  static void writeTable() throws IOException {
    Path dir = Files.createTempDirectory("scan-projection");
    table = dir.resolve("t").toString();
    // Doubles with nulls and special values, an int and a vector-free layout, in several row
    // groups.
    SharedSpark.get()
        .range(0, 6000, 1, 2)
        .selectExpr(
            "cast(id % 2 as double) as label",
            "case when id % 11 = 0 then null else cast(id as double) / 7 end as a",
            "case when id % 13 = 0 then double('NaN') when id % 17 = 0 then -0.0 else sin(id) end"
                + " as b",
            "case when id % 5 = 0 then null else cast(id * 3 as double) end as c",
            "cast(id as int) as n",
            "case when id % 7 = 0 then null else cast(id % 2 as int) end as ilabel",
            "cast(id as long) * 1000003 as l",
            "case when id % 3 = 0 then null else cast(id as float) / 3 end as f",
            "id % 4 = 0 as flag",
            "cast(id % 100 as byte) as by",
            "cast(id as short) as sh")
        .write()
        .option("parquet.block.row.count.limit", 700)
        .parquet(table);
  }

  private static Dataset<Row> corgipile(String shuffle) {
    return SharedSpark.get()
        .read()
        .format("corgipile")
        .option("shuffle", shuffle)
        .option("seed", 7)
        .option("bufferSize", "2000")
        .option("partitions", 3)
        .load(table);
  }

  /** The training's shape: a double label, a constant weight, feature columns in another order. */
  private static Dataset<Row> trainingSelect(Dataset<Row> df) {
    return df.select(col("label").cast("double"), lit(1.0), col("c"), col("a"), col("b"));
  }

  private static SparkPlan plan(Dataset<Row> df) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().executedPlan();
  }

  /** Each partition's rows, their bytes in hex, in order. */
  private static List<List<String>> partitions(RDD<InternalRow> rows) {
    return rows.toJavaRDD()
        .map(r -> HexFormat.of().formatHex(((UnsafeRow) r).getBytes()))
        .glom()
        .collect();
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "block", "corgipile", "window"})
  void givesSparksRowsInSparksOrder(String shuffle) {
    Dataset<Row> df = trainingSelect(corgipile(shuffle));
    ScanProjection projection = ScanProjection.of(plan(df)).orElseThrow();
    List<List<String>> direct = partitions(projection.rows());
    List<List<String>> spark =
        partitions(((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().toRdd());
    assertThat(direct).hasSize(3);
    assertThat(direct.stream().mapToInt(List::size).sum()).isEqualTo(6000);
    assertThat(direct).hasSameSizeAs(spark);
    for (int p = 0; p < direct.size(); p++) {
      assertThat(direct.get(p)).as("partition %d", p).containsExactlyElementsOf(spark.get(p));
    }
    assertThat(DatasetInternals.internalRows(df).getNumPartitions()).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "corgipile"})
  void castsNumbersAndBooleansToDoubleAsSparkDoes(String shuffle) {
    Dataset<Row> df =
        corgipile(shuffle)
            .select(
                col("ilabel").cast("double"),
                lit(1.0),
                col("n").cast("double"),
                col("l").cast("double"),
                col("f").cast("double"),
                col("flag").cast("double"),
                col("by").cast("double"),
                col("sh").cast("double"),
                col("a"));
    ScanProjection projection = ScanProjection.of(plan(df)).orElseThrow();
    List<List<String>> direct = partitions(projection.rows());
    List<List<String>> spark =
        partitions(((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().toRdd());
    assertThat(direct.stream().mapToInt(List::size).sum()).isEqualTo(6000);
    assertThat(direct).isEqualTo(spark);
  }

  /** The scan's own columns: a buffer's or a window's rows are read where they lie. */
  @ParameterizedTest
  @ValueSource(strings = {"corgipile", "window", "none"})
  void readsThePlainScanOfColumnsAndTheirNullsAsSparkDoes(String shuffle) {
    Dataset<Row> df = corgipile(shuffle).select("a", "c");
    ScanProjection projection = ScanProjection.of(plan(df)).orElseThrow();
    List<String> direct = partitions(projection.rows()).stream().flatMap(List::stream).toList();
    List<String> spark =
        partitions(((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().toRdd())
            .stream()
            .flatMap(List::stream)
            .toList();
    assertThat(direct).containsExactlyElementsOf(spark);
    long nulls = direct.stream().filter(hex -> !hex.startsWith("00")).count();
    assertThat(nulls)
        .as("rows with a null bit")
        .isEqualTo(6000 / 11 + 1 + 6000 / 5 - 6000 / 55 - 1);
  }

  @Test
  void leavesEveryOtherShapeToSpark() {
    SparkSession spark = SharedSpark.get();
    Dataset<Row> df = corgipile("corgipile");
    assertThat(ScanProjection.of(plan(df.select(col("a").cast("float")))))
        .as("a cast to float")
        .isEmpty();
    assertThat(ScanProjection.of(plan(df.select(col("a").cast("string")))))
        .as("a cast to string")
        .isEmpty();
    assertThat(ScanProjection.of(plan(df.select(col("n").cast("decimal(12,2)").cast("double")))))
        .as("a cast of a cast")
        .isEmpty();
    assertThat(ScanProjection.of(plan(df.select(col("a").plus(1))))).as("an expression").isEmpty();
    assertThat(ScanProjection.of(plan(df.select(col("a"), lit(1)))))
        .as("an int constant")
        .isEmpty();
    assertThat(ScanProjection.of(plan(df.select(col("a"), lit(null).cast("double")))))
        .as("a null constant")
        .isEmpty();
    assertThat(ScanProjection.of(plan(df.where("a > 1").select("a")))).as("a filter").isEmpty();
    assertThat(ScanProjection.of(plan(spark.read().parquet(table).select("a"))))
        .as("Spark's own file scan")
        .isEmpty();
    assertThat(ScanProjection.of(plan(df.selectExpr("array(a) as v"))))
        .as("a variable-width field")
        .isEmpty();
  }
}
