package io.corgipile.source;

import static io.corgipile.source.TestTables.canonicalRows;
import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.scanMetrics;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Footers read once are reused by later epochs, tasks and plans (the {@link FooterCache}), and
 * never for another table, another version of a file, or another scan's options and columns.
 */
class FooterReuseTest {
  @AfterEach
  void clearEpoch() {
    spark().sparkContext().setLocalProperty(ReadScope.EPOCH, null);
  }

  private static Path onlyParquet(String dir) throws Exception {
    try (Stream<Path> files = Files.list(Path.of(dir))) {
      List<Path> parquet = files.filter(p -> p.toString().endsWith(".parquet")).toList();
      assertThat(parquet).hasSize(1);
      return parquet.get(0);
    }
  }

  /**
   * Copies {@code from} over {@code to} in place. The checksum file Hadoop's local file system
   * keeps beside {@code to} would reject the new bytes, so it goes, as on a store without one.
   */
  private static void overwrite(Path from, Path to) throws Exception {
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    Files.deleteIfExists(to.resolveSibling("." + to.getFileName() + ".crc"));
  }

  /**
   * One file of {@code rows} rows in row groups of {@code groupRows}, with the columns of {@code
   * select}.
   */
  private static String table(String name, int rows, int groupRows, String... select) {
    String path = TestTables.tempDir(name).resolve("t").toString();
    spark()
        .range(0, rows, 1, 1)
        .selectExpr(select)
        .write()
        .option("parquet.block.row.count.limit", groupRows)
        .parquet(path);
    return path;
  }

  @Test
  void laterEpochsReadNoFooter() {
    String path = table("epochs", 2000, 100, "id", "cast(id as double) * 2 as x");
    Dataset<Row> df = corgipile("partitions", "2").load(path);
    List<String> expected = canonicalRows(spark().read().parquet(path));
    for (int epoch = 0; epoch < 3; epoch++) {
      spark().sparkContext().setLocalProperty(ReadScope.EPOCH, Integer.toString(epoch));
      assertThat(canonicalRows(df)).isEqualTo(expected);
      Dataset<Row> counted = df.groupBy().count();
      counted.collect();
      // planning read the footer into this JVM's cache, which the local executor shares
      assertThat(scanMetrics(counted).get(CorgiPileMetrics.FOOTERS_READ)).isZero();
      assertThat(scanMetrics(counted).get(CorgiPileMetrics.BLOCKS_READ)).isEqualTo(20);
    }
  }

  @Test
  void aFileRewrittenInPlaceIsReadAsItIsNow() throws Exception {
    String path = table("rewritten", 1000, 100, "id", "cast(id as double) as x");
    Path file = onlyParquet(path);
    assertThat(canonicalRows(corgipile().load(path)))
        .isEqualTo(canonicalRows(spark().read().parquet(path)));
    FileTime planned = Files.getLastModifiedTime(file);

    // Another schema, other row groups, the same name: with its old modification time, then a later
    // one.
    String other =
        table("other", 700, 30, "id * 3 as id", "cast(id as string) as s", "id % 2 = 0 as even");
    overwrite(onlyParquet(other), file);
    for (FileTime time : List.of(planned, FileTime.fromMillis(planned.toMillis() + 1000))) {
      Files.setLastModifiedTime(file, time);
      Dataset<Row> reread = corgipile("shuffle", "none").load(path);
      assertThat(reread.columns()).containsExactly("id", "s", "even");
      assertThat(canonicalRows(reread)).isEqualTo(canonicalRows(spark().read().parquet(other)));
    }
  }

  @Test
  void aFileRewrittenAfterThePlanFailsTheRead() throws Exception {
    String path = table("changed", 1000, 100, "id", "cast(id as double) as x");
    Dataset<Row> df = corgipile("shuffle", "none").load(path);
    assertThat(df.collectAsList()).hasSize(1000);
    String shorter = table("shorter", 900, 100, "id", "cast(id as double) as x");
    overwrite(onlyParquet(shorter), onlyParquet(path));
    // the same DataFrame runs its planned scan again, as every epoch does
    String messages = "";
    try {
      df.collectAsList();
    } catch (Exception e) { // Spark rethrows SparkException, a checked exception, undeclared
      for (Throwable c = e; c != null; c = c.getCause()) {
        messages += c.getMessage() + "\n";
      }
    }
    assertThat(messages)
        .containsPattern(
            "Cannot read row group \\d+ \\(offset \\d+, 100 rows\\) of \\S+: the file changed since"
                + " the scan was planned: it is \\d+ bytes long, \\d+ when planned");
  }

  @Test
  void twoTablesAndTheirOptionsAndColumnsDoNotShareWhatTheyRead() {
    // the same layout and file name pattern, other values
    String a = table("a", 1500, 100, "id", "cast(id as double) as x", "id % 7 as k");
    String b =
        table("b", 1500, 100, "id + 100000 as id", "cast(-id as double) as x", "id % 5 as k");
    for (int epoch = 0; epoch < 2; epoch++) {
      spark().sparkContext().setLocalProperty(ReadScope.EPOCH, Integer.toString(epoch));
      for (String path : List.of(a, b)) {
        assertThat(canonicalRows(corgipile().load(path)))
            .isEqualTo(canonicalRows(spark().read().parquet(path)));
        assertThat(canonicalRows(corgipile("shuffle", "window").load(path).select("x")))
            .isEqualTo(canonicalRows(spark().read().parquet(path).select("x")));
        assertThat(
                canonicalRows(
                    corgipile("shuffle", "block")
                        .load(path)
                        .where("id % 10 = 3")
                        .select("k", "id")))
            .isEqualTo(
                canonicalRows(spark().read().parquet(path).where("id % 10 = 3").select("k", "id")));
        // a user schema: a column the files lack, the others left out
        assertThat(canonicalRows(corgipile().schema("id long, missing string").load(path)))
            .isEqualTo(
                canonicalRows(spark().read().schema("id long, missing string").parquet(path)));
      }
    }
  }
}
