package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.expr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.SharedSpark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FlightsData} on a small synthetic table of the real file's schema and order; no network.
 */
class FlightsDataTest {
  private static final int ROWS = 4000;
  private static final int ROW_GROUP_ROWS = 300;

  @TempDir static Path tmp;
  private static Path source;

  /** All rows, 300-row groups. */
  private static FlightsData.Prepared all;

  @BeforeAll
  static void writeSource() throws IOException {
    source = syntheticFlights(tmp.resolve("source"));
    all = FlightsData.prepare(spark(), source, tmp.resolve("all"), Long.MAX_VALUE, ROW_GROUP_ROWS);
  }

  private static SparkSession spark() {
    return SharedSpark.get();
  }

  /**
   * The real file's columns and types, sorted by date with ties (two flights a time), over 14 days
   * so every hour and weekday occurs; a Parquet file of several row groups.
   */
  private static Path syntheticFlights(Path dir) throws IOException {
    spark()
        .range(ROWS)
        .select(
            expr("timestampadd(MINUTE, (id div 2) * 10, timestamp_ntz'2001-01-01 00:00:00')")
                .as("date"),
            expr("(id * 37) % 80 - 20").as("delay"),
            expr("100 + (id * 131) % 2500").as("distance"),
            expr("element_at(array('ATL', 'ORD', 'DFW', 'LAX', 'SFO'), cast(id % 5 + 1 as int))")
                .as("origin"),
            expr("element_at(array('SEA', 'BOS', 'DEN', 'PHX', 'MIA', 'JFK'), cast(id % 6 + 1 as"
                    + " int))")
                .as("destination"))
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 700)
        .parquet(dir.toString());
    return parquetFiles(dir).get(0);
  }

  private static List<Path> parquetFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".parquet"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  /** The rows of a table's files in storage order: file by file, row by row. */
  private static List<Row> inStorageOrder(Path table, String... columns) {
    Dataset<Row> df =
        spark()
            .read()
            .parquet(table.toString())
            .select(
                Stream.concat(
                        Stream.of("_metadata.file_name", "_metadata.row_index"), Stream.of(columns))
                    .map(c -> col(c))
                    .toArray(Column[]::new));
    List<Row> rows = new ArrayList<>(df.collectAsList());
    rows.sort(
        Comparator.<Row, String>comparing(r -> r.getString(0))
            .thenComparingLong(r -> r.getLong(1)));
    return rows;
  }

  private static List<Long> rowGroupSizes(Path file) throws IOException {
    try (ParquetFileReader r =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      return r.getFooter().getBlocks().stream()
          .map(BlockMetaData::getRowCount)
          .collect(Collectors.toList());
    }
  }

  private static Set<Long> rowNumbers(Path table) {
    return spark().read().parquet(table.toString()).select("row").collectAsList().stream()
        .map(r -> r.getLong(0))
        .collect(Collectors.toSet());
  }

  // ---------------------------------------------------------------- prepare

  @Test
  void trainIsOneFileInDateOrderWithRowGroupsOfTheRequestedSize() throws IOException {
    List<Path> files = parquetFiles(all.train());
    assertThat(files).hasSize(1);
    List<Long> groups = rowGroupSizes(files.get(0));
    assertThat(groups)
        .hasSize(all.trainRowGroups())
        .hasSize((int) ((all.trainRows() + ROW_GROUP_ROWS - 1) / ROW_GROUP_ROWS));
    assertThat(groups.subList(0, groups.size() - 1)).containsOnly((long) ROW_GROUP_ROWS);

    List<Row> rows = inStorageOrder(all.train(), "row", "date");
    assertThat(rows).hasSize((int) all.trainRows());
    for (int i = 1; i < rows.size(); i++) {
      assertThat(rows.get(i).getLong(2))
          .as("row number at %d", i)
          .isGreaterThan(rows.get(i - 1).getLong(2));
      assertThat((LocalDateTime) rows.get(i).get(3))
          .as("date at %d", i)
          .isAfterOrEqualTo((LocalDateTime) rows.get(i - 1).get(3));
    }
  }

  @Test
  void testIsADisjointTenthAndTogetherTheyHoldEverySourceRow() {
    assertThat(all.trainRows() + all.testRows()).isEqualTo(ROWS);
    assertThat((double) all.testRows() / ROWS).isCloseTo(0.10, within(0.02));
    Set<Long> train = rowNumbers(all.train());
    Set<Long> test = rowNumbers(all.test());
    assertThat(train).hasSize((int) all.trainRows()).doesNotContainAnyElementsOf(test);
    Set<Long> union = new HashSet<>(train);
    union.addAll(test);
    assertThat(union).hasSize(ROWS).allMatch(r -> r >= 0 && r < ROWS);
  }

  @Test
  void columnsAreDerivedFromTheSourceRow() {
    for (Path table : List.of(all.train(), all.test())) {
      Dataset<Row> t = spark().read().parquet(table.toString());
      assertThat(t.schema().fieldNames())
          .startsWith("label", "distance", "hour", "weekday", "origin", "destination");
      assertThat(t.filter("label != if(delay > 15, 1.0, 0.0)").count()).isZero();
      // row r of the synthetic table: a flight at minute 10 * (r / 2) of Monday 1 January 2001
      for (Row r : t.select("row", "hour", "weekday", "distance").collectAsList()) {
        LocalDateTime date =
            LocalDateTime.of(2001, 1, 1, 0, 0).plusMinutes(10 * (r.getLong(0) / 2));
        assertThat(r.getInt(1)).isEqualTo(date.getHour());
        assertThat(r.getInt(2))
            .isEqualTo(
                date.getDayOfWeek() == DayOfWeek.SUNDAY ? 1 : date.getDayOfWeek().getValue() + 1);
        assertThat(r.getDouble(3)).isEqualTo(100 + (r.getLong(0) * 131) % 2500);
      }
    }
    double trainShare =
        spark().read().parquet(all.train().toString()).selectExpr("avg(label)").head().getDouble(0);
    assertThat(all.trainPositiveShare()).isEqualTo(trainShare).isBetween(0.4, 0.7);
  }

  @Test
  void maxRowsTakesRowsEvenlySpreadOverTheWholeFileInOrder() throws IOException {
    FlightsData.Prepared fifth =
        FlightsData.prepare(spark(), source, tmp.resolve("fifth"), ROWS / 5, 100);
    assertThat(fifth.trainRows() + fifth.testRows()).isEqualTo(ROWS / 5);
    Set<Long> kept = new HashSet<>(rowNumbers(fifth.train()));
    kept.addAll(rowNumbers(fifth.test()));
    // every fifth row, from the first dates to the last, in both tables
    assertThat(kept).hasSize(ROWS / 5).allMatch(r -> r % 5 == 4);
    for (Path table : List.of(fifth.train(), fifth.test())) {
      Row span = spark().read().parquet(table.toString()).selectExpr("min(row)", "max(row)").head();
      assertThat(span.getLong(0)).isLessThan(ROWS / 10);
      assertThat(span.getLong(1)).isGreaterThan(ROWS - ROWS / 10);
    }
    List<Row> rows = inStorageOrder(fifth.train(), "row");
    for (int i = 1; i < rows.size(); i++) {
      assertThat(rows.get(i).getLong(2)).isGreaterThan(rows.get(i - 1).getLong(2));
    }
    assertThat(rowGroupSizes(parquetFiles(fifth.train()).get(0))).first().isEqualTo(100L);
  }

  @Test
  void aSecondCallReusesTheTablesUnlessTheArgumentsChange() throws IOException {
    Path out = tmp.resolve("reuse");
    FlightsData.Prepared first = FlightsData.prepare(spark(), source, out, 2000, 250);
    Path trainFile = parquetFiles(first.train()).get(0);
    FileTime written = Files.getLastModifiedTime(trainFile);

    assertThat(FlightsData.prepare(spark(), source, out, 2000, 250)).isEqualTo(first);
    assertThat(parquetFiles(first.train())).containsExactly(trainFile);
    assertThat(Files.getLastModifiedTime(trainFile)).isEqualTo(written);

    FlightsData.Prepared other = FlightsData.prepare(spark(), source, out, 2000, 400);
    assertThat(other.trainRowGroups()).isLessThan(first.trainRowGroups());
    assertThat(rowGroupSizes(parquetFiles(other.train()).get(0))).first().isEqualTo(400L);
    try (Stream<Path> siblings = Files.list(tmp)) {
      assertThat(siblings.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".tmp-"));
    }
  }

  @Test
  void prepareWantsOneFile() {
    assertThatThrownBy(
            () -> FlightsData.prepare(spark(), tmp.resolve("source"), tmp.resolve("x"), 10, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Not a Parquet file");
  }

  // ---------------------------------------------------------------- features

  @Test
  void featuresAreSparseOneHotCodesPlusTheScaledDistance() {
    Dataset<Row> train = spark().read().parquet(all.train().toString());
    PipelineModel model = FlightsData.featurePipeline().fit(train);
    Row distinct =
        train
            .agg(
                countDistinct("origin"),
                countDistinct("destination"),
                countDistinct("weekday"),
                countDistinct("hour"))
            .head();
    long categories = 0;
    for (int i = 0; i < 4; i++) {
      categories += distinct.getLong(i);
    }
    assertThat(categories).isEqualTo(5 + 6 + 7 + 24);

    List<Row> features =
        model
            .transform(spark().read().parquet(all.test().toString()))
            .select(FlightsData.FEATURES, "distance")
            .collectAsList();
    assertThat(features).isNotEmpty();
    for (Row r : features) {
      Vector v = r.getAs(0);
      assertThat(v).isInstanceOf(SparseVector.class);
      assertThat(v.size()).isEqualTo(categories + 1);
      // one 1 per categorical column, then the distance unless it is exactly the mean
      assertThat(v.numNonzeros()).isBetween(4, 5);
      assertThat(v.apply(v.size() - 1)).isNotNaN();
    }
  }

  @Test
  void aCategoryUnseenInFittingEncodesAsZeros() {
    Dataset<Row> train = spark().read().parquet(all.train().toString());
    PipelineModel model = FlightsData.featurePipeline().fit(train);
    Row unseen =
        model
            .transform(train.limit(1).withColumn("origin", expr("'XXX'")))
            .select(FlightsData.FEATURES)
            .head();
    Vector v = unseen.getAs(0);
    assertThat(v.size()).isEqualTo(5 + 6 + 7 + 24 + 1);
    assertThat(v.numNonzeros()).isBetween(3, 4);
    for (int i = 0; i < 5; i++) {
      assertThat(v.apply(i)).as("origin slot %d", i).isZero();
    }
  }

  // ---------------------------------------------------------------- fetch

  @Test
  void aFailingNpmGivesAClearMessageAndLeavesNothingBehind() throws IOException {
    Path cache = tmp.resolve("cache-fail");
    List<String> npm =
        List.of("sh", "-c", "echo 'npm notice' >&2; echo 'npm error code ENOTFOUND' >&2; exit 7");
    assertThatThrownBy(() -> FlightsData.fetch(cache, npm))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Cannot fetch flights-3m: `sh -c ")
        .hasMessageContaining("failed (exit code 7: npm notice | npm error code ENOTFOUND)")
        .hasMessageEndingWith("; the benchmark needs npm and access to the npm registry");
    try (Stream<Path> left = Files.list(cache)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aMissingNpmGivesAClearMessage() {
    assertThatThrownBy(
            () ->
                FlightsData.fetch(
                    tmp.resolve("cache-missing"), List.of("/nonexistent/npm", "pack")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(
            "Cannot fetch flights-3m: `/nonexistent/npm pack` failed (cannot start it: ")
        .hasMessageEndingWith("the benchmark needs npm and access to the npm registry");
  }

  @Test
  void fetchExtractsTheFileFromThePackedTarballOnce() throws IOException {
    Path cache = tmp.resolve("cache-ok");
    // what npm pack does: a .tgz in the working directory
    List<String> pack =
        List.of(
            "sh",
            "-c",
            "mkdir -p package/data && printf PAR1fake > "
                + FlightsData.MEMBER
                + " && tar -czf vega-datasets-3.2.1.tgz package && rm -r package");
    Path file = FlightsData.fetch(cache, pack);
    assertThat(file).isEqualTo(cache.resolve(FlightsData.FILE_NAME).toAbsolutePath());
    assertThat(Files.readString(file, StandardCharsets.US_ASCII)).isEqualTo("PAR1fake");
    try (Stream<Path> left = Files.list(cache)) {
      assertThat(left).containsExactly(file);
    }
    // the file is there: the command is not run again
    assertThat(FlightsData.fetch(cache, List.of("false"))).isEqualTo(file);
  }
}
