package io.corgipile.table;

import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a Delta table whose reader features this reader does not honour: reading its Parquet
 * files as they are would return other rows or values than Delta's reader (Delta Kernel refuses
 * only the features Kernel itself lacks, and the rows are read here, not by Kernel).
 */
public final class DeltaFeatures {
  /** Delta's name of the column mapping table feature. */
  public static final String COLUMN_MAPPING = "columnMapping";

  /**
   * Reader features honoured: columns are read by the names (or ids) the table maps them to,
   * deleted rows are skipped, Spark reads {@code timestamp_ntz} columns, and Kernel replays v2
   * checkpoints and ignores the vacuum check.
   */
  static final Set<String> HONOURED =
      Set.of(
          COLUMN_MAPPING, "deletionVectors", "timestampNtz", "v2Checkpoint", "vacuumProtocolCheck");

  private DeltaFeatures() {}

  /**
   * Checked by the planner once the snapshot's protocol is known, before its files are listed.
   *
   * @throws TableReadException when the table at {@code tablePath} uses a reader feature of {@code
   *     readerFeatures} this reader does not honour
   */
  public static void check(String tablePath, Set<String> readerFeatures) {
    Set<String> unsupported = new TreeSet<>(readerFeatures);
    unsupported.removeAll(HONOURED);
    if (!unsupported.isEmpty()) {
      throw new TableReadException(
          "Cannot read Delta table "
              + tablePath
              + ": it uses the reader features "
              + unsupported
              + ", which this reader does not honour (it honours "
              + new TreeSet<>(HONOURED)
              + ")");
    }
  }
}
