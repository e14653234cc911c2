package io.corgipile.spark;

import io.corgipile.table.TableSnapshot;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The columns asked of a data file without Parquet field ids in a scan that matches columns by id:
 * an Iceberg table's file added without ids (as {@code add_files} adds them), which Iceberg's
 * readers match through the table's name mapping. Each field is renamed to the first of its mapped
 * names ({@link TableSnapshot#MAPPED_NAMES}) that the file has, its id dropped, so that Spark's
 * Parquet reader matches it by name; a field none of whose names the file has reads as null, as
 * under id matching. Fields of structs are mapped too; inside arrays and maps they keep the table's
 * names.
 */
final class NameMappedColumns {
  /** What a field none of whose names the file has is asked as: a name no file column has. */
  private static final String ABSENT = "__corgipile_absent_";

  private NameMappedColumns() {}

  /** Whether a file of schema {@code file} is read by name: asked by id, it has no field ids. */
  static boolean needed(StructType requested, GroupType file) {
    return ParquetUtils.hasFieldIds(requested) && !hasIds(file);
  }

  /**
   * {@code requested} as a file of schema {@code file} names its columns.
   *
   * @throws IllegalArgumentException when a field has no mapped names: the table has no mapping
   */
  static StructType byName(StructType requested, GroupType file) {
    StructField[] fields = new StructField[requested.size()];
    for (int i = 0; i < fields.length; i++) {
      StructField f = requested.fields()[i];
      if (!f.metadata().contains(TableSnapshot.MAPPED_NAMES)) {
        throw new IllegalArgumentException(
            "it has no Parquet field ids, by which the table's columns are matched, and the table"
                + " has no name mapping (Iceberg's schema.name-mapping.default) to match them by"
                + " name");
      }
      String name = ABSENT + ParquetUtils.getFieldId(f);
      for (String mapped : f.metadata().getStringArray(TableSnapshot.MAPPED_NAMES)) {
        if (file.containsField(mapped)) {
          name = mapped;
          break;
        }
      }
      DataType type = f.dataType();
      if (type instanceof StructType struct && file.containsField(name)) {
        Type column = file.getType(name);
        if (!column.isPrimitive()) {
          type = byName(struct, column.asGroupType());
        }
      }
      Metadata metadata =
          new MetadataBuilder()
              .withMetadata(f.metadata())
              .remove(ParquetUtils.FIELD_ID_METADATA_KEY())
              .remove(TableSnapshot.MAPPED_NAMES)
              .build();
      fields[i] = new StructField(name, type, f.nullable(), metadata);
    }
    return new StructType(fields);
  }

  private static boolean hasIds(GroupType group) {
    for (Type t : group.getFields()) {
      if (t.getId() != null || (!t.isPrimitive() && hasIds(t.asGroupType()))) {
        return true;
      }
    }
    return false;
  }
}
