package io.corgipile.source;

import java.io.Serializable;

/**
 * Consecutive rows of one Parquet row group, the unit of the block-level shuffle: the whole row
 * group, or one of the parts {@link BlockPlanner#cut} makes of it.
 *
 * @param file index of the file in the plan's file list
 * @param rowGroup ordinal of the row group in its file's footer
 * @param offset starting position of the row group in the file
 * @param compressedBytes bytes the block's rows occupy on disk, the row group's share by rows
 * @param uncompressedBytes bytes of those rows once decompressed, likewise
 * @param firstRow index of the block's first row in its row group
 * @param rows rows in the block
 * @param groupRows rows in the whole row group
 * @param deleted the block's rows that the table deleted: never read, never counted
 */
record Block(
    int file,
    int rowGroup,
    long offset,
    long compressedBytes,
    long uncompressedBytes,
    long firstRow,
    long rows,
    long groupRows,
    DeletedRows deleted)
    implements Serializable {

  /** The whole row group, less {@code deleted} of its rows. */
  static Block rowGroup(
      int file,
      int rowGroup,
      long offset,
      long compressedBytes,
      long uncompressedBytes,
      long rows,
      DeletedRows deleted) {
    return new Block(
        file, rowGroup, offset, compressedBytes, uncompressedBytes, 0, rows, rows, deleted);
  }

  /** The rows the block yields: its rows less the deleted ones. */
  long liveRows() {
    return rows - deleted.count();
  }

  boolean wholeRowGroup() {
    return rows == groupRows;
  }

  /** The block's share of its row group's rows: 1 for a whole row group. */
  double rowGroupShare() {
    return (double) rows / groupRows;
  }

  /**
   * Rows {@code [from, to)} of this whole row group. The parts' bytes are shares by rows that add
   * up to the row group's.
   */
  Block part(long from, long to) {
    if (!wholeRowGroup() || from < 0 || to <= from || to > rows) {
      throw new IllegalArgumentException("Cannot cut rows [" + from + ", " + to + ") from " + this);
    }
    return new Block(
        file,
        rowGroup,
        offset,
        share(compressedBytes, from, to),
        share(uncompressedBytes, from, to),
        from,
        to - from,
        groupRows,
        deleted.slice(from, to));
  }

  private long share(long bytes, long from, long to) {
    return Math.multiplyExact(bytes, to) / groupRows - Math.multiplyExact(bytes, from) / groupRows;
  }
}
