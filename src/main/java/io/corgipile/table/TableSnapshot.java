package io.corgipile.table;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a table's snapshot is to the scan planning: the snapshot's version, the table's partition
 * columns and its live data files with their deletes.
 *
 * @param tablePath the table's root, as the format's library resolved it
 * @param version the snapshot's version (a Delta commit version; an Iceberg snapshot id), or {@link
 *     #NO_VERSION} for an Iceberg table that has no snapshot yet
 * @param schemaJson the table's schema at this snapshot as Spark's JSON form of a {@code
 *     StructType} ({@code DataType.fromJson}), logical names, without the format's own field
 *     metadata (column mapping ids and physical names): the schema the format's Spark reader gives
 * @param fileSchemaJson the same schema as the data files name its columns, field for field: under
 *     column mapping each (nested) field's physical name, and its Parquet field id ({@code
 *     parquet.field.id}) where the files are matched by id, and then, where the table says how to
 *     match files without field ids by name (Iceberg's name mapping), the names such a file may
 *     give the field ({@link #MAPPED_NAMES}); {@code schemaJson} otherwise
 * @param partitionColumns the partition columns' logical names, in the table's order
 * @param readerFeatures the format's features in force that a reader must honour (Delta's reader
 *     and reader-writer table features, implicit ones of an older protocol included; column mapping
 *     only when a mapping mode is set)
 * @param files the live data files, in the order the log lists them
 */
public record TableSnapshot(
    String tablePath,
    long version,
    String schemaJson,
    String fileSchemaJson,
    List<String> partitionColumns,
    Set<String> readerFeatures,
    List<TableFile> files)
    implements Serializable {
  /**
   * The field metadata, beside a field's Parquet field id, that lists the names a data file without
   * field ids may give the field (a string array): such a file's columns are matched by them.
   */
  public static final String MAPPED_NAMES = "corgipile.mapped.names";

  /** The version of an Iceberg table without any snapshot: created, never written. */
  public static final long NO_VERSION = -1;

  public TableSnapshot {
    Objects.requireNonNull(tablePath, "tablePath");
    Objects.requireNonNull(schemaJson, "schemaJson");
    Objects.requireNonNull(fileSchemaJson, "fileSchemaJson");
    partitionColumns = List.copyOf(partitionColumns);
    readerFeatures = Set.copyOf(readerFeatures);
    files = List.copyOf(files);
  }

  /** Deleted rows over all files. */
  public long deletedRows() {
    long n = 0;
    for (TableFile f : files) {
      n += f.deletedCount();
    }
    return n;
  }
}
