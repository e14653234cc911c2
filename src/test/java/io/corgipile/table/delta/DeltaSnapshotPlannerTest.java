package io.corgipile.table.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.table.AsOf;
import io.corgipile.table.SnapshotPlanner;
import io.corgipile.table.TableFile;
import io.corgipile.table.TablePlanners;
import io.corgipile.table.TableReadException;
import io.corgipile.table.TableSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The planner's live files, deleted positions and partition values are those of Delta's own reader,
 * on tables Delta's own writer wrote ({@link DeltaFixtures}), version by version.
 */
class DeltaSnapshotPlannerTest {
  private static Path dir;

  private static final Configuration CONF = new Configuration();
  private static SnapshotPlanner planner;

  /** table/version to file name to what Delta's reader returned from it. */
  private static final Map<String, Map<String, Live>> EXPECTED = new HashMap<>();

  /** table/version to the schema Delta's reader gives, as JSON. */
  private static final Map<String, String> SCHEMAS = new HashMap<>();

  /** table/version to commit time. */
  private static final Map<String, Long> COMMITS = new HashMap<>();

  /** A file's live rows as Delta's reader returned them: positions and the partition value. */
  record Live(TreeSet<Long> positions, String partition) {}

  @BeforeAll
  static void writeTables() throws IOException, InterruptedException {
    dir = DeltaFixtures.tables();
    for (String line : Files.readAllLines(dir.resolve(DeltaFixtures.EXPECTED))) {
      String[] f = line.split("\t", -1);
      String key = f[1] + "/" + f[2];
      if (f[0].equals("commit")) {
        COMMITS.put(key, Long.parseLong(f[3]));
      } else if (f[0].equals("schema")) {
        SCHEMAS.put(key, f[3]);
      } else if (f[0].equals("row")) {
        String partition = f[5].equals("\\N") ? null : f[5];
        Live live =
            EXPECTED
                .computeIfAbsent(key, k -> new TreeMap<>())
                .computeIfAbsent(f[3], k -> new Live(new TreeSet<>(), partition));
        assertThat(live.partition()).as(line).isEqualTo(partition);
        live.positions().add(Long.parseLong(f[4]));
      }
    }
    planner = TablePlanners.delta(CONF);
  }

  private static String table(String name) {
    return dir.resolve(name).toString();
  }

  private static TableSnapshot plan(String name, long version) {
    return planner.plan(table(name), AsOf.version(version));
  }

  /** What the planner says each file holds: the rows in its footer less the deleted positions. */
  private static Map<String, Live> live(TableSnapshot snapshot, String partitionColumn)
      throws IOException {
    Map<String, Live> files = new TreeMap<>();
    for (TableFile file : snapshot.files()) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file.path());
      long rows;
      try (ParquetFileReader reader =
          ParquetFileReader.open(HadoopInputFile.fromPath(path, CONF))) {
        rows = reader.getRecordCount();
      }
      TreeSet<Long> positions = new TreeSet<>();
      for (long i = 0; i < rows; i++) {
        if (!file.isDeleted(i)) {
          positions.add(i);
        }
      }
      String partition =
          partitionColumn == null ? null : file.partitionValues().get(partitionColumn);
      assertThat(files.put(path.getName(), new Live(positions, partition)))
          .as("a file listed twice: %s", file)
          .isNull();
    }
    return files;
  }

  /** Asserts the planner's files and live rows of every version agree with Delta's reader. */
  private static void agreesWithDelta(String name, long lastVersion, String partitionColumn)
      throws IOException {
    for (long v = 0; v <= lastVersion; v++) {
      TableSnapshot snapshot = plan(name, v);
      assertThat(snapshot.version()).isEqualTo(v);
      assertThat(DataType.fromJson(snapshot.schemaJson()))
          .as("%s version %d: the schema", name, v)
          .isEqualTo(DataType.fromJson(SCHEMAS.get(name + "/" + v)));
      Map<String, Live> expected = EXPECTED.get(name + "/" + v);
      assertThat(live(snapshot, partitionColumn))
          .as("%s version %d: files, live positions and partition values", name, v)
          .isEqualTo(expected);
      for (TableFile file : snapshot.files()) {
        assertThat(Path.of(java.net.URI.create(file.path()))).exists().startsWith(dir);
      }
    }
    assertThat(planner.plan(table(name), AsOf.latest()).version()).isEqualTo(lastVersion);
  }

  @Test
  void appendsAddFilesVersionByVersion() throws IOException {
    agreesWithDelta(DeltaFixtures.APPENDS, 3, null);
    assertThat(plan(DeltaFixtures.APPENDS, 0).files()).hasSize(2);
    assertThat(plan(DeltaFixtures.APPENDS, 1).files()).hasSize(3);
    assertThat(plan(DeltaFixtures.APPENDS, 2).files()).hasSize(5);
    assertThat(plan(DeltaFixtures.APPENDS, 3).files()).hasSize(6);
    assertThat(plan(DeltaFixtures.APPENDS, 2).deletedRows()).isZero();
    assertThat(plan(DeltaFixtures.APPENDS, 2).partitionColumns()).isEmpty();
    assertThat(plan(DeltaFixtures.APPENDS, 3).readerFeatures()).isEmpty();
  }

  @Test
  void theSchemaIsTheSnapshotsOwn() {
    StructType before = (StructType) DataType.fromJson(plan(DeltaFixtures.APPENDS, 2).schemaJson());
    StructType after = (StructType) DataType.fromJson(plan(DeltaFixtures.APPENDS, 3).schemaJson());
    assertThat(before.fieldNames()).containsExactly("id", "x", "label");
    assertThat(after.fieldNames()).containsExactly("id", "x", "label", "note");
    assertThat(plan(DeltaFixtures.MAPPED, 1).schemaJson()).doesNotContain("delta.columnMapping");
  }

  @Test
  void withoutColumnMappingTheFilesNameTheTablesColumns() {
    TableSnapshot snapshot = plan(DeltaFixtures.APPENDS, 3);
    assertThat(snapshot.fileSchemaJson()).isEqualTo(snapshot.schemaJson());
  }

  /**
   * Under column mapping by name each column, nested ones too, keeps its physical name through
   * renames, and a column dropped and added again gets a new one.
   */
  @Test
  void columnMappingNamesTheFilesColumnsPhysically() {
    StructType written = fileSchema(DeltaFixtures.MAPPED, 1);
    StructType last = fileSchema(DeltaFixtures.MAPPED, 6);
    StructType logical = (StructType) DataType.fromJson(plan(DeltaFixtures.MAPPED, 6).schemaJson());
    assertThat(logical.fieldNames()).containsExactly("id", "feature", "part", "s", "label");
    assertThat(written.fieldNames()).hasSize(5).allMatch(n -> n.startsWith("col-"));
    assertThat(last.apply(1).name()).isEqualTo(written.apply(1).name()); // x, now feature
    assertThat(last.apply(3).dataType()).isEqualTo(written.apply(4).dataType()); // s, s.alpha
    assertThat(last.apply(4).name()).isNotEqualTo(written.apply(2).name()); // label, again
    assertThat(last.json()).doesNotContain("parquet.field.id");
  }

  @Test
  void columnMappingByIdGivesTheParquetFieldIds() throws IOException {
    agreesWithDelta(DeltaFixtures.MAPPED_BY_ID, 2, null);
    StructType files = fileSchema(DeltaFixtures.MAPPED_BY_ID, 2);
    assertThat(files.fields())
        .extracting(f -> f.metadata().getLong("parquet.field.id"))
        .containsExactly(1L, 2L, 3L);
  }

  /** A table that took column mapping on keeps its files' names: here swapped by renames. */
  @Test
  void columnsRenamedAfterMappingKeepTheirFileNames() throws IOException {
    agreesWithDelta(DeltaFixtures.SWAPPED, 4, null);
    StructType logical =
        (StructType) DataType.fromJson(plan(DeltaFixtures.SWAPPED, 4).schemaJson());
    assertThat(logical.fieldNames()).containsExactly("id", "y", "label", "pos", "x");
    assertThat(fileSchema(DeltaFixtures.SWAPPED, 4).fieldNames())
        .containsExactly("id", "x", "label", "pos", "y");
  }

  private static StructType fileSchema(String table, long version) {
    return (StructType) DataType.fromJson(plan(table, version).fileSchemaJson());
  }

  @Test
  void deletionVectorsAreTheDeletedPositions() throws IOException {
    agreesWithDelta(DeltaFixtures.DELETES, 4, null);
    TableSnapshot written = plan(DeltaFixtures.DELETES, 0);
    TableSnapshot once = plan(DeltaFixtures.DELETES, 1);
    TableSnapshot twice = plan(DeltaFixtures.DELETES, 2);
    assertThat(written.deletedRows()).isZero();
    assertThat(written.readerFeatures()).containsExactly("deletionVectors");
    // A deletion vector marks rows in place: the files stay, and the second delete's vector holds
    // the first one's rows too.
    assertThat(once.files())
        .extracting(TableFile::path)
        .containsExactlyInAnyOrderElementsOf(
            written.files().stream().map(TableFile::path).toList());
    assertThat(once.deletedRows()).isEqualTo(143);
    assertThat(twice.deletedRows()).isEqualTo(1000 - 812);
    assertThat(once.files()).allSatisfy(f -> assertThat(f.deletedCount()).isPositive());
    assertThat(dir.resolve(DeltaFixtures.DELETES).resolve("_delta_log"))
        .isDirectoryContaining("glob:**/00000000000000000002.checkpoint.parquet");
  }

  @Test
  void anUpdateAddsAFileAndCompactionDropsTheDeletedRows() throws IOException {
    TableSnapshot deleted = plan(DeltaFixtures.DELETES, 2);
    TableSnapshot updated = plan(DeltaFixtures.DELETES, 3);
    TableSnapshot compacted = plan(DeltaFixtures.DELETES, 4);
    // The update marks the old rows deleted and writes them anew: 812 live rows still.
    assertThat(updated.files().size()).isGreaterThan(deleted.files().size());
    assertThat(updated.deletedRows()).isGreaterThan(deleted.deletedRows());
    assertThat(compacted.deletedRows()).isZero();
    assertThat(
            EXPECTED.get(DeltaFixtures.DELETES + "/4").values().stream()
                .mapToInt(l -> l.positions().size())
                .sum())
        .isEqualTo(812);
    assertThat(compacted.files())
        .extracting(TableFile::path)
        .doesNotContainAnyElementsOf(updated.files().stream().map(TableFile::path).toList());
  }

  @Test
  void anOverwriteLeavesOnlyTheNewFiles() throws IOException {
    agreesWithDelta(DeltaFixtures.OVERWRITE, 1, null);
    List<String> before =
        plan(DeltaFixtures.OVERWRITE, 0).files().stream().map(TableFile::path).toList();
    assertThat(plan(DeltaFixtures.OVERWRITE, 1).files())
        .extracting(TableFile::path)
        .doesNotContainAnyElementsOf(before);
  }

  @Test
  void partitionValuesAreTheLogsAndNullStaysNull() throws IOException {
    agreesWithDelta(DeltaFixtures.PARTITIONED, 1, "part");
    TableSnapshot snapshot = plan(DeltaFixtures.PARTITIONED, 1);
    assertThat(snapshot.partitionColumns()).containsExactly("part");
    assertThat(snapshot.files())
        .extracting(f -> f.partitionValues().get("part"))
        .contains("a", "b", "c", null);
    assertThat(snapshot.files())
        .allSatisfy(
            f ->
                assertThat(f.deletedCount() > 0)
                    .isEqualTo("b".equals(f.partitionValues().get("part"))));
  }

  @Test
  void columnMappingKeysPartitionValuesByTheLogicalName() throws IOException {
    agreesWithDelta(DeltaFixtures.MAPPED, 6, "part");
    TableSnapshot snapshot = plan(DeltaFixtures.MAPPED, 1);
    assertThat(snapshot.files())
        .allSatisfy(f -> assertThat(f.partitionValues()).containsOnlyKeys("part"));
    assertThat(snapshot.readerFeatures()).contains("columnMapping", "deletionVectors");
    // Half of partition a is deleted: a deletion vector on a file under a random prefix.
    assertThat(snapshot.deletedRows()).isEqualTo(75);
  }

  @ParameterizedTest
  @CsvSource({"0", "1", "2"})
  void aCommitsTimestampTravelsToItsVersion(long version) {
    long at = COMMITS.get(DeltaFixtures.APPENDS + "/" + version);
    assertThat(planner.plan(table(DeltaFixtures.APPENDS), AsOf.timestamp(at)).version())
        .isEqualTo(version);
    Long next = COMMITS.get(DeltaFixtures.APPENDS + "/" + (version + 1));
    if (next != null && next - at > 1) {
      assertThat(
              planner.plan(table(DeltaFixtures.APPENDS), AsOf.timestamp((at + next) / 2)).version())
          .as("between two commits: the earlier")
          .isEqualTo(version);
    }
  }

  @Test
  void aTimeOutsideTheCommitsOrAMissingVersionIsAnError() {
    long first = COMMITS.get(DeltaFixtures.APPENDS + "/0");
    long last = COMMITS.get(DeltaFixtures.APPENDS + "/3");
    // As Delta's own reader: a time after the last commit names no snapshot yet.
    assertThatThrownBy(
            () -> planner.plan(table(DeltaFixtures.APPENDS), AsOf.timestamp(last + 60_000)))
        .isInstanceOf(TableReadException.class)
        .hasMessageContaining("after the latest available version 3");
    assertThatThrownBy(
            () -> planner.plan(table(DeltaFixtures.APPENDS), AsOf.timestamp(first - 60_000)))
        .isInstanceOf(TableReadException.class)
        .hasMessageContaining(table(DeltaFixtures.APPENDS));
    assertThatThrownBy(() -> plan(DeltaFixtures.APPENDS, 7))
        .isInstanceOf(TableReadException.class)
        .hasMessageContaining("versionAsOf=7");
  }

  /** Positions count over all the row groups of a file. */
  @Test
  void deletesInLaterRowGroupsArePositionsInTheFile() throws IOException {
    agreesWithDelta(DeltaFixtures.ROW_GROUPS, 2, null);
    assertThat(plan(DeltaFixtures.ROW_GROUPS, 2).deletedRows()).isPositive();
  }

  @Test
  void aSchemaThatIsNotJsonIsAnErrorNamingTheTable() {
    assertThatThrownBy(() -> DeltaSnapshotPlanner.sparkSchemaJson("/data/t", "not json"))
        .isInstanceOf(TableReadException.class)
        .hasMessageStartingWith("Cannot read the schema of Delta table /data/t: Unrecognized token")
        .hasMessageNotContaining("\n");
  }

  private static boolean isDeltaTable(String path) {
    return TablePlanners.isDeltaTable(new org.apache.hadoop.fs.Path(path), CONF);
  }

  @Test
  void aFolderWithoutALogIsNoTable() throws IOException {
    Path plain = Files.createDirectories(dir.resolve("plain"));
    assertThat(isDeltaTable(plain.toString())).isFalse();
    assertThat(isDeltaTable(dir.resolve("missing").toString())).isFalse();
    Path file = Files.writeString(plain.resolve("part-0.parquet"), "a file, not a folder");
    assertThat(isDeltaTable(file.toString())).as("a file").isFalse();
    assertThat(isDeltaTable(table(DeltaFixtures.DELETES))).isTrue();
    assertThatThrownBy(() -> planner.plan(plain.toString(), AsOf.latest()))
        .isInstanceOf(TableReadException.class)
        .hasMessageContaining("no Delta table at that path");
  }
}
