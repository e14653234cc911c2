package io.corgipile.table.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotUpdate;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FanoutDataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Apache Iceberg tables written by Iceberg's own Java API, and the rows Iceberg's own reader
 * returns from each of their snapshots, for the Iceberg reader's tests.
 *
 * <p>Each table is a folder of {@link HadoopTables} (its {@code metadata/version-hint.text} names
 * the current metadata file), with Parquet data files of several row groups (row groups of about 2
 * KB). Rows are made from their {@code id}: {@code x} is Gaussian (a fixed seed), {@code label} is
 * {@code id % 3}, {@code name} is null for every 10th id and {@code "n" + id % 7} otherwise. Rows
 * are written in id order, so a row's position in its data file follows from its id. Each commit
 * has a commit time of its own, later than the previous one's.
 */
public final class IcebergFixtures {
  /**
   * Format v2, unpartitioned; 3 appends: ids 0-799 (two files of 400), 800-1199, 1200-1999 (two
   * files).
   */
  public static final String APPENDS = "appends";

  /**
   * Format v2, position deletes: 1 append of file A (ids 0-599) and file B (ids 600-1199); 2 delete
   * (a position delete file): positions {@code p % 5 == 1} of A; 3 update (a position delete file
   * naming rows of A and B, and a data file of the changed rows, same ids, name {@code "updated"}):
   * positions {@code p % 5 == 2 && p < 100} of A and {@code p % 4 == 0} of B; 4 delete: even
   * positions 300-398 of A, some of which 2 deleted already. A ends with three delete files; 3's,
   * not scoped to one data file, is also planned with 3's data file (the same data sequence
   * number), though it names none of its rows.
   */
  public static final String POSITION_DELETES = "posdeletes";

  /**
   * Format v2, equality deletes: 1 append of ids 0-599 and 600-1199 (two files); 2 delete by {@code
   * id}: the ids {@code id % 7 == 3}; 3 delete by ({@code label}, {@code name}): the rows (0, null)
   * and (1, "n4"); 4 append (one file) of the ids {@code id % 7 == 3} below 1200 again and of ids
   * 1200-1399: the earlier deletes do not apply to it, as its data sequence number is higher.
   */
  public static final String EQUALITY_DELETES = "eqdeletes";

  /**
   * Format v3, deletion vectors: 1 append of file A (ids 0-599) and file B (ids 600-1199); 2 delete
   * (a DV): positions {@code p % 4 == 0} of A; 3 delete: a DV of A that replaces 2's (its positions
   * and {@code p % 4 == 1 && p < 300}), and a DV of B: {@code p % 3 == 0}.
   */
  public static final String DELETION_VECTORS = "dvs";

  /**
   * Format v2, schema evolution: 1 append (ids 0-399, 400-799) with columns {@code id} long, {@code
   * x} float, {@code label} int, {@code name} string, {@code old} string ({@code "o" + id}) and
   * {@code s} struct of {@code a} int ({@code id % 5}) and {@code b} string ({@code "b" + id % 9});
   * then {@code name} renamed {@code title}, {@code s.b} renamed {@code s.note}, {@code x} promoted
   * to double (schema 1), {@code old} dropped and {@code extra} string added, null in the old files
   * (schema 2); 2 append (ids 800-1199, {@code extra} = {@code "e" + id}) in schema 2.
   */
  public static final String EVOLVED = "evolved";

  /**
   * Format v2, partitioned by identity({@code part}) and bucket(4, {@code id}) ({@code id_bucket});
   * {@code part} is {@code "a"}, {@code "b"}, {@code "c"}, null by {@code id % 4}, {@code ts}
   * (timestamp with time zone) is 2024-01-01T00:00Z plus {@code id} minutes, null for every 25th id
   * below 2400: 1 append of ids 0-2399 (a file per partition); 2 delete (a position delete file per
   * partition): even positions of the file of ({@code "b"}, 1) and the first 10 of the file of
   * (null, 2); then the spec evolves to identity({@code part}) and day({@code ts}) ({@code ts_day};
   * a v2 spec drops a removed field); 3 append of ids 2400-3199 (two days, a file per part and
   * day).
   */
  public static final String PARTITIONED = "partitioned";

  /**
   * Format v2: 1 append of ids 0-499 and 500-999; 2 overwrite: both files replaced by file C (ids
   * 1000-1299) and D (ids 1300-1599); 3 delete (a position delete file): positions {@code p % 3 ==
   * 0} of C; 4 replace (compaction): C and its delete file rewritten into one file of C's live
   * rows.
   */
  public static final String OVERWRITTEN = "overwritten";

  /**
   * Format v2, a branch and a tag: 1 append of ids 0-399, tagged {@link #TAG} and branched into
   * {@link #BRANCH}; 2 append of ids 400-599 to the branch; 3 append of ids 600-999 to {@code
   * main}; then a column {@code note} string is added, and no snapshot has it: a read of the
   * current snapshot or of a branch gives it, as nulls.
   */
  public static final String REFS = "refs";

  /** {@link #REFS}' tag: its first snapshot. */
  public static final String TAG = "v1";

  /** {@link #REFS}' branch: its first snapshot, then ids 400-599. */
  public static final String BRANCH = "audit";

  /**
   * Format v2, with a name mapping ({@code schema.name-mapping.default}, made from the schema): 1
   * append of a file without Parquet field ids (as {@code add_files} and Spark's {@code migrate}
   * add files), ids 0-599, its columns in another order than the table's ({@code name}, {@code id},
   * {@code label}, {@code x}) and one more the table lacks ({@code stray}); then {@code name}
   * renamed {@code title}, which the mapping keeps as a second name; 2 append of ids 600-999 by
   * Iceberg's writer, with ids. Iceberg's generic reader applies no name mapping (it matches a file
   * without ids by position): {@link #rows} reads it as Iceberg's Spark reader does.
   */
  public static final String ADDED = "added";

  /**
   * Format v2: 1 append of ids 0-399 (no {@code x} is null); then {@code x} dropped and added again
   * (a new field id, the same name); 2 append of ids 400-599. The first file's {@code x}, another
   * column of the same name, reads as null.
   */
  public static final String READDED = "readded";

  /** Every table, in the order they are written. */
  public static final List<String> NAMES =
      List.of(
          APPENDS,
          POSITION_DELETES,
          EQUALITY_DELETES,
          DELETION_VECTORS,
          EVOLVED,
          PARTITIONED,
          OVERWRITTEN,
          REFS,
          ADDED,
          READDED);

  /** Row groups of about 2 KB, their size checked every 10 to 50 rows: 50 to 80 rows each. */
  private static final Map<String, String> WRITE_PROPERTIES =
      Map.of(
          TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "2048",
          TableProperties.PARQUET_ROW_GROUP_CHECK_MIN_RECORD_COUNT, "10",
          TableProperties.PARQUET_ROW_GROUP_CHECK_MAX_RECORD_COUNT, "50");

  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "x", Types.DoubleType.get()),
          Types.NestedField.optional(3, "label", Types.IntegerType.get()),
          Types.NestedField.optional(4, "name", Types.StringType.get()));

  private static final Instant TS_ORIGIN = Instant.parse("2024-01-01T00:00:00Z");

  private static final HadoopTables TABLES = new HadoopTables(new Configuration());

  private static Path tables;

  private IcebergFixtures() {}

  /** The folder of the tables, written on first use in this JVM and deleted when it exits. */
  public static synchronized Path tables() throws IOException {
    if (tables == null) {
      Path dir = Files.createTempDirectory("iceberg-fixtures");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
      write(dir);
      tables = dir;
    }
    return tables;
  }

  /** Writes every table into {@code dir/<name>}; returns them by name, loaded again. */
  public static Map<String, Table> write(Path dir) throws IOException {
    appends(dir);
    positionDeletes(dir);
    equalityDeletes(dir);
    deletionVectors(dir);
    evolved(dir);
    partitioned(dir);
    overwritten(dir);
    refs(dir);
    added(dir);
    readded(dir);
    Map<String, Table> loaded = new LinkedHashMap<>();
    for (String name : NAMES) {
      loaded.put(name, TABLES.load(dir.resolve(name).toString()));
    }
    return loaded;
  }

  /** The table's snapshots in commit order: the current snapshot's ancestors, oldest first. */
  public static List<Long> snapshotIds(Table table) {
    List<Long> ids = new ArrayList<>();
    for (Snapshot s = table.currentSnapshot();
        s != null;
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      ids.add(0, s.snapshotId());
    }
    return ids;
  }

  /**
   * The live rows of the current snapshot in the table's schema, as Iceberg's Spark reader reads a
   * table without time travel; as {@link #rows(Table, long, Schema)}.
   */
  public static List<List<Object>> rows(Table table) {
    return rows(table, table.currentSnapshot().snapshotId(), table.schema());
  }

  /**
   * The live rows of a snapshot in the snapshot's schema; as {@link #rows(Table, long, Schema)}.
   */
  public static List<List<Object>> rows(Table table, long snapshotId) {
    return rows(table, snapshotId, table.schemas().get(table.snapshot(snapshotId).schemaId()));
  }

  /**
   * The live rows of a snapshot as Iceberg's own reader returns them ({@link #rowsByNameMapping}
   * for a table with a name mapping), in {@code schema}, in the reader's order: each row the values
   * of the schema's top-level columns as a Spark {@code Row} holds them with {@code
   * spark.sql.datetime.java8API.enabled=true} (which callers must set to compare): a struct as the
   * list of its values, a timestamp with time zone as an {@link Instant}, a date as a {@link
   * java.time.LocalDate}, a decimal as a {@link java.math.BigDecimal}.
   */
  public static List<List<Object>> rows(Table table, long snapshotId, Schema schema) {
    if (table.properties().containsKey(TableProperties.DEFAULT_NAME_MAPPING)) {
      return rowsByNameMapping(table, snapshotId, schema);
    }
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).useSnapshot(snapshotId).project(schema).build()) {
      for (Record record : records) {
        // the reader adds the row position (_pos) after the columns where position deletes apply
        rows.add(values(record).subList(0, schema.columns().size()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** Spark's rows as {@link #rows} gives Iceberg's: top-level values, a struct as a list. */
  public static List<List<Object>> values(Dataset<Row> rows) {
    List<List<Object>> values = new ArrayList<>();
    for (Row row : rows.collectAsList()) {
      values.add(values(row));
    }
    return values;
  }

  private static List<Object> values(Row row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < row.size(); i++) {
      Object value = row.get(i);
      values.add(value instanceof Row nested ? values(nested) : value);
    }
    return values;
  }

  private static List<Object> values(StructLike struct) {
    List<Object> values = new ArrayList<>(struct.size());
    for (int i = 0; i < struct.size(); i++) {
      Object value = struct.get(i, Object.class);
      if (value instanceof StructLike nested) {
        values.add(values(nested));
      } else if (value instanceof OffsetDateTime time) {
        values.add(time.toInstant());
      } else {
        values.add(value);
      }
    }
    return values;
  }

  private static void appends(Path dir) throws IOException {
    Writer w = new Writer(dir, APPENDS, 2, SCHEMA, PartitionSpec.unpartitioned());
    w.commit(w.table.newAppend().appendFile(w.data(0, 400)).appendFile(w.data(400, 800)));
    w.commit(w.table.newAppend().appendFile(w.data(800, 1200)));
    w.commit(w.table.newAppend().appendFile(w.data(1200, 1600)).appendFile(w.data(1600, 2000)));
  }

  private static void positionDeletes(Path dir) throws IOException {
    Writer w = new Writer(dir, POSITION_DELETES, 2, SCHEMA, PartitionSpec.unpartitioned());
    DataFile a = w.data(0, 600);
    DataFile b = w.data(600, 1200);
    w.commit(w.table.newAppend().appendFile(a).appendFile(b));
    w.commit(w.table.newRowDelta().addDeletes(w.positionDeletes(Map.of(a, p -> p % 5 == 1))));

    LongPredicate updatedA = p -> p % 5 == 2 && p < 100;
    LongPredicate updatedB = p -> p % 4 == 0;
    List<Record> updated = new ArrayList<>();
    LongStream.range(0, 600).filter(updatedA).forEach(p -> updated.add(w.row(p)));
    LongStream.range(0, 600).filter(updatedB).forEach(p -> updated.add(w.row(600 + p)));
    updated.forEach(r -> r.setField("name", "updated"));
    w.commit(
        w.table
            .newRowDelta()
            .addDeletes(w.positionDeletes(Map.of(a, updatedA, b, updatedB)))
            .addRows(w.data(updated)));

    w.commit(
        w.table
            .newRowDelta()
            .addDeletes(w.positionDeletes(Map.of(a, p -> p >= 300 && p < 400 && p % 2 == 0))));
  }

  private static void equalityDeletes(Path dir) throws IOException {
    Writer w = new Writer(dir, EQUALITY_DELETES, 2, SCHEMA, PartitionSpec.unpartitioned());
    w.commit(w.table.newAppend().appendFile(w.data(0, 600)).appendFile(w.data(600, 1200)));

    Schema byId = w.table.schema().select("id");
    List<Record> ids = new ArrayList<>();
    for (long id = 3; id < 1200; id += 7) {
      ids.add(GenericRecord.create(byId).copy(Map.of("id", id)));
    }
    w.commit(w.table.newRowDelta().addDeletes(w.equalityDeletes(byId, ids)));

    Schema byLabelAndName = w.table.schema().select("label", "name");
    Record nameless = GenericRecord.create(byLabelAndName).copy(Map.of("label", 0));
    Record n4 = GenericRecord.create(byLabelAndName).copy(Map.of("label", 1, "name", "n4"));
    w.commit(
        w.table.newRowDelta().addDeletes(w.equalityDeletes(byLabelAndName, List.of(nameless, n4))));

    List<Record> again = new ArrayList<>();
    for (long id = 3; id < 1200; id += 7) {
      again.add(w.row(id));
    }
    again.addAll(w.rows(1200, 1400));
    w.commit(w.table.newAppend().appendFile(w.data(again)));
  }

  private static void deletionVectors(Path dir) throws IOException {
    Writer w = new Writer(dir, DELETION_VECTORS, 3, SCHEMA, PartitionSpec.unpartitioned());
    DataFile a = w.data(0, 600);
    DataFile b = w.data(600, 1200);
    w.commit(w.table.newAppend().appendFile(a).appendFile(b));
    w.commitDVs(Map.of(a, p -> p % 4 == 0));
    w.commitDVs(Map.of(a, p -> p % 4 == 1 && p < 300, b, p -> p % 3 == 0));
  }

  private static void evolved(Path dir) throws IOException {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "x", Types.FloatType.get()),
            Types.NestedField.optional(3, "label", Types.IntegerType.get()),
            Types.NestedField.optional(4, "name", Types.StringType.get()),
            Types.NestedField.optional(5, "old", Types.StringType.get()),
            Types.NestedField.optional(
                6,
                "s",
                Types.StructType.of(
                    Types.NestedField.optional(7, "a", Types.IntegerType.get()),
                    Types.NestedField.optional(8, "b", Types.StringType.get()))));
    Writer w = new Writer(dir, EVOLVED, 2, schema, PartitionSpec.unpartitioned());
    w.commit(
        w.table
            .newAppend()
            .appendFile(w.data(w.evolvedRows(0, 400)))
            .appendFile(w.data(w.evolvedRows(400, 800))));
    w.table
        .updateSchema()
        .renameColumn("name", "title")
        .renameColumn("s.b", "note")
        .updateColumn("x", Types.DoubleType.get())
        .commit();
    w.table.updateSchema().deleteColumn("old").addColumn("extra", Types.StringType.get()).commit();
    w.commit(w.table.newAppend().appendFile(w.data(w.evolvedRows(800, 1200))));
  }

  private static void partitioned(Path dir) throws IOException {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "x", Types.DoubleType.get()),
            Types.NestedField.optional(3, "label", Types.IntegerType.get()),
            Types.NestedField.optional(4, "name", Types.StringType.get()),
            Types.NestedField.optional(5, "part", Types.StringType.get()),
            Types.NestedField.optional(6, "ts", Types.TimestampType.withZone()));
    PartitionSpec spec = PartitionSpec.builderFor(schema).identity("part").bucket("id", 4).build();
    Writer w = new Writer(dir, PARTITIONED, 2, schema, spec);
    List<DataFile> files = w.partitionedData(w.partitionedRows(0, 2400));
    AppendFiles append = w.table.newAppend();
    files.forEach(append::appendFile);
    w.commit(append);

    DataFile b1 = partitionFile(files, "b", 1);
    DataFile null2 = partitionFile(files, null, 2);
    w.commit(
        w.table
            .newRowDelta()
            .addDeletes(w.positionDeletes(Map.of(b1, p -> p % 2 == 0)))
            .addDeletes(w.positionDeletes(Map.of(null2, p -> p < 10))));

    // without the bucket, a file per part and day holds some 100 rows: more than one row group
    w.table.updateSpec().removeField("id_bucket").addField(Expressions.day("ts")).commit();
    AppendFiles next = w.table.newAppend();
    w.partitionedData(w.partitionedRows(2400, 3200)).forEach(next::appendFile);
    w.commit(next);
  }

  /** The data file of the partition ({@code part}, {@code id_bucket}). */
  private static DataFile partitionFile(List<DataFile> files, String part, int bucket) {
    return files.stream()
        .filter(
            f ->
                Objects.equals(f.partition().get(0, String.class), part)
                    && f.partition().get(1, Integer.class) == bucket)
        .findFirst()
        .orElseThrow();
  }

  private static void overwritten(Path dir) throws IOException {
    Writer w = new Writer(dir, OVERWRITTEN, 2, SCHEMA, PartitionSpec.unpartitioned());
    DataFile a = w.data(0, 500);
    DataFile b = w.data(500, 1000);
    w.commit(w.table.newAppend().appendFile(a).appendFile(b));

    List<Record> cRows = w.rows(1000, 1300);
    DataFile c = w.data(cRows);
    w.commit(
        w.table.newOverwrite().deleteFile(a).deleteFile(b).addFile(c).addFile(w.data(1300, 1600)));

    LongPredicate deleted = p -> p % 3 == 0;
    DeleteFile deletes = w.positionDeletes(Map.of(c, deleted));
    w.commit(w.table.newRowDelta().addDeletes(deletes));

    List<Record> live = new ArrayList<>();
    for (int p = 0; p < cRows.size(); p++) {
      if (!deleted.test(p)) {
        live.add(cRows.get(p));
      }
    }
    // validated from the current snapshot, or the delete file it replaces counts as a new delete of
    // the replaced data file
    w.commit(
        w.table
            .newRewrite()
            .validateFromSnapshot(w.table.currentSnapshot().snapshotId())
            .deleteFile(c)
            .deleteFile(deletes)
            .addFile(w.data(live)));
  }

  private static void refs(Path dir) throws IOException {
    Writer w = new Writer(dir, REFS, 2, SCHEMA, PartitionSpec.unpartitioned());
    w.commit(w.table.newAppend().appendFile(w.data(0, 400)));
    long first = w.table.currentSnapshot().snapshotId();
    w.table.manageSnapshots().createTag(TAG, first).createBranch(BRANCH, first).commit();
    w.commit(w.table.newAppend().appendFile(w.data(400, 600)).toBranch(BRANCH));
    w.commit(w.table.newAppend().appendFile(w.data(600, 1000)));
    w.table.updateSchema().addColumn("note", Types.StringType.get()).commit();
  }

  private static void added(Path dir) throws IOException {
    Writer w = new Writer(dir, ADDED, 2, SCHEMA, PartitionSpec.unpartitioned());
    w.table
        .updateProperties()
        .set(
            TableProperties.DEFAULT_NAME_MAPPING,
            NameMappingParser.toJson(MappingUtil.create(w.table.schema())))
        .commit();
    w.commit(w.table.newAppend().appendFile(w.dataWithoutIds(0, 600)));
    w.table.updateSchema().renameColumn("name", "title").commit();
    w.commit(w.table.newAppend().appendFile(w.data(600, 1000)));
  }

  private static void readded(Path dir) throws IOException {
    Writer w = new Writer(dir, READDED, 2, SCHEMA, PartitionSpec.unpartitioned());
    w.commit(w.table.newAppend().appendFile(w.data(0, 400)));
    w.table.updateSchema().deleteColumn("x").commit();
    w.table.updateSchema().addColumn("x", Types.DoubleType.get()).commit();
    w.commit(w.table.newAppend().appendFile(w.data(400, 600)));
  }

  /**
   * The live rows of a snapshot of a table without deletes, in {@code schema}, each data file read
   * by Iceberg's Parquet reader with the table's name mapping, as Iceberg's Spark reader reads
   * files without field ids.
   */
  private static List<List<Object>> rowsByNameMapping(Table table, long snapshotId, Schema schema) {
    NameMapping mapping =
        NameMappingParser.fromJson(table.properties().get(TableProperties.DEFAULT_NAME_MAPPING));
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      for (FileScanTask task : tasks) {
        if (!task.deletes().isEmpty()) {
          throw new IllegalStateException("Cannot read deletes with a name mapping here");
        }
        try (CloseableIterable<Record> records =
            Parquet.read(table.io().newInputFile(task.file().location()))
                .project(schema)
                .withNameMapping(mapping)
                .createReaderFunc(file -> GenericParquetReaders.buildReader(schema, file))
                .build()) {
          for (Record record : records) {
            rows.add(values(record));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind
    }
  }

  /** Writes the files of one table and commits them. */
  private static final class Writer {
    private final Table table;
    private final Random random = new Random(42);
    private final OutputFileFactory parquetFiles;
    private final OutputFileFactory puffinFiles;

    Writer(Path dir, String name, int formatVersion, Schema schema, PartitionSpec spec) {
      Map<String, String> properties = new HashMap<>(WRITE_PROPERTIES);
      properties.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
      table = TABLES.create(schema, spec, properties, dir.resolve(name).toString());
      parquetFiles = OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
      puffinFiles = OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PUFFIN).build();
    }

    /** The row of {@code id} in the table's current schema, its other columns null. */
    Record row(long id) {
      Schema schema = table.schema();
      GenericRecord row = GenericRecord.create(schema);
      row.setField("id", id);
      double x = random.nextGaussian();
      row.setField("x", schema.findType("x") instanceof Types.FloatType ? (Object) (float) x : x);
      row.setField("label", (int) (id % 3));
      row.setField(
          schema.findField("name") != null ? "name" : "title", id % 10 == 0 ? null : "n" + id % 7);
      return row;
    }

    List<Record> rows(long from, long to) {
      List<Record> rows = new ArrayList<>();
      for (long id = from; id < to; id++) {
        rows.add(row(id));
      }
      return rows;
    }

    /** Rows of {@link #EVOLVED} in its current schema. */
    List<Record> evolvedRows(long from, long to) {
      List<Record> rows = rows(from, to);
      Schema schema = table.schema();
      for (Record row : rows) {
        long id = (Long) row.getField("id");
        GenericRecord s = GenericRecord.create(schema.findType("s").asStructType());
        s.set(0, (int) (id % 5));
        s.set(1, "b" + id % 9);
        row.setField("s", s);
        if (schema.findField("old") != null) {
          row.setField("old", "o" + id);
        } else {
          row.setField("extra", "e" + id);
        }
      }
      return rows;
    }

    /** Rows of {@link #PARTITIONED}. */
    List<Record> partitionedRows(long from, long to) {
      List<Record> rows = rows(from, to);
      String[] parts = {"a", "b", "c", null};
      for (Record row : rows) {
        long id = (Long) row.getField("id");
        row.setField("part", parts[(int) (id % 4)]);
        row.setField(
            "ts",
            id % 25 == 0 && id < 2400
                ? null
                : OffsetDateTime.ofInstant(TS_ORIGIN.plusSeconds(60 * id), ZoneOffset.UTC));
      }
      return rows;
    }

    DataFile data(long from, long to) throws IOException {
      return data(rows(from, to));
    }

    /**
     * A data file of ids {@code [from, to)} without Parquet field ids, written by parquet-mr's
     * example writer: columns {@code name}, {@code id}, {@code label}, {@code x} and {@code stray}
     * ({@code "s" + id}), row groups of about 2 KB.
     */
    DataFile dataWithoutIds(long from, long to) throws IOException {
      MessageType type =
          org.apache.parquet.schema.Types.buildMessage()
              .optional(PrimitiveType.PrimitiveTypeName.BINARY)
              .as(LogicalTypeAnnotation.stringType())
              .named("name")
              .required(PrimitiveType.PrimitiveTypeName.INT64)
              .named("id")
              .optional(PrimitiveType.PrimitiveTypeName.INT32)
              .named("label")
              .optional(PrimitiveType.PrimitiveTypeName.DOUBLE)
              .named("x")
              .required(PrimitiveType.PrimitiveTypeName.BINARY)
              .as(LogicalTypeAnnotation.stringType())
              .named("stray")
              .named("table");
      String path = table.location() + "/data/without-ids-" + from + ".parquet";
      SimpleGroupFactory groups = new SimpleGroupFactory(type);
      try (ParquetWriter<Group> writer =
          ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(path))
              .withType(type)
              .withRowGroupSize(2048L)
              .withMinRowCountForPageSizeCheck(10)
              .build()) {
        for (Record row : rows(from, to)) {
          Group g = groups.newGroup();
          if (row.getField("name") != null) {
            g.add("name", (String) row.getField("name"));
          }
          g.add("id", (Long) row.getField("id"));
          g.add("label", (Integer) row.getField("label"));
          g.add("x", (Double) row.getField("x"));
          g.add("stray", "s" + row.getField("id"));
          writer.write(g);
        }
      }
      return DataFiles.builder(PartitionSpec.unpartitioned())
          .withPath(path)
          .withFormat(FileFormat.PARQUET)
          .withFileSizeInBytes(Files.size(Path.of(path)))
          .withRecordCount(to - from)
          .build();
    }

    /** One data file of an unpartitioned table. */
    DataFile data(List<Record> rows) throws IOException {
      DataWriter<Record> writer =
          writers()
              .newDataWriter(parquetFiles.newOutputFile(), PartitionSpec.unpartitioned(), null);
      try (writer) {
        rows.forEach(writer::write);
      }
      return writer.toDataFile();
    }

    /** A data file per partition of the table's current spec. */
    List<DataFile> partitionedData(List<Record> rows) throws IOException {
      PartitionSpec spec = table.spec();
      PartitionKey key = new PartitionKey(spec, table.schema());
      InternalRecordWrapper wrapper = new InternalRecordWrapper(table.schema().asStruct());
      FanoutDataWriter<Record> writer =
          new FanoutDataWriter<>(writers(), parquetFiles, table.io(), Long.MAX_VALUE);
      try (writer) {
        for (Record row : rows) {
          key.partition(wrapper.wrap(row));
          writer.write(row, spec, key);
        }
      }
      return writer.result().dataFiles();
    }

    /**
     * A position delete file of the positions of each data file that the predicate keeps; the files
     * must share a partition.
     */
    DeleteFile positionDeletes(Map<DataFile, LongPredicate> deletes) throws IOException {
      TreeMap<String, DataFile> byPath = new TreeMap<>();
      deletes.keySet().forEach(f -> byPath.put(f.location(), f));
      DataFile first = byPath.firstEntry().getValue();
      PartitionSpec spec = table.specs().get(first.specId());
      PositionDeleteWriter<Record> writer =
          writers()
              .newPositionDeleteWriter(
                  parquetFiles.newOutputFile(spec, first.partition()), spec, first.partition());
      PositionDelete<Record> delete = PositionDelete.create();
      // sorted by file and position, as the spec asks
      try (writer) {
        for (DataFile file : byPath.values()) {
          LongPredicate deleted = deletes.get(file);
          for (long p = 0; p < file.recordCount(); p++) {
            if (deleted.test(p)) {
              writer.write(delete.set(file.location(), p));
            }
          }
        }
      }
      return writer.toDeleteFile();
    }

    /** An equality delete file of an unpartitioned table, by the columns of {@code keys}. */
    DeleteFile equalityDeletes(Schema keys, List<Record> rows) throws IOException {
      int[] fieldIds = keys.columns().stream().mapToInt(Types.NestedField::fieldId).toArray();
      GenericFileWriterFactory factory =
          new GenericFileWriterFactory.Builder(table)
              .equalityFieldIds(fieldIds)
              .equalityDeleteRowSchema(keys)
              .build();
      EqualityDeleteWriter<Record> writer =
          factory.newEqualityDeleteWriter(
              parquetFiles.newOutputFile(), PartitionSpec.unpartitioned(), null);
      try (writer) {
        rows.forEach(writer::write);
      }
      return writer.toDeleteFile();
    }

    /**
     * Commits deletion vectors of the positions of each data file that the predicate keeps. A v3
     * data file has at most one DV, so a new DV holds the positions of the file's current one too
     * (the writer loads them), and the commit removes the current one.
     */
    void commitDVs(Map<DataFile, LongPredicate> deletes) throws IOException {
      Map<String, List<DeleteFile>> current = new HashMap<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        tasks.forEach(t -> current.put(t.file().location(), t.deletes()));
      }
      BaseDeleteLoader loader = new BaseDeleteLoader(f -> table.io().newInputFile(f));
      BaseDVFileWriter writer =
          new BaseDVFileWriter(
              puffinFiles,
              path -> {
                List<DeleteFile> previous = current.getOrDefault(path, List.of());
                return previous.isEmpty() ? null : loader.loadPositionDeletes(previous, path);
              });
      try (writer) {
        for (Map.Entry<DataFile, LongPredicate> e : deletes.entrySet()) {
          DataFile file = e.getKey();
          PartitionSpec spec = table.specs().get(file.specId());
          for (long p = 0; p < file.recordCount(); p++) {
            if (e.getValue().test(p)) {
              writer.delete(file.location(), p, spec, file.partition());
            }
          }
        }
      }
      DeleteWriteResult result = writer.result();
      // validated from the current snapshot: by default a row delta validates against all of the
      // table's history, and takes the DV it replaces for a concurrently added one
      RowDelta delta =
          table.newRowDelta().validateFromSnapshot(table.currentSnapshot().snapshotId());
      result.rewrittenDeleteFiles().forEach(delta::removeDeletes);
      result.deleteFiles().forEach(delta::addDeletes);
      commit(delta);
    }

    private GenericFileWriterFactory writers() {
      return new GenericFileWriterFactory.Builder(table).build();
    }

    /** Commits, then waits for the clock to pass the commit time, so no two commits share one. */
    void commit(SnapshotUpdate<?> update) {
      update.commit();
      long committed = table.currentSnapshot().timestampMillis();
      while (System.currentTimeMillis() <= committed) {
        Thread.onSpinWait();
      }
    }
  }
}
