package io.corgipile.source;

import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The source from Spark SQL: {@code CREATE TEMPORARY VIEW ... USING corgipile OPTIONS (...)}, and a
 * table of the session catalog, {@code CREATE TABLE ... USING corgipile}.
 */
class SqlViewTest {
  private static String sorted;

  @BeforeAll
  static void writeTable() {
    sorted = TestTables.labelSorted(TestTables.tempDir("sql-view"), 2_000, 100);
  }

  @AfterEach
  void dropViews() {
    spark().sql("DROP VIEW IF EXISTS t");
    spark().sql("DROP VIEW IF EXISTS u");
    spark().sql("DROP TABLE IF EXISTS c");
  }

  @Test
  void aViewReadsEveryRowOnceInTheOrderOfTheDataFrameReader() {
    spark()
        .sql(
            "CREATE TEMPORARY VIEW t USING corgipile OPTIONS (path '"
                + sorted
                + "', bufferSize '10%',"
                + " seed '5', partitions '2')");

    Row counts = spark().sql("SELECT count(*), count(DISTINCT id), sum(label) FROM t").first();
    assertThat(counts.getLong(0)).isEqualTo(2_000);
    assertThat(counts.getLong(1)).isEqualTo(2_000);
    assertThat(counts.getLong(2)).isEqualTo(1_000);
    // the same options through SQL and through the DataFrame reader: the same order
    assertThat(TestTables.orderByPartition(spark().table("t"), "id"))
        .isEqualTo(
            TestTables.orderByPartition(
                TestTables.corgipile("bufferSize", "10%", "seed", "5", "partitions", "2")
                    .load(sorted),
                "id"));
    // and a shuffled one: a label-sorted table does not come out sorted
    List<Long> first = TestTables.orderByPartition(spark().table("t"), "id").get(0);
    assertThat(first).isNotEqualTo(first.stream().sorted().toList());
  }

  @Test
  void aViewTakesTheShuffleModeAndSchema() {
    spark()
        .sql(
            "CREATE TEMPORARY VIEW u USING corgipile OPTIONS (path '"
                + sorted
                + "', shuffle 'none')");

    assertThat(spark().table("u").schema().fieldNames()).containsExactly("id", "label", "x");
    assertThat(TestTables.orderByPartition(spark().table("u"), "id").stream().flatMap(List::stream))
        .isSorted();
  }

  @Test
  void badOptionsInSqlSayWhatIsAllowed() {
    assertThatThrownBy(
            () ->
                spark()
                    .sql(
                        "CREATE TEMPORARY VIEW t USING corgipile OPTIONS (path '"
                            + sorted
                            + "', shuffle 'random')")
                    .collect())
        .hasMessageContaining("Cannot set option shuffle to 'random'");
  }

  @Test
  void aViewOfAMissingPathSaysWhich() {
    Path missing = TestTables.tempDir("sql-view-missing").resolve("absent");
    assertThatThrownBy(
            () ->
                spark()
                    .sql("CREATE TEMPORARY VIEW t USING corgipile OPTIONS (path '" + missing + "')")
                    .collect())
        .hasMessageContaining(missing.toString());
  }

  @Test
  void aViewWithAMisspelledOptionNamesIt() {
    assertThatThrownBy(
            () ->
                spark()
                    .sql(
                        "CREATE TEMPORARY VIEW t USING corgipile OPTIONS (path '"
                            + sorted
                            + "', bufferSzie '10%')")
                    .collect())
        .hasMessageStartingWith(
            "Cannot load corgipile table: unknown option 'bufferSzie' (did you mean "
                + "'bufferSize'?)");
  }

  /**
   * A catalog table's properties (owner, location, comment, TBLPROPERTIES) reach the source beside
   * its OPTIONS; only the options are held to the source's names, and a scan of the table reads
   * with them (Spark passes them to the load, not to the scan).
   */
  @Test
  void aCatalogTableReadsWithItsOptionsAndProperties() {
    spark()
        .sql(
            "CREATE TABLE c USING corgipile OPTIONS (bufferSize '10%', seed '5', partitions '2')"
                + " LOCATION '"
                + sorted
                + "' COMMENT 'label-sorted' TBLPROPERTIES ('team'='ml')");
    assertThat(TestTables.orderByPartition(spark().table("c"), "id"))
        .isEqualTo(
            TestTables.orderByPartition(
                TestTables.corgipile("bufferSize", "10%", "seed", "5", "partitions", "2")
                    .load(sorted),
                "id"));
    spark().sql("DROP TABLE c");

    assertThatThrownBy(
            () ->
                spark()
                    .sql(
                        "CREATE TABLE c USING corgipile OPTIONS (bufferSzie '10%') LOCATION '"
                            + sorted
                            + "'"))
        .hasMessageStartingWith("Cannot load corgipile table: unknown option 'bufferSzie'");
  }
}
