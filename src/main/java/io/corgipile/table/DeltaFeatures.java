package io.corgipile.table;

import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a Delta table whose reader features this reader does not honour: reading its Parquet
 * files as they are would return other rows or values than Delta's reader (Delta Kernel refuses
 * only the features Kernel itself lacks, and the rows are read here, not by Kernel).
 */
public final class DeltaFeatures {
  /**
   * Reader features honoured: deleted rows are skipped, Spark reads {@code timestamp_ntz} columns,
   * and Kernel replays v2 checkpoints and ignores the vacuum check.
   */
  static final Set<String> HONOURED =
      Set.of("deletionVectors", "timestampNtz", "v2Checkpoint", "vacuumProtocolCheck");

  /** Delta's name of the column mapping table feature. */
  public static final String COLUMN_MAPPING = "columnMapping";

  private DeltaFeatures() {}

  /**
   * @throws TableReadException when {@code snapshot} uses a reader feature this reader does not
   *     honour
   */
  public static void check(TableSnapshot snapshot) {
    if (snapshot.readerFeatures().contains(COLUMN_MAPPING)) {
      throw new TableReadException(
          cannotRead(snapshot)
              + "it uses column mapping (delta.columnMapping.mode), whose Parquet column names are"
              + " not the table's; column mapping is not supported yet");
    }
    Set<String> unsupported = new TreeSet<>(snapshot.readerFeatures());
    unsupported.removeAll(HONOURED);
    if (!unsupported.isEmpty()) {
      throw new TableReadException(
          cannotRead(snapshot)
              + "it uses the reader features "
              + unsupported
              + ", which this reader does not honour (it honours "
              + new TreeSet<>(HONOURED)
              + ")");
    }
  }

  private static String cannotRead(TableSnapshot snapshot) {
    return "Cannot read Delta table " + snapshot.tablePath() + ": ";
  }
}
