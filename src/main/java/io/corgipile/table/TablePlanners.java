package io.corgipile.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Recognises a table folder and gives its format's {@link SnapshotPlanner}. The planners are loaded
 * by name, so that this class, and so the scan planning that calls it, loads without any table
 * format's library; a Delta table read without Delta Kernel fails here, with what to add.
 */
public final class TablePlanners {
  /** The folder that makes a folder a Delta table. */
  public static final String DELTA_LOG = "_delta_log";

  /**
   * The Maven coordinates a user adds for Delta tables, the pom's {@code delta.version}: both jars,
   * as {@code delta-kernel-defaults} does not depend on {@code delta-kernel-api}.
   */
  public static final String DELTA_PACKAGES =
      "io.delta:delta-kernel-api:4.3.0,io.delta:delta-kernel-defaults:4.3.0";

  static final String DELTA_PLANNER = "io.corgipile.table.delta.DeltaSnapshotPlanner";

  /** A class of Delta Kernel's API jar and one of its defaults jar: both are needed. */
  static final String[] DELTA_CLASSES = {
    "io.delta.kernel.Table", "io.delta.kernel.defaults.engine.DefaultEngine"
  };

  private TablePlanners() {}

  /** Whether {@code path} is a Delta table's root: a folder with a {@code _delta_log} folder. */
  public static boolean isDeltaTable(String path, Configuration conf) {
    Path log = new Path(new Path(path), DELTA_LOG);
    try {
      FileSystem fs = log.getFileSystem(conf);
      return fs.getFileStatus(log).isDirectory();
    } catch (java.io.FileNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look for " + log, e);
    }
  }

  /** The Delta planner, reading through Delta Kernel with {@code conf}. */
  public static SnapshotPlanner delta(Configuration conf) {
    return delta(conf, TablePlanners.class.getClassLoader());
  }

  /**
   * The Delta planner, its classes loaded from {@code loader}.
   *
   * @throws TableReadException when Delta Kernel is not on the class path
   */
  static SnapshotPlanner delta(Configuration conf, ClassLoader loader) {
    for (String name : DELTA_CLASSES) {
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        throw new TableReadException(missingDelta(name), e);
      }
    }
    try {
      return (SnapshotPlanner)
          Class.forName(DELTA_PLANNER, true, loader)
              .getConstructor(Configuration.class)
              .newInstance(conf);
    } catch (InvocationTargetException e) {
      throw new TableReadException("cannot start Delta Kernel: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new TableReadException(missingDelta(DELTA_PLANNER), e);
    }
  }

  static String missingDelta(String missingClass) {
    return "this is a Delta Lake table (it has a "
        + DELTA_LOG
        + " folder), and reading one needs Delta Kernel, which is not on the class path ("
        + missingClass
        + " is missing): add spark-submit --packages "
        + DELTA_PACKAGES
        + " (or set spark.jars.packages to it); its files are not read as plain Parquet, as"
        + " that would return removed files and deleted rows";
  }
}
