package io.corgipile.table.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.CorgiPileMetrics;
import io.corgipile.source.ReadOptions;
import io.corgipile.source.TestTables;
import io.corgipile.table.ShuffledReads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.types.Types;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code format("corgipile")} on an Iceberg table reads the snapshot Iceberg's own reader reads:
 * the same rows as a multiset (each live row once; rows of removed files, and rows a position
 * delete, a deletion vector or an equality delete removes, never), snapshot by snapshot, in every
 * shuffle mode ({@link IcebergFixtures}' tables).
 */
class IcebergSourceTest {
  private static final SparkSession SPARK = SharedSpark.get();
  private static final String JAVA8_API = "spark.sql.datetime.java8API.enabled";
  private static final HadoopTables TABLES = new HadoopTables(new Configuration());

  private static final Map<String, Table> LOADED = new LinkedHashMap<>();
  private static Path dir;
  private static String java8Api;

  @BeforeAll
  static void writeTables() throws IOException {
    // Iceberg's reader gives instants: so do Spark's rows with the Java 8 time API
    java8Api = SPARK.conf().get(JAVA8_API);
    SPARK.conf().set(JAVA8_API, "true");
    dir = IcebergFixtures.tables();
    for (String name : IcebergFixtures.NAMES) {
      LOADED.put(name, TABLES.load(table(name)));
    }
  }

  @AfterAll
  static void restore() {
    SPARK.conf().set(JAVA8_API, java8Api);
  }

  private static String table(String name) {
    return dir.resolve(name).toString();
  }

  /** Blocks of 20 rows, parts of the fixtures' row groups. */
  private static DataFrameReader corgipile(ShuffleMode mode) {
    return ShuffledReads.corgipile(mode, 20);
  }

  private static List<List<Object>> values(Dataset<Row> rows) {
    return IcebergFixtures.values(rows);
  }

  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void everySnapshotReadsAsIcebergReadsIt(ShuffleMode mode) {
    for (Map.Entry<String, Table> t : LOADED.entrySet()) {
      List<Long> snapshots = IcebergFixtures.snapshotIds(t.getValue());
      for (int i = 0; i < snapshots.size(); i++) {
        long id = snapshots.get(i);
        // the current snapshot without an option
        Dataset<Row> read =
            (i == snapshots.size() - 1
                    ? corgipile(mode)
                    : corgipile(mode).option(ReadOptions.SNAPSHOT_ID, id))
                .load(table(t.getKey()));
        assertThat(values(read))
            .as("%s snapshot %d (%d) in mode %s", t.getKey(), i + 1, id, mode)
            .containsExactlyInAnyOrderElementsOf(
                i == snapshots.size() - 1
                    ? IcebergFixtures.rows(t.getValue())
                    : IcebergFixtures.rows(t.getValue(), id));
      }
    }
  }

  /** Renamed, promoted, dropped and added columns read as the table names them now. */
  @Test
  void theSchemaIsTheSnapshots() {
    String current =
        "id BIGINT NOT NULL, x DOUBLE, label INT, title STRING, s STRUCT<a: INT, note: STRING>,"
            + " extra STRING";
    assertThat(corgipile(ShuffleMode.NONE).load(table(IcebergFixtures.EVOLVED)).schema())
        .isEqualTo(StructType.fromDDL(current));
    long first = IcebergFixtures.snapshotIds(LOADED.get(IcebergFixtures.EVOLVED)).get(0);
    assertThat(
            corgipile(ShuffleMode.NONE)
                .option(ReadOptions.SNAPSHOT_ID, first)
                .load(table(IcebergFixtures.EVOLVED))
                .schema())
        .isEqualTo(
            StructType.fromDDL(
                "id BIGINT NOT NULL, x FLOAT, label INT, name STRING, old STRING,"
                    + " s STRUCT<a: INT, b: STRING>"));
  }

  /**
   * A filter on a column dropped and added again under the same name prunes no row group of the
   * older files by the older column's statistics: there the column reads as null.
   */
  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void aFilterPrunesByTheColumnOfTheSameId(ShuffleMode mode) {
    Table readded = LOADED.get(IcebergFixtures.READDED);
    List<List<Object>> expected =
        IcebergFixtures.rows(readded).stream().filter(row -> row.get(3) == null).toList();
    assertThat(expected).hasSize(400);
    assertThat(values(corgipile(mode).load(table(IcebergFixtures.READDED)).filter("x IS NULL")))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  /** A column of the same id still prunes by its statistics: ids below 100 are in 2 row groups. */
  @Test
  void aFilterOnAColumnOfTheSameIdPrunes() {
    Dataset<Row> all =
        corgipile(ShuffleMode.CORGIPILE)
            .option(ReadOptions.BLOCK_SIZE, "rowGroup")
            .load(table(IcebergFixtures.READDED));
    Dataset<Row> read = all.filter("id < 100");
    assertThat(read.collectAsList()).hasSize(100);
    all.collectAsList();
    long rowGroups = TestTables.scanMetrics(all).get(CorgiPileMetrics.BLOCKS_READ);
    assertThat(TestTables.scanMetrics(read).get(CorgiPileMetrics.BLOCKS_READ))
        .isBetween(1L, 2L)
        .isLessThan(rowGroups);
  }

  @Test
  void asOfTimestampReadsTheSnapshotCommittedAtOrBeforeIt() {
    Table appends = LOADED.get(IcebergFixtures.APPENDS);
    List<Long> ids = IcebergFixtures.snapshotIds(appends);
    long second = appends.snapshot(ids.get(1)).timestampMillis();
    for (long at : new long[] {second, appends.snapshot(ids.get(2)).timestampMillis() - 1}) {
      Dataset<Row> read =
          corgipile(ShuffleMode.CORGIPILE)
              .option(ReadOptions.AS_OF_TIMESTAMP, at)
              .load(table(IcebergFixtures.APPENDS));
      assertThat(values(read))
          .containsExactlyInAnyOrderElementsOf(IcebergFixtures.rows(appends, ids.get(1)));
    }
    long before = appends.snapshot(ids.get(0)).timestampMillis() - 1;
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .option(ReadOptions.AS_OF_TIMESTAMP, before)
                    .load(table(IcebergFixtures.APPENDS)))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + table(IcebergFixtures.APPENDS)
                + " at as-of-timestamp="
                + before
                + ": the table's first snapshot is later");
  }

  /**
   * A branch reads its head in the table's schema, a tag its snapshot in the snapshot's, as
   * Iceberg's Spark reader reads them.
   */
  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void aBranchReadsItsHeadAndATagItsSnapshot(ShuffleMode mode) {
    Table refs = LOADED.get(IcebergFixtures.REFS);
    Dataset<Row> branch =
        corgipile(mode)
            .option(ReadOptions.BRANCH, IcebergFixtures.BRANCH)
            .load(table(IcebergFixtures.REFS));
    assertThat(branch.schema())
        .isEqualTo(
            StructType.fromDDL(
                "id BIGINT NOT NULL, x DOUBLE, label INT, name STRING, note STRING"));
    assertThat(values(branch))
        .containsExactlyInAnyOrderElementsOf(
            IcebergFixtures.rows(
                refs, refs.snapshot(IcebergFixtures.BRANCH).snapshotId(), refs.schema()));
    Dataset<Row> tag =
        corgipile(mode)
            .option(ReadOptions.TAG, IcebergFixtures.TAG)
            .load(table(IcebergFixtures.REFS));
    assertThat(tag.schema())
        .isEqualTo(StructType.fromDDL("id BIGINT NOT NULL, x DOUBLE, label INT, name STRING"));
    long first = IcebergFixtures.snapshotIds(refs).get(0);
    assertThat(values(tag)).containsExactlyInAnyOrderElementsOf(IcebergFixtures.rows(refs, first));
  }

  @Test
  void aBranchOrTagTheTableLacksIsAnError() {
    String refs = table(IcebergFixtures.REFS);
    assertThatThrownBy(
            () -> corgipile(ShuffleMode.NONE).option(ReadOptions.BRANCH, "v1").load(refs))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + refs
                + " at branch=v1: the table has branches audit, main, and tag v1");
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).option(ReadOptions.TAG, "x").load(refs))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + refs
                + " at tag=x: the table has branches audit, main, and tag v1");
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .option(ReadOptions.TAG, "v1")
                    .option(ReadOptions.SNAPSHOT_ID, 1)
                    .load(refs))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load corgipile table: snapshot-id and tag each choose a snapshot: give one of"
                + " snapshot-id, as-of-timestamp, branch, tag");
  }

  @Test
  void aSnapshotTheTableLacksIsAnError() {
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .option(ReadOptions.SNAPSHOT_ID, 12345)
                    .load(table(IcebergFixtures.APPENDS)))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + table(IcebergFixtures.APPENDS)
                + " at snapshot-id=12345: the table has no snapshot of that id");
  }

  @Test
  void anotherFormatsTimeTravelOptionIsAnError() {
    assertThatThrownBy(
            () ->
                corgipile(ShuffleMode.NONE)
                    .option(ReadOptions.VERSION_AS_OF, 1)
                    .load(table(IcebergFixtures.APPENDS)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load corgipile table: versionAsOf is not an option of Iceberg tables, and "
                + table(IcebergFixtures.APPENDS)
                + " is one: its time travel options are snapshot-id, as-of-timestamp, branch, tag");
  }

  /**
   * Training reads a snapshot's live rows, deleted ones never: a fit trains on each of them once an
   * epoch.
   */
  @ParameterizedTest
  @EnumSource(ShuffleMode.class)
  void aFitTrainsOnTheLiveRowsOnceAnEpoch(ShuffleMode mode) {
    for (String name :
        List.of(
            IcebergFixtures.POSITION_DELETES,
            IcebergFixtures.EQUALITY_DELETES,
            IcebergFixtures.DELETION_VECTORS)) {
      Table table = LOADED.get(name);
      long live = IcebergFixtures.rows(table, table.currentSnapshot().snapshotId()).size();
      SGDClassificationModel model =
          new SGDClassifier()
              .setSeed(1)
              .setMaxIter(2)
              .setTol(0)
              .setFeaturesCols(new String[] {"x"})
              .fit(corgipile(mode).load(table(name)).where("label < 2"));
      long trained =
          IcebergFixtures.rows(table, table.currentSnapshot().snapshotId()).stream()
              .filter(r -> r.get(2) != null && (Integer) r.get(2) < 2)
              .count();
      assertThat(trained).isLessThan(live);
      assertThat(model.summary().rowsPerEpoch())
          .as("%s in mode %s", name, mode)
          .containsExactly(trained, trained);
    }
  }

  @Test
  void aSqlViewReadsTheSnapshotItNames() {
    Table deletes = LOADED.get(IcebergFixtures.POSITION_DELETES);
    long second = IcebergFixtures.snapshotIds(deletes).get(1);
    SPARK.sql(
        "CREATE TEMPORARY VIEW posdeletes_at_2 USING corgipile OPTIONS (path '"
            + table(IcebergFixtures.POSITION_DELETES)
            + "', '"
            + ReadOptions.SNAPSHOT_ID
            + "' '"
            + second
            + "')");
    try {
      assertThat(values(SPARK.table("posdeletes_at_2")))
          .containsExactlyInAnyOrderElementsOf(IcebergFixtures.rows(deletes, second));
    } finally {
      SPARK.sql("DROP VIEW IF EXISTS posdeletes_at_2");
    }
  }

  /** A metadata file names a version of the table: its current snapshot is read. */
  @Test
  void aMetadataFileReadsItsVersionOfTheTable() throws IOException {
    Table appends = LOADED.get(IcebergFixtures.APPENDS);
    Path metadata = Path.of(table(IcebergFixtures.APPENDS)).resolve("metadata");
    // v1 creates the table, v2 holds the first append
    String second = metadata.resolve("v2.metadata.json").toString();
    assertThat(values(corgipile(ShuffleMode.CORGIPILE).load(second)))
        .containsExactlyInAnyOrderElementsOf(
            IcebergFixtures.rows(appends, IcebergFixtures.snapshotIds(appends).get(0)));
  }

  /**
   * A table of another catalog names its current metadata file only in its catalog: its folder
   * holds metadata files and no version hint, and is refused, naming the files to load instead.
   */
  @Test
  void aTableFolderWithoutAVersionHintIsRefused(@TempDir Path copy) throws IOException {
    Path table = copy.resolve("t");
    Path metadata = Files.createDirectories(table.resolve("metadata"));
    Files.copy(
        Path.of(table(IcebergFixtures.APPENDS)).resolve("metadata").resolve("v2.metadata.json"),
        metadata.resolve("00001-8f0c.metadata.json"));
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(table.toString()))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + table
                + ": its metadata folder has no version-hint.text to name its current metadata"
                + " file, which only its catalog knows: load the current metadata file (of those"
                + " here, the last by name is "
                + metadata.resolve("00001-8f0c.metadata.json")
                + ")");
  }

  /**
   * A file without field ids in a table without a name mapping is refused naming it: Iceberg would
   * match its columns by position, which this reader does not.
   */
  @Test
  void aFileWithoutFieldIdsNeedsANameMapping(@TempDir Path copy) throws IOException {
    Path metadata = Files.createDirectories(copy.resolve("t").resolve("metadata"));
    try (Stream<Path> files = Files.list(Path.of(table(IcebergFixtures.ADDED), "metadata"))) {
      for (Path f : files.toList()) {
        Files.copy(f, metadata.resolve(f.getFileName()));
      }
    }
    String unmapped = copy.resolve("t").toString();
    TABLES.load(unmapped).updateProperties().remove(TableProperties.DEFAULT_NAME_MAPPING).commit();
    String withoutIds =
        Path.of(table(IcebergFixtures.ADDED), "data", "without-ids-0.parquet").toString();
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(unmapped).collectAsList())
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Parquet file "
                + withoutIds
                + ": it has no Parquet field ids, by which the table's columns are matched, and"
                + " the table has no name mapping (Iceberg's schema.name-mapping.default) to match"
                + " them by name");
  }

  /** A table created and never written: no snapshot, no rows, the table's schema. */
  @Test
  void aTableWithoutASnapshotIsEmpty(@TempDir Path tmp) {
    String path = tmp.resolve("empty").toString();
    TABLES.create(
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "x", Types.DoubleType.get())),
        path);
    for (ShuffleMode mode : ShuffleMode.values()) {
      Dataset<Row> read = corgipile(mode).load(path);
      assertThat(read.schema()).isEqualTo(StructType.fromDDL("id BIGINT NOT NULL, x DOUBLE"));
      assertThat(read.collectAsList()).as("mode %s", mode).isEmpty();
    }
  }

  /** Columns Spark's Parquet reader cannot read as Iceberg's Spark reader gives them. */
  @Test
  void aColumnSparkCannotReadIsRefusedByName(@TempDir Path tmp) {
    String path = tmp.resolve("times").toString();
    TABLES.create(
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(
                2,
                "s",
                Types.StructType.of(Types.NestedField.optional(3, "at", Types.TimeType.get())))),
        path);
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(path))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + path
                + ": its column s.at is of type time, which Spark's Parquet reader does not read"
                + " as Iceberg's Spark reader gives it");
  }

  /** Iceberg's data files may be ORC or Avro; this reader reads Parquet. */
  @Test
  void anOrcDataFileIsRefusedByName(@TempDir Path tmp) {
    String path = tmp.resolve("orc").toString();
    Table table =
        TABLES.create(new Schema(Types.NestedField.required(1, "id", Types.LongType.get())), path);
    String file = tmp.resolve("orc").resolve("data").resolve("f.orc").toString();
    table
        .newAppend()
        .appendFile(
            DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(file)
                .withFormat(FileFormat.ORC)
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .build())
        .commit();
    assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(path))
        .isInstanceOf(AnalysisException.class)
        .hasMessage(
            "Cannot read Iceberg table "
                + path
                + ": its data file "
                + file
                + " is ORC, and this reader reads Parquet data files only");
  }

  /** A data folder or a data file of a table would read its removed files and deleted rows. */
  @Test
  void aPathInsideATableIsRefusedNamingTheTable() throws IOException {
    String root = table(IcebergFixtures.OVERWRITTEN);
    String file;
    try (Stream<Path> tree = Files.walk(Path.of(root, "data"))) {
      file =
          tree.filter(f -> f.toString().endsWith(".parquet")).findFirst().orElseThrow().toString();
    }
    for (String inside : List.of(root + "/data", file)) {
      assertThatThrownBy(() -> corgipile(ShuffleMode.NONE).load(inside))
          .isInstanceOf(AnalysisException.class)
          .hasMessage(
              "Cannot read "
                  + inside
                  + ": it is inside the Iceberg table "
                  + root
                  + ", whose files are read only through its metadata; load "
                  + root
                  + " (and filter on its partition columns for a part)");
    }
  }
}
