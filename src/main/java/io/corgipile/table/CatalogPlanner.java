package io.corgipile.table;

/**
 * A {@link SnapshotPlanner} that also reads tables by name, through a catalog the format's library
 * builds from the catalog's Spark settings.
 */
public interface CatalogPlanner extends SnapshotPlanner {
  /**
   * The snapshot of the catalog's table {@code table} that {@code asOf} names.
   *
   * @throws TableReadException when the catalog, the table or the version cannot be read
   */
  TableSnapshot plan(CatalogTable table, AsOf asOf);
}
