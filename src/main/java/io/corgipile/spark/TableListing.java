package io.corgipile.spark;

import io.corgipile.table.TableFile;
import io.corgipile.table.TableSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Cast$;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/** A table format's snapshot as the scan's {@link FileListing}. */
public final class TableListing {
  private TableListing() {}

  /**
   * The snapshot's live files and schema: the table's columns in its order, the partition values
   * typed from the log's strings as Delta's reader types them (a cast in {@code sessionTimeZone}, a
   * null string a null), and each file's deleted rows.
   */
  public static FileListing of(TableSnapshot snapshot, Configuration conf, String sessionTimeZone) {
    StructType schema = (StructType) DataType.fromJson(snapshot.schemaJson());
    List<StructField> partitions = new ArrayList<>();
    for (String column : snapshot.partitionColumns()) {
      partitions.add(schema.apply(column));
    }
    StructType partitionSchema = new StructType(partitions.toArray(new StructField[0]));
    List<DataFile> files = new ArrayList<>();
    Map<String, long[]> deleted = new HashMap<>();
    for (TableFile file : snapshot.files()) {
      FileStatus status = status(file.path(), conf);
      files.add(
          new DataFile(
              file.path(),
              status.getLen(),
              status.getModificationTime(),
              partitionValues(partitionSchema, file.partitionValues(), sessionTimeZone)));
      if (file.deletedCount() > 0) {
        deleted.put(file.path(), file.deletedPositions());
      }
    }
    files.sort(Comparator.comparing(DataFile::path));
    StructType fileSchema = (StructType) DataType.fromJson(snapshot.fileSchemaJson());
    return new FileListing(schema, fileSchema, partitionSchema, files, deleted);
  }

  private static FileStatus status(String file, Configuration conf) {
    Path path = new Path(file);
    try {
      return path.getFileSystem(conf).getFileStatus(path);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read data file " + file + " of the table's snapshot: " + e.getMessage(), e);
    }
  }

  private static InternalRow partitionValues(
      StructType partitionSchema, Map<String, String> values, String sessionTimeZone) {
    Object[] row = new Object[partitionSchema.size()];
    for (int i = 0; i < row.length; i++) {
      StructField field = partitionSchema.fields()[i];
      Literal value = Literal.create(values.get(field.name()), DataTypes.StringType);
      row[i] =
          Cast$.MODULE$
              .apply(value, field.dataType(), Option.apply(sessionTimeZone), false)
              .eval(null);
    }
    return new GenericInternalRow(row);
  }
}
