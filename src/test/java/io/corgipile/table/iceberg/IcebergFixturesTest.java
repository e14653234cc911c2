package io.corgipile.table.iceberg;

import static io.corgipile.table.iceberg.IcebergFixtures.ADDED;
import static io.corgipile.table.iceberg.IcebergFixtures.APPENDS;
import static io.corgipile.table.iceberg.IcebergFixtures.BRANCH;
import static io.corgipile.table.iceberg.IcebergFixtures.DELETION_VECTORS;
import static io.corgipile.table.iceberg.IcebergFixtures.EQUALITY_DELETES;
import static io.corgipile.table.iceberg.IcebergFixtures.EVOLVED;
import static io.corgipile.table.iceberg.IcebergFixtures.OVERWRITTEN;
import static io.corgipile.table.iceberg.IcebergFixtures.PARTITIONED;
import static io.corgipile.table.iceberg.IcebergFixtures.POSITION_DELETES;
import static io.corgipile.table.iceberg.IcebergFixtures.READDED;
import static io.corgipile.table.iceberg.IcebergFixtures.REFS;
import static io.corgipile.table.iceberg.IcebergFixtures.TAG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SerializableFunction;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fixture tables are what {@link IcebergFixtures} documents: their snapshots, the live rows of
 * each (computed here from how the rows were made, and compared with what Iceberg's reader
 * returns), their delete files and their row groups.
 */
class IcebergFixturesTest {
  private static final Configuration CONF = new Configuration();
  private static final Map<String, Table> TABLES = new LinkedHashMap<>();
  private static final SerializableFunction<Long, Integer> BUCKET =
      Transforms.<Long>bucket(4).bind(Types.LongType.get());

  @BeforeAll
  static void load() throws IOException {
    Path dir = IcebergFixtures.tables();
    HadoopTables tables = new HadoopTables(CONF);
    for (String name : IcebergFixtures.NAMES) {
      assertThat(dir.resolve(name).resolve("metadata/version-hint.text")).exists();
      TABLES.put(name, tables.load(dir.resolve(name).toString()));
    }
  }

  @Test
  void snapshotsAreTheDocumentedCommitsAtDistinctTimes() {
    Map<String, List<String>> operations = new LinkedHashMap<>();
    operations.put(APPENDS, List.of("append", "append", "append"));
    operations.put(POSITION_DELETES, List.of("append", "delete", "overwrite", "delete"));
    operations.put(EQUALITY_DELETES, List.of("append", "delete", "delete", "append"));
    operations.put(DELETION_VECTORS, List.of("append", "delete", "delete"));
    operations.put(EVOLVED, List.of("append", "append"));
    operations.put(PARTITIONED, List.of("append", "delete", "append"));
    operations.put(OVERWRITTEN, List.of("append", "overwrite", "delete", "replace"));
    operations.put(REFS, List.of("append", "append"));
    operations.put(ADDED, List.of("append", "append"));
    operations.put(READDED, List.of("append", "append"));
    assertThat(TABLES.keySet()).containsExactlyElementsOf(operations.keySet());
    operations.forEach(
        (name, expected) -> {
          Table table = TABLES.get(name);
          List<Snapshot> snapshots =
              IcebergFixtures.snapshotIds(table).stream().map(table::snapshot).toList();
          assertThat(snapshots).extracting(Snapshot::operation).as(name).isEqualTo(expected);
          assertThat(snapshots)
              .extracting(Snapshot::timestampMillis)
              .as(name)
              .isSortedAccordingTo(Long::compare)
              .doesNotHaveDuplicates();
        });
  }

  @Test
  void appendsAddRows() {
    assertLiveIds(
        APPENDS, ids(0, 800, id -> true), ids(0, 1200, id -> true), ids(0, 2000, id -> true));
  }

  @Test
  void positionDeletesAndAnUpdate() {
    LongPredicate afterDelete = id -> !(id < 600 && id % 5 == 1);
    List<Long> live = ids(0, 1200, afterDelete);
    assertLiveIds(
        POSITION_DELETES,
        ids(0, 1200, id -> true),
        live,
        live,
        ids(0, 1200, id -> afterDelete.test(id) && !(id >= 300 && id < 400 && id % 2 == 0)));
    assertThat(live).hasSize(1080);

    Table table = TABLES.get(POSITION_DELETES);
    List<Object> updated =
        IcebergFixtures.rows(table, IcebergFixtures.snapshotIds(table).get(2)).stream()
            .filter(row -> "updated".equals(row.get(3)))
            .map(row -> row.get(0))
            .toList();
    assertThat(updated)
        .containsExactlyInAnyOrderElementsOf(
            ids(0, 1200, id -> (id < 100 && id % 5 == 2) || (id >= 600 && (id - 600) % 4 == 0)));

    List<FileScanTask> tasks = plan(table);
    assertThat(tasks)
        .flatExtracting(FileScanTask::deletes)
        .extracting(DeleteFile::content, DeleteFile::format)
        .containsOnly(tuple(FileContent.POSITION_DELETES, FileFormat.PARQUET));
    // file A has the three delete files; the update's names rows of A and B, so it is not scoped to
    // one data file
    assertThat(tasks).anySatisfy(t -> assertThat(t.deletes()).hasSize(3));
    assertThat(tasks)
        .flatExtracting(FileScanTask::deletes)
        .anySatisfy(d -> assertThat(d.referencedDataFile()).isNull());
  }

  @Test
  void equalityDeletesApplyToOlderFilesOnly() {
    LongPredicate byId = id -> id % 7 != 3;
    LongPredicate byLabelAndName =
        id -> !((label(id) == 0 && name(id) == null) || (label(id) == 1 && "n4".equals(name(id))));
    List<Long> last = ids(0, 1200, id -> byId.test(id) && byLabelAndName.test(id));
    last.addAll(ids(0, 1400, id -> id >= 1200 || !byId.test(id)));
    assertLiveIds(
        EQUALITY_DELETES,
        ids(0, 1200, id -> true),
        ids(0, 1200, byId),
        ids(0, 1200, id -> byId.test(id) && byLabelAndName.test(id)),
        last);
    assertThat(last).hasSize(1314);

    List<FileScanTask> tasks = plan(TABLES.get(EQUALITY_DELETES));
    assertThat(tasks)
        .flatExtracting(FileScanTask::deletes)
        .extracting(DeleteFile::content)
        .containsOnly(FileContent.EQUALITY_DELETES);
    assertThat(tasks)
        .flatExtracting(FileScanTask::deletes)
        .extracting(DeleteFile::equalityFieldIds)
        .containsOnly(List.of(1), List.of(3, 4));
    // the last append's file has a higher data sequence number than the deletes
    assertThat(tasks).anySatisfy(t -> assertThat(t.deletes()).isEmpty());
  }

  @Test
  void deletionVectorsReplaceEachOther() {
    LongPredicate first = id -> !(id < 600 && id % 4 == 0);
    assertLiveIds(
        DELETION_VECTORS,
        ids(0, 1200, id -> true),
        ids(0, 1200, first),
        ids(
            0,
            1200,
            id ->
                first.test(id)
                    && !(id < 300 && id % 4 == 1)
                    && !(id >= 600 && (id - 600) % 3 == 0)));

    Table table = TABLES.get(DELETION_VECTORS);
    List<FileScanTask> tasks = plan(table);
    assertThat(tasks).hasSize(2);
    for (FileScanTask task : tasks) {
      assertThat(task.deletes()).hasSize(1);
      DeleteFile dv = task.deletes().get(0);
      assertThat(dv.format()).isEqualTo(FileFormat.PUFFIN);
      assertThat(dv.content()).isEqualTo(FileContent.POSITION_DELETES);
      assertThat(dv.referencedDataFile()).isEqualTo(task.file().location());
    }
    Snapshot last = table.currentSnapshot();
    assertThat(SnapshotChanges.builderFor(table).snapshot(last).build().removedDeleteFiles())
        .hasSize(1);
  }

  @Test
  void evolvedRowsAreReadInTheirSnapshotsSchema() {
    assertLiveIds(EVOLVED, ids(0, 800, id -> true), ids(0, 1200, id -> true));
    Table table = TABLES.get(EVOLVED);
    List<Long> snapshots = IcebergFixtures.snapshotIds(table);
    assertThat(columns(table, snapshots.get(0)))
        .containsExactly("id", "x", "label", "name", "old", "s");
    assertThat(columns(table, snapshots.get(1)))
        .containsExactly("id", "x", "label", "title", "s", "extra");

    List<Object> before = row(table, snapshots.get(0), 1);
    assertThat(before.get(0)).isEqualTo(1L);
    assertThat(before.get(1)).isInstanceOf(Float.class);
    assertThat(before.subList(2, before.size())).containsExactly(1, "n1", "o1", List.of(1, "b1"));
    List<Object> after = row(table, snapshots.get(1), 1);
    assertThat(after)
        .containsExactly(1L, (double) (Float) before.get(1), 1, "n1", List.of(1, "b1"), null);
    assertThat(row(table, snapshots.get(1), 801))
        .startsWith(801L)
        .endsWith(0, "n3", List.of(1, "b0"), "e801");
  }

  @Test
  void partitionedDeletesAndSpecEvolution() {
    Table table = TABLES.get(PARTITIONED);
    List<Long> b1 = ids(0, 2400, id -> id % 4 == 1 && bucket(id) == 1);
    List<Long> null2 = ids(0, 2400, id -> id % 4 == 3 && bucket(id) == 2);
    List<Long> deleted = new ArrayList<>();
    for (int p = 0; p < b1.size(); p += 2) {
      deleted.add(b1.get(p));
    }
    deleted.addAll(null2.subList(0, 10));
    List<Long> afterDelete = ids(0, 2400, id -> !deleted.contains(id));
    List<Long> last = new ArrayList<>(afterDelete);
    last.addAll(ids(2400, 3200, id -> true));
    assertLiveIds(PARTITIONED, ids(0, 2400, id -> true), afterDelete, last);

    List<Long> snapshots = IcebergFixtures.snapshotIds(table);
    SnapshotChanges first =
        SnapshotChanges.builderFor(table).snapshot(table.snapshot(snapshots.get(0))).build();
    assertThat(first.addedDataFiles()).hasSize(16).allSatisfy(f -> assertThat(f.specId()).isZero());
    assertThat(first.addedDataFiles())
        .anySatisfy(f -> assertThat(f.partition().get(0, String.class)).isNull());
    SnapshotChanges third =
        SnapshotChanges.builderFor(table).snapshot(table.snapshot(snapshots.get(2))).build();
    assertThat(table.specs().get(1).fields())
        .extracting(f -> f.name() + "=" + f.transform())
        .containsExactly("part=identity", "ts_day=day");
    assertThat(third.addedDataFiles()).hasSize(8).allSatisfy(f -> assertThat(f.specId()).isOne());

    assertThat(row(table, snapshots.get(2), 2406))
        .endsWith("c", Instant.parse("2024-01-01T00:00:00Z").plusSeconds(60 * 2406));
    assertThat(row(table, snapshots.get(2), 25).subList(4, 6)).containsExactly("b", null);
    for (FileScanTask task : plan(table)) {
      for (DeleteFile d : task.deletes()) {
        assertThat(d.partition()).isEqualTo(task.file().partition());
      }
    }
  }

  @Test
  void overwriteAndCompaction() {
    List<Long> compacted = ids(1000, 1600, id -> !(id < 1300 && (id - 1000) % 3 == 0));
    assertLiveIds(
        OVERWRITTEN, ids(0, 1000, id -> true), ids(1000, 1600, id -> true), compacted, compacted);
    assertThat(compacted).hasSize(500);
    assertThat(plan(TABLES.get(OVERWRITTEN))).allSatisfy(t -> assertThat(t.deletes()).isEmpty());
  }

  @Test
  void dataFilesHaveSeveralRowGroups() throws IOException {
    for (Table table : TABLES.values()) {
      for (long id : IcebergFixtures.snapshotIds(table)) {
        SnapshotChanges changes =
            SnapshotChanges.builderFor(table).snapshot(table.snapshot(id)).build();
        for (DataFile file : changes.addedDataFiles()) {
          try (ParquetFileReader reader =
              ParquetFileReader.open(
                  HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.location()), CONF))) {
            assertThat(reader.getFooter().getBlocks()).as(file.location()).hasSizeGreaterThan(1);
          }
        }
      }
    }
  }

  @Test
  void aTagAndABranchBesideMain() {
    assertLiveIds(REFS, ids(0, 400, id -> true), ids(0, 1000, id -> id < 400 || id >= 600));
    Table table = TABLES.get(REFS);
    List<Long> main = IcebergFixtures.snapshotIds(table);
    assertThat(table.refs().get(TAG).isBranch()).isFalse();
    assertThat(table.refs().get(TAG).snapshotId()).isEqualTo(main.get(0));
    assertThat(table.refs().get(BRANCH).isBranch()).isTrue();
    Snapshot head = table.snapshot(BRANCH);
    assertThat(head.parentId()).isEqualTo(main.get(0));
    assertThat(IcebergFixtures.rows(table, head.snapshotId()).stream().map(row -> row.get(0)))
        .containsExactlyInAnyOrderElementsOf(ids(0, 600, id -> true));
    // the column added last is the table's, in no snapshot's schema
    assertThat(columns(table, main.get(1))).containsExactly("id", "x", "label", "name");
    assertThat(table.schema().columns().stream().map(Types.NestedField::name))
        .containsExactly("id", "x", "label", "name", "note");
    assertThat(IcebergFixtures.rows(table))
        .allSatisfy(row -> assertThat(row).hasSize(5).last().isNull());
  }

  /** The first file has no field ids, and its columns are matched through the name mapping. */
  @Test
  void filesAddedWithoutFieldIdsReadThroughTheNameMapping() throws IOException {
    assertLiveIds(ADDED, ids(0, 600, id -> true), ids(0, 1000, id -> true));
    Table table = TABLES.get(ADDED);
    List<Long> snapshots = IcebergFixtures.snapshotIds(table);
    DataFile first =
        plan(table).stream()
            .map(FileScanTask::file)
            .filter(f -> f.location().contains("without-ids"))
            .findFirst()
            .orElseThrow();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(first.location()), CONF))) {
      assertThat(reader.getFileMetaData().getSchema().getFields())
          .extracting(
              org.apache.parquet.schema.Type::getName, org.apache.parquet.schema.Type::getId)
          .containsExactly(
              tuple("name", null),
              tuple("id", null),
              tuple("label", null),
              tuple("x", null),
              tuple("stray", null));
    }
    // id 7: label 1, name n0, in the file's columns out of the table's order
    assertThat(row(table, snapshots.get(0), 7)).startsWith(7L).contains(1, "n0");
    assertThat(columns(table, snapshots.get(1))).containsExactly("id", "x", "label", "title");
    assertThat(row(table, snapshots.get(1), 7)).startsWith(7L).contains(1, "n0");
    assertThat(row(table, snapshots.get(1), 617)).startsWith(617L).contains(2, "n1");
  }

  /** Each snapshot's live ids, in commit order, are the expected ones (as a multiset). */
  @SafeVarargs
  private static void assertLiveIds(String name, List<Long>... expected) {
    Table table = TABLES.get(name);
    List<Long> snapshots = IcebergFixtures.snapshotIds(table);
    assertThat(snapshots).as(name).hasSize(expected.length);
    for (int i = 0; i < expected.length; i++) {
      List<Object> ids =
          IcebergFixtures.rows(table, snapshots.get(i)).stream().map(row -> row.get(0)).toList();
      assertThat(ids).as(name + " snapshot " + i).containsExactlyInAnyOrderElementsOf(expected[i]);
    }
  }

  private static List<Long> ids(long from, long to, LongPredicate live) {
    return new ArrayList<>(LongStream.range(from, to).filter(live).boxed().toList());
  }

  private static List<FileScanTask> plan(Table table) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  private static List<String> columns(Table table, long snapshotId) {
    return table.schemas().get(table.snapshot(snapshotId).schemaId()).columns().stream()
        .map(Types.NestedField::name)
        .toList();
  }

  private static List<Object> row(Table table, long snapshotId, long id) {
    return IcebergFixtures.rows(table, snapshotId).stream()
        .filter(row -> row.get(0).equals(id))
        .findFirst()
        .orElseThrow();
  }

  /** The label the fixtures give a row: {@code id % 3}. */
  private static int label(long id) {
    return (int) (id % 3);
  }

  /** The name the fixtures give a row: null every 10th id, else {@code "n" + id % 7}. */
  private static String name(long id) {
    return id % 10 == 0 ? null : "n" + id % 7;
  }

  /** bucket(4, id) by Iceberg's own transform. */
  private static int bucket(long id) {
    return BUCKET.apply(id);
  }
}
