package io.corgipile.table.delta;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.CorgiPileMetrics;
import io.corgipile.source.ReadOptions;
import io.corgipile.source.ReadScope;
import io.corgipile.source.TestTables;
import io.corgipile.spark.DatasetInternals;
import io.corgipile.table.ShuffledReads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code format("corgipile")} on a Delta table reads the snapshot Delta's own reader reads: the
 * same rows as a multiset (each live row once, deleted and removed rows never) and the same schema,
 * version by version, in every shuffle mode ({@link DeltaFixtures}' tables).
 */
class DeltaSourceTest {
  private static final SparkSession SPARK = SharedSpark.get();

  /** Every version of each table, as Delta's reader returns it: table/version to JSON rows. */
  private static final Map<String, List<String>> ROWS = new HashMap<>();

  private static final Map<String, String> SCHEMAS = new HashMap<>();
  private static final Map<String, Long> COMMITS = new HashMap<>();

  /** A table's last version under its filter, as Delta reads it: by table. */
  private static final Map<String, List<String>> FILTERED = new HashMap<>();

  /** Each table and its last version. */
  private static final Map<String, Integer> TABLES =
      Map.of(
          DeltaFixtures.APPENDS, 3,
          DeltaFixtures.DELETES, 4,
          DeltaFixtures.OVERWRITE, 1,
          DeltaFixtures.PARTITIONED, 1,
          DeltaFixtures.MAPPED, 6,
          DeltaFixtures.MAPPED_BY_ID, 2,
          DeltaFixtures.SWAPPED, 4,
          DeltaFixtures.ROW_GROUPS, 2,
          DeltaFixtures.TYPED_PARTITIONS, 0);

  private static Path dir;

  @BeforeAll
  static void writeTables() throws IOException, InterruptedException {
    dir = DeltaFixtures.tables();
    for (String[] f : DeltaFixtures.expected("data")) {
      ROWS.computeIfAbsent(f[1] + "/" + f[2], k -> new ArrayList<>()).add(f[3]);
    }
    for (String[] f : DeltaFixtures.expected("schema")) {
      SCHEMAS.put(f[1] + "/" + f[2], f[3]);
    }
    for (String[] f : DeltaFixtures.expected("commit")) {
      COMMITS.put(f[1] + "/" + f[2], Long.parseLong(f[3]));
    }
    for (String[] f : DeltaFixtures.expected("filtered")) {
      FILTERED.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f[3]);
    }
  }

  private static String table(String name) {
    return dir.resolve(name).toString();
  }

  /** Blocks of 100 rows, parts of the fixtures' 100-row pages. */
  private static DataFrameReader corgipile(ShuffleMode mode) {
    return ShuffledReads.corgipile(mode, 100);
  }

  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void everyVersionReadsAsDeltaReadsIt(ShuffleMode mode) {
    for (Map.Entry<String, Integer> t : TABLES.entrySet()) {
      for (int v = 0; v <= t.getValue(); v++) {
        String key = t.getKey() + "/" + v;
        // the last version without an option: the latest snapshot
        Dataset<Row> read =
            (v == t.getValue()
                    ? corgipile(mode)
                    : corgipile(mode).option(ReadOptions.VERSION_AS_OF, v))
                .load(table(t.getKey()));
        assertThat(read.schema()).as(key).isEqualTo(DataType.fromJson(SCHEMAS.get(key)));
        assertThat(read.toJSON().collectAsList())
            .as("%s in mode %s", key, mode)
            .containsExactlyInAnyOrderElementsOf(ROWS.get(key));
      }
    }
  }

  @Test
  void everyEpochReadsTheLiveRowsOnceInANewOrder() {
    String key = DeltaFixtures.DELETES + "/3";
    List<String> first =
        corgipile(ShuffleMode.CORGIPILE)
            .option(ReadOptions.VERSION_AS_OF, 3)
            .load(table(DeltaFixtures.DELETES))
            .toJSON()
            .collectAsList();
    List<String> second =
        corgipile(ShuffleMode.CORGIPILE)
            .option(ReadOptions.VERSION_AS_OF, 3)
            .option(ReadOptions.EPOCH, 1)
            .load(table(DeltaFixtures.DELETES))
            .toJSON()
            .collectAsList();
    assertThat(first).containsExactlyInAnyOrderElementsOf(ROWS.get(key));
    assertThat(second).containsExactlyInAnyOrderElementsOf(ROWS.get(key)).isNotEqualTo(first);
  }

  @Test
  void aJobInAnyOrderSkipsTheDeletedRowsToo() {
    Dataset<Row> read =
        corgipile(ShuffleMode.CORGIPILE)
            .option(ReadOptions.VERSION_AS_OF, 2)
            .load(table(DeltaFixtures.DELETES));
    try (ReadScope.Saved previous = ReadScope.save(SPARK.sparkContext())) {
      ReadScope.setAnyOrder(SPARK.sparkContext(), true);
      assertThat(read.toJSON().collectAsList())
          .containsExactlyInAnyOrderElementsOf(ROWS.get(DeltaFixtures.DELETES + "/2"));
      assertThat(read.count()).isEqualTo(ROWS.get(DeltaFixtures.DELETES + "/2").size());
    }
  }

  /**
   * Deleted positions count over all the row groups of a file, also where statistics drop some: the
   * filter drops each file's first row group, the deletes are in the second and third. Through
   * Spark's vectorized decoder and through its record reader.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void deletesAfterARowGroupDroppedByStatisticsAreSkipped(boolean vectorized) throws IOException {
    String table = table(DeltaFixtures.ROW_GROUPS);
    long files;
    try (Stream<Path> tree = Files.list(Path.of(table))) {
      files = tree.filter(f -> f.toString().endsWith(".parquet")).count();
    }
    int rowGroups = TestTables.rowGroups(table);
    assertThat(rowGroups).as("row groups of %d files", files).isEqualTo(5 * files);
    String key = "spark.sql.parquet.enableVectorizedReader";
    SPARK.conf().set(key, vectorized);
    try {
      Dataset<Row> read =
          SPARK
              .read()
              .format("corgipile")
              .option(ReadOptions.PARTITIONS, "2")
              .option(ReadOptions.BLOCK_SIZE, "rowGroup")
              .load(table)
              .where(DeltaFixtures.ROW_GROUPS_FILTER);
      assertThat(read.toJSON().collectAsList())
          .containsExactlyInAnyOrderElementsOf(FILTERED.get(DeltaFixtures.ROW_GROUPS));
      read.collectAsList();
      assertThat(TestTables.scanMetrics(read).get(CorgiPileMetrics.BLOCKS_READ))
          .isEqualTo(rowGroups - files)
          .isGreaterThan(files);
    } finally {
      SPARK.conf().unset(key);
    }
  }

  /**
   * Training reads a version's live rows, deleted ones never: the rows it reads of a select of the
   * table ({@link DatasetInternals#internalRows}) are the ones Delta's reader gives, and a fit
   * trains on each of them once an epoch.
   */
  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void aFitTrainsOnTheLiveRowsOfTheVersionOnceAnEpoch(ShuffleMode mode) {
    for (int version : new int[] {1, 3}) { // deletion vectors: one delete; two and an update
      String key = DeltaFixtures.DELETES + "/" + version;
      Dataset<Row> read =
          corgipile(mode)
              .option(ReadOptions.VERSION_AS_OF, version)
              .load(table(DeltaFixtures.DELETES));
      assertThat(labelAndX(DatasetInternals.internalRows(labelAndX(read)).toJavaRDD()))
          .as("%s in mode %s", key, mode)
          .containsExactlyInAnyOrderElementsOf(
              labelAndX(SPARK.read().json(SPARK.createDataset(ROWS.get(key), Encoders.STRING())))
                  .collectAsList()
                  .stream()
                  .map(r -> r.getDouble(0) + " " + r.getDouble(1))
                  .toList());
      SGDClassificationModel model =
          new SGDClassifier()
              .setSeed(1)
              .setMaxIter(2)
              .setTol(0)
              .setFeaturesCols(new String[] {"x"})
              .fit(read);
      long live = ROWS.get(key).size();
      assertThat(model.summary().rowsPerEpoch())
          .as("%s in mode %s", key, mode)
          .containsExactly(live, live);
    }
  }

  /** The label as a double and {@code x}: what training selects of the table. */
  private static Dataset<Row> labelAndX(Dataset<Row> rows) {
    return rows.select(functions.col("label").cast("double"), functions.col("x"));
  }

  private static List<String> labelAndX(JavaRDD<InternalRow> rows) {
    return rows.map(r -> r.getDouble(0) + " " + r.getDouble(1)).collect();
  }

  @Test
  void aSqlViewReadsTheVersionItNames() {
    SPARK.sql(
        "CREATE TEMPORARY VIEW deletes_at_2 USING corgipile OPTIONS (path '"
            + table(DeltaFixtures.DELETES)
            + "', "
            + ReadOptions.VERSION_AS_OF
            + " '2')");
    try {
      assertThat(SPARK.table("deletes_at_2").toJSON().collectAsList())
          .containsExactlyInAnyOrderElementsOf(ROWS.get(DeltaFixtures.DELETES + "/2"));
    } finally {
      SPARK.sql("DROP VIEW IF EXISTS deletes_at_2");
    }
  }

  @Test
  void timestampAsOfReadsTheVersionCommittedAtOrBeforeIt() {
    assertTimestampOfVersionOneReadsIt();
  }

  /** Reads the appends table as of version 1's commit time: exactly version 1's rows. */
  private static void assertTimestampOfVersionOneReadsIt() {
    long at = COMMITS.get(DeltaFixtures.APPENDS + "/1");
    Dataset<Row> read =
        corgipile(ShuffleMode.CORGIPILE)
            .option(ReadOptions.TIMESTAMP_AS_OF, Instant.ofEpochMilli(at).toString())
            .load(table(DeltaFixtures.APPENDS));
    assertThat(read.toJSON().collectAsList())
        .containsExactlyInAnyOrderElementsOf(ROWS.get(DeltaFixtures.APPENDS + "/1"));
  }

  /** Spark takes short zone ids and offsets as session time zones, which ZoneId.of refuses. */
  @ParameterizedTest
  @ValueSource(strings = {"PST", "+8:00"})
  void aSessionTimeZoneSparkAcceptsReadsTheTable(String zone) {
    String before = SPARK.conf().get("spark.sql.session.timeZone");
    SPARK.conf().set("spark.sql.session.timeZone", zone);
    try {
      assertTimestampOfVersionOneReadsIt();
    } finally {
      SPARK.conf().set("spark.sql.session.timeZone", before);
    }
  }

  /**
   * Under column mapping a filter on a column prunes row groups by the statistics of the column the
   * files store it as: {@link DeltaFixtures#SWAPPED}'s {@code x} is {@code y} in its files, where
   * {@code x} holds the table's {@code y}.
   */
  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void aFilterOnAMappedColumnPrunesByThatColumnsStatistics(ShuffleMode mode) {
    Dataset<Row> read =
        corgipile(mode)
            .option(ReadOptions.BLOCK_SIZE, "rowGroup")
            .load(table(DeltaFixtures.SWAPPED))
            .where(DeltaFixtures.SWAPPED_FILTER);
    assertThat(read.toJSON().collectAsList())
        .hasSize(101)
        .containsExactlyInAnyOrderElementsOf(FILTERED.get(DeltaFixtures.SWAPPED));
    read.collectAsList();
    assertThat(TestTables.scanMetrics(read).get(CorgiPileMetrics.BLOCKS_READ)).isEqualTo(2);
  }

  /** A dropped column added again is null in the files written before, as Delta reads it. */
  @Test
  void aColumnAddedAgainIsNullInTheOlderFiles() {
    List<Row> labels =
        corgipile(ShuffleMode.CORGIPILE)
            .load(table(DeltaFixtures.MAPPED))
            .groupBy(functions.col("id").lt(600).as("old"))
            .agg(functions.count("label"), functions.count("*"))
            .orderBy("old")
            .collectAsList();
    assertThat(labels.toString()).isEqualTo("[[false,100,100], [true,0,525]]");
  }

  @Test
  void aVersionTheTableLacksIsAnError() {
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .option(ReadOptions.VERSION_AS_OF, 99)
                    .load(table(DeltaFixtures.OVERWRITE)))
        .isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Cannot read Delta table ")
        .hasMessageContaining("versionAsOf=99");
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .option(ReadOptions.VERSION_AS_OF, "last")
                    .load(table(DeltaFixtures.OVERWRITE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot load corgipile table: versionAsOf must be a whole number, not 'last'");
  }

  /** A table whose deletion vector files, or whose data files, are gone. */
  @ParameterizedTest
  @ValueSource(strings = {"deletion_vector_", "part-"})
  void aFileTheLogNamesThatIsGoneIsAnErrorNamingTheTable(String prefix, @TempDir Path copy)
      throws IOException {
    Path source = Path.of(table(DeltaFixtures.DELETES));
    List<Path> files;
    try (Stream<Path> tree = Files.walk(source)) {
      files = tree.toList();
    }
    for (Path file : files) {
      Files.copy(file, copy.resolve(source.relativize(file).toString()), REPLACE_EXISTING);
    }
    List<Path> gone;
    try (Stream<Path> tree = Files.walk(copy)) {
      gone =
          tree.filter(f -> f.getFileName().toString().startsWith(prefix))
              .filter(f -> f.toString().endsWith(prefix.startsWith("part") ? ".parquet" : ".bin"))
              .toList();
    }
    assertThat(gone).isNotEmpty();
    for (Path file : gone) {
      Files.delete(file);
    }
    // version 2: after two deletes, before OPTIMIZE leaves the deletion vectors unreferenced
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.CORGIPILE)
                    .option(ReadOptions.VERSION_AS_OF, 2)
                    .load(copy.toString())
                    .count())
        .isInstanceOf(AnalysisException.class)
        .hasMessageStartingWith("Cannot read Delta table " + copy + ": ");
  }

  @Test
  void timeTravelOnParquetFilesIsAnError(@TempDir Path parquet) {
    String files = parquet.resolve("t").toString();
    SPARK.range(10).write().parquet(files);
    assertThatThrownBy(
            () -> corgipile(ShuffleMode.NONE).option(ReadOptions.VERSION_AS_OF, 1).load(files))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load corgipile table: versionAsOf is for Delta and Iceberg tables, and ["
                + files
                + "] is none (it has no _delta_log folder, nor Iceberg metadata)");
  }

  @Test
  void aDeltaTableIsReadAlone() {
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .load(table(DeltaFixtures.APPENDS), table(DeltaFixtures.OVERWRITE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(" is a Delta table, which is read alone, not with other paths");
  }

  /** A partition folder or a data file of a table would read its removed files and deleted rows. */
  @Test
  void aPathInsideATableIsRefusedNamingTheTable() throws IOException {
    String root = table(DeltaFixtures.PARTITIONED);
    String file;
    try (Stream<Path> tree = Files.walk(Path.of(root))) {
      file =
          tree.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow().toString();
    }
    for (String inside : List.of(root + "/part=a", file)) {
      assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(inside))
          .isInstanceOf(AnalysisException.class)
          .hasMessage(
              "Cannot read "
                  + inside
                  + ": it is inside the Delta table "
                  + root
                  + ", whose files are read only through its log; load "
                  + root
                  + " (and filter on its partition columns for a part)");
    }
  }

  /** A glob over tables would read their folders' files: removed files and deleted rows. */
  @Test
  void aGlobMatchingATableIsRefusedNamingTheTable() {
    String glob = dir + "/{" + DeltaFixtures.PARTITIONED + "," + DeltaFixtures.OVERWRITE + "}";
    String first = "file:" + table(DeltaFixtures.OVERWRITE);
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(glob))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read "
                + glob
                + ": the glob matches the Delta table "
                + first
                + " or files inside it, which are read only through the table's log; load "
                + first
                + " by its path, alone");
  }

  @Test
  void aGivenSchemaOtherThanTheTablesIsAnError() {
    StructType own = (StructType) DataType.fromJson(SCHEMAS.get(DeltaFixtures.APPENDS + "/3"));
    org.apache.spark.sql.types.StructField[] fields = own.fields().clone();
    fields[0] = fields[0].copy(fields[0].name(), fields[0].dataType(), false, fields[0].metadata());
    StructType notNull = new StructType(fields); // differs from the table's only in nullability
    for (StructType other : List.of(new StructType().add("id", "long"), notNull)) {
      assertThatThrownBy(
              () -> corgipile(ShuffleMode.NONE).schema(other).load(table(DeltaFixtures.APPENDS)))
          .isInstanceOf(AnalysisException.class)
          .hasMessage(
              "Cannot read Delta table "
                  + table(DeltaFixtures.APPENDS)
                  + " with a given schema: the table's own applies, id BIGINT,x DOUBLE,label"
                  + " INT,note STRING");
    }
  }
}
