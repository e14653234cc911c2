package io.corgipile.table;

/** Lists a table snapshot's live data files and their deletes, through the format's own library. */
public interface SnapshotPlanner {
  /**
   * The snapshot of the table at {@code tablePath} that {@code asOf} names.
   *
   * @throws TableReadException when the table or the version cannot be read
   */
  TableSnapshot plan(String tablePath, AsOf asOf);
}
