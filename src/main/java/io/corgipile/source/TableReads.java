package io.corgipile.source;

import io.corgipile.spark.FileListing;
import io.corgipile.spark.ScanSettings;
import io.corgipile.spark.SparkTimestamps;
import io.corgipile.spark.TableListing;
import io.corgipile.table.AsOf;
import io.corgipile.table.CatalogTable;
import io.corgipile.table.SnapshotPlanner;
import io.corgipile.table.TableFormat;
import io.corgipile.table.TablePlanners;
import io.corgipile.table.TableReadException;
import io.corgipile.table.TableSnapshot;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A path that is a table (a Delta table's {@code _delta_log} folder, an Iceberg table's metadata:
 * {@link TableRoots}) is read as the snapshot its format's library plans, never as the Parquet
 * files in its folder, which would bring back removed files and deleted rows: the live files, the
 * table's schema, the deleted rows of each file, at the snapshot the time travel options name; a
 * path inside one is refused. Without the format's library on the class path it fails, saying what
 * to add.
 */
final class TableReads {
  private TableReads() {}

  /**
   * The listing of the table {@code paths} names, or null when no path is a table.
   *
   * @throws IllegalArgumentException on time travel options without a table, or of another format
   *     than the table's, or a table among other paths
   */
  static FileListing listing(
      SparkSession session,
      List<String> paths,
      Map<String, String> options,
      StructType userSchema) {
    Map<String, String> timeTravel = timeTravel(options);
    Configuration conf = ScanSettings.hadoopConf(session, CorgiPileSource.fileOptions(options));
    CatalogTable named = paths.size() == 1 ? CatalogNames.resolve(session, paths.get(0)) : null;
    if (named != null) {
      return snapshotListing(
          session,
          conf,
          TableFormat.ICEBERG,
          named.toString(),
          timeTravel,
          userSchema,
          () -> TablePlanners.icebergCatalogs(conf),
          (planner, asOf) -> planner.plan(named, asOf));
    }
    List<TableRoots.Found> found = TableRoots.of(paths, conf);
    for (TableRoots.Found f : found) {
      if (f.meets() == TableRoots.Meets.INSIDE) {
        throw CorgiPileAnalysisException.raise(
            "Cannot read "
                + f.path()
                + ": it is inside the "
                + f.format().displayName()
                + " table "
                + f.root()
                + ", whose files are read only through its "
                + f.format().logName()
                + "; load "
                + f.root()
                + " (and filter on its partition columns for a part)");
      }
      if (f.meets() == TableRoots.Meets.MATCHES) {
        throw CorgiPileAnalysisException.raise(
            "Cannot read "
                + f.path()
                + ": the glob matches the "
                + f.format().displayName()
                + " table "
                + f.root()
                + " or files inside it, which are read only through the table's "
                + f.format().logName()
                + "; load "
                + f.root()
                + " by its path, alone");
      }
    }
    if (found.isEmpty()) {
      if (!timeTravel.isEmpty()) {
        throw new IllegalArgumentException(
            "Cannot load corgipile table: "
                + String.join(" and ", timeTravel.keySet())
                + " is for Delta and Iceberg tables, and "
                + paths
                + " is none (it has no "
                + TablePlanners.DELTA_LOG
                + " folder, nor Iceberg metadata)");
      }
      return null;
    }
    String table = found.get(0).path();
    TableFormat format = found.get(0).format();
    if (paths.size() > 1) {
      throw new IllegalArgumentException(
          "Cannot load corgipile table: "
              + table
              + " is a "
              + format.displayName()
              + " table, which is read alone, not with other paths "
              + paths);
    }
    return snapshotListing(
        session,
        conf,
        format,
        table,
        timeTravel,
        userSchema,
        () -> TablePlanners.planner(format, conf),
        (planner, asOf) -> planner.plan(table, asOf));
  }

  /**
   * The listing of the snapshot of {@code format}'s table {@code table} (a path or a catalog's
   * name) that the time travel options name, planned by {@code plan} with the format's planner.
   */
  private static <P extends SnapshotPlanner> FileListing snapshotListing(
      SparkSession session,
      Configuration conf,
      TableFormat format,
      String table,
      Map<String, String> timeTravel,
      StructType userSchema,
      Supplier<P> planners,
      BiFunction<P, AsOf, TableSnapshot> plan) {
    String name = format.displayName() + " table " + table;
    String zone = ScanSettings.sessionTimeZone(session);
    AsOf asOf;
    try {
      asOf =
          AsOf.fromOptions(
              format, ownTimeTravel(format, timeTravel, table), timestamps(session, format));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Cannot load corgipile table: " + e.getMessage(), e);
    }
    P planner;
    try {
      planner = planners.get();
    } catch (TableReadException e) {
      throw CorgiPileAnalysisException.raise("Cannot read " + name + ": " + e.getMessage(), e);
    }
    FileListing listing;
    try {
      TableSnapshot snapshot = plan.apply(planner, asOf);
      listing = TableListing.of(snapshot, conf, zone);
    } catch (TableReadException e) {
      throw CorgiPileAnalysisException.raise(e.getMessage(), e);
    } catch (RuntimeException | LinkageError e) {
      // what the format's library and the file system throw: a log, metadata or delete file that
      // cannot be read, a data file gone; a library of another version than this build's
      throw CorgiPileAnalysisException.raise(
          "Cannot read " + name + ": " + BlockPlanner.message(e).lines().findFirst().orElse(""), e);
    }
    if (userSchema != null && !userSchema.equals(listing.schema())) {
      throw CorgiPileAnalysisException.raise(
          "Cannot read "
              + name
              + " with a given schema: the table's own applies, "
              // DDL, which shows NOT NULL, where simpleString would print a schema that differs
              // only in nullability as the given one
              + listing.schema().toDDL());
    }
    return listing;
  }

  /**
   * The time travel options among {@code timeTravel} that are {@code format}'s.
   *
   * @throws IllegalArgumentException when one is another format's
   */
  private static Map<String, String> ownTimeTravel(
      TableFormat format, Map<String, String> timeTravel, String table) {
    List<String> own = format.snapshotOptions();
    for (String option : timeTravel.keySet()) {
      if (own.stream().noneMatch(option::equalsIgnoreCase)) {
        throw new IllegalArgumentException(
            option
                + " is not an option of "
                + format.displayName()
                + " tables, and "
                + table
                + " is one: its time travel options are "
                + String.join(", ", own));
      }
    }
    return timeTravel;
  }

  /**
   * How {@code format}'s Spark reader reads its timestamp option: Delta, as Spark's cast to a
   * timestamp in the session's time zone; Iceberg, as a number of milliseconds.
   */
  private static Function<String, OptionalLong> timestamps(
      SparkSession session, TableFormat format) {
    if (format == TableFormat.ICEBERG) {
      return text -> {
        try {
          return OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      };
    }
    ZoneId sessionZone = ScanSettings.sessionZoneId(session);
    return text -> SparkTimestamps.millis(text, sessionZone);
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
