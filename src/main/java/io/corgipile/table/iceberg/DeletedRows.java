package io.corgipile.table.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The positions of a data file's deleted rows, by Iceberg's own delete filter (iceberg-data's
 * {@code GenericDeleteFilter}, which Iceberg's generic reader applies): the rows its position
 * delete files and deletion vectors name, and the rows its equality deletes match.
 *
 * <p>An equality delete names rows by their values, not their positions: the filter's key columns
 * of the data file are read (with each row's position) to find the rows it matches, a pass over
 * those columns of each data file an equality delete applies to, at planning. The scan then skips
 * the positions as it skips a position delete's.
 */
final class DeletedRows {
  /** Only the row position is asked for: the filter adds the columns its equality deletes need. */
  private static final Schema POSITION = new Schema(MetadataColumns.ROW_POSITION);

  private DeletedRows() {}

  /** Ascending, distinct positions; null when none of the file's rows is deleted. */
  static long[] of(Table table, FileScanTask task) {
    if (task.deletes().isEmpty()) {
      return null;
    }
    GenericDeleteFilter filter =
        new GenericDeleteFilter(table.io(), task, table.schema(), POSITION);
    LongStream.Builder deleted = LongStream.builder();
    PositionDeleteIndex index = filter.deletedRowPositions();
    if (index != null) {
      index.forEach(deleted::add);
    }
    if (filter.hasEqDeletes()) {
      addEqualityDeleted(table, task, filter, deleted);
    }
    long[] positions = deleted.build().sorted().distinct().toArray();
    return positions.length == 0 ? null : positions;
  }

  private static void addEqualityDeleted(
      Table table, FileScanTask task, GenericDeleteFilter filter, LongStream.Builder deleted) {
    Schema read = filter.requiredSchema();
    Predicate<Record> live = filter.eqDeletedRowFilter();
    try (CloseableIterable<Record> rows =
        FormatModelRegistry.<Record, Object>readBuilder(
                FileFormat.PARQUET, Record.class, table.io().newInputFile(task.file()))
            .project(read)
            .build()) {
      for (Record row : rows) {
        if (!live.test(row)) {
          deleted.add((Long) row.getField(MetadataColumns.ROW_POSITION.name()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read the equality delete keys of " + task.file().location(), e);
    }
  }
}
