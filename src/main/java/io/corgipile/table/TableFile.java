package io.corgipile.table;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One live data file of a table snapshot: its absolute path, its size, its partition values and the
 * positions of its deleted rows.
 *
 * <p>Partition values are keyed by the table's (logical) column names and are the log's strings, as
 * the format serialises them (a null value is a null string); turning them into typed columns is
 * the reader's. Deleted positions are 0-based row indexes in the file, ascending and distinct: the
 * rows a Delta deletion vector or an Iceberg position delete removes.
 */
public final class TableFile implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final long[] NONE = new long[0];

  private final String path;
  private final long sizeInBytes;
  private final Map<String, String> partitionValues;
  private final long[] deletedPositions;

  /**
   * @param deletedPositions ascending, distinct, non-negative row positions (copied and checked)
   */
  public TableFile(
      String path, long sizeInBytes, Map<String, String> partitionValues, long[] deletedPositions) {
    this.path = Objects.requireNonNull(path, "path");
    this.sizeInBytes = sizeInBytes;
    this.partitionValues =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(partitionValues)));
    this.deletedPositions =
        deletedPositions == null || deletedPositions.length == 0 ? NONE : deletedPositions.clone();
    for (int i = 0; i < this.deletedPositions.length; i++) {
      if (this.deletedPositions[i] < 0
          || (i > 0 && this.deletedPositions[i] <= this.deletedPositions[i - 1])) {
        throw new IllegalArgumentException(
            "deleted positions of " + path + " are not ascending, distinct and non-negative");
      }
    }
  }

  /** The file's absolute path (a URI string, as Hadoop's {@code Path} takes it). */
  public String path() {
    return path;
  }

  public long sizeInBytes() {
    return sizeInBytes;
  }

  /**
   * Partition column (logical name) to the log's value string; empty for an unpartitioned table.
   */
  public Map<String, String> partitionValues() {
    return partitionValues;
  }

  /** The deleted rows' positions in the file, ascending; a copy. */
  public long[] deletedPositions() {
    return deletedPositions.clone();
  }

  public int deletedCount() {
    return deletedPositions.length;
  }

  /** Whether the row at {@code position} in the file is deleted. */
  public boolean isDeleted(long position) {
    return Arrays.binarySearch(deletedPositions, position) >= 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableFile f
        && path.equals(f.path)
        && sizeInBytes == f.sizeInBytes
        && partitionValues.equals(f.partitionValues)
        && Arrays.equals(deletedPositions, f.deletedPositions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(path, sizeInBytes, partitionValues, Arrays.hashCode(deletedPositions));
  }

  @Override
  public String toString() {
    return path
        + " ("
        + sizeInBytes
        + " B, "
        + partitionValues
        + ", "
        + deletedCount()
        + " deleted)";
  }
}
