package io.corgipile.source;

import io.corgipile.spark.FileListing;
import io.corgipile.spark.ScanSettings;
import io.corgipile.spark.SparkTimestamps;
import io.corgipile.spark.TableListing;
import io.corgipile.table.AsOf;
import io.corgipile.table.DeltaFeatures;
import io.corgipile.table.SnapshotPlanner;
import io.corgipile.table.TablePlanners;
import io.corgipile.table.TableReadException;
import io.corgipile.table.TableSnapshot;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A path that is a Delta table (a {@code _delta_log} folder) is read as the snapshot Delta Kernel
 * plans, never as the Parquet files in its folder, which would bring back removed files and deleted
 * rows: the live files, the table's schema, the deleted rows of each file, at the version the time
 * travel options name; a path inside one ({@link DeltaRoots}) is refused. Without Delta Kernel on
 * the class path it fails, saying what to add.
 */
final class DeltaTables {
  private DeltaTables() {}

  /**
   * The listing of the Delta table {@code paths} names, or null when no path is a Delta table.
   *
   * @throws IllegalArgumentException on time travel options without a Delta table, or a Delta table
   *     among other paths
   */
  static FileListing listing(
      SparkSession session,
      List<String> paths,
      Map<String, String> options,
      StructType userSchema) {
    Map<String, String> timeTravel = timeTravel(options);
    Configuration conf = ScanSettings.hadoopConf(session, CorgiPileSource.fileOptions(options));
    List<DeltaRoots.Found> found = DeltaRoots.of(paths, conf);
    for (DeltaRoots.Found f : found) {
      if (f.meets() == DeltaRoots.Meets.INSIDE) {
        throw CorgiPileAnalysisException.raise(
            "Cannot read "
                + f.path()
                + ": it is inside the Delta table "
                + f.root()
                + ", whose files are read only through its log; load "
                + f.root()
                + " (and filter on its partition columns for a part)");
      }
      if (f.meets() == DeltaRoots.Meets.MATCHES) {
        throw CorgiPileAnalysisException.raise(
            "Cannot read "
                + f.path()
                + ": the glob matches the Delta table "
                + f.root()
                + " or files inside it, which are read only through the table's log; load "
                + f.root()
                + " by its path, alone");
      }
    }
    if (found.isEmpty()) {
      if (!timeTravel.isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot load corgipile table: "
                + String.join(" and ", timeTravel.keySet())
                + " is for Delta tables, and "
                + paths
                + " is none (it has no "
                + TablePlanners.DELTA_LOG
                + " folder)");
      }
      return null;
    }
    String table = found.get(0).path();
    if (paths.size() > 1) {
      throw new IllegalArgumentException(
          "Cannot load corgipile table: "
              + table
              + " is a Delta table, which is read alone, not with other paths "
              + paths);
    }
    String zone = ScanSettings.sessionTimeZone(session);
    AsOf asOf;
    try {
      ZoneId sessionZone = ScanSettings.sessionZoneId(session);
      asOf = AsOf.fromOptions(timeTravel, text -> SparkTimestamps.millis(text, sessionZone));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot load corgipile table: " + e.getMessage(), e);
    }
    SnapshotPlanner planner;
    try {
      planner = TablePlanners.delta(conf);
    } catch (TableReadException e) {
      throw CorgiPileAnalysisException.raise(
          "Cannot read Delta table " + table + ": " + e.getMessage(), e);
    }
    FileListing listing;
    try {
      TableSnapshot snapshot = planner.plan(table, asOf);
      DeltaFeatures.check(snapshot);
      listing = TableListing.of(snapshot, conf, zone);
    } catch (TableReadException e) {
      throw CorgiPileAnalysisException.raise(e.getMessage(), e);
    } catch (RuntimeException | LinkageError e) {
      // what Kernel's engine and the file system throw: a log or deletion vector file that cannot
      // be read, a data file gone; a Kernel of another version than this build's
      throw CorgiPileAnalysisException.raise(
          "Cannot read Delta table "
              + table
              + ": "
              + BlockPlanner.message(e).lines().findFirst().orElse(""),
          e);
    }
    if (userSchema != null && !userSchema.equals(listing.schema())) {
      throw CorgiPileAnalysisException.raise(
          "Cannot read Delta table "
              + table
              + " with a given schema: the table's own applies, "
              // DDL, which shows NOT NULL, where simpleString would print a schema that differs
              // only in nullability as the given one
              + listing.schema().toDDL());
    }
    return listing;
  }

  /** The time travel options of the read (never a session's: {@link UnknownOptions}). */
  private static Map<String, String> timeTravel(Map<String, String> options) {
    Map<String, String> chosen = new HashMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (ReadOptions.TIME_TRAVEL.stream().anyMatch(e.getKey()::equalsIgnoreCase)) {
        chosen.put(e.getKey(), e.getValue());
      }
    }
    return chosen;
  }
}
