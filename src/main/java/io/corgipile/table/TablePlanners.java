package io.corgipile.table;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * Recognises a table folder and gives its format's {@link SnapshotPlanner}. The planners are loaded
 * by name, so that this class, and so the scan planning that calls it, loads without any table
 * format's library; a Delta table read without Delta Kernel fails here, with what to add.
 */
public final class TablePlanners {
  /** The folder that makes a folder a Delta table. */
  public static final String DELTA_LOG = "_delta_log";

  /**
   * The Delta Kernel version this build reads through: the planner uses some of Kernel's internal
   * classes, which change between versions.
   */
  static final String DELTA_KERNEL_VERSION = "4.3.0";

  /**
   * The Maven coordinates a user adds for Delta tables, the pom's {@code delta.version}: both jars,
   * as {@code delta-kernel-defaults} does not depend on {@code delta-kernel-api}.
   */
  public static final String DELTA_PACKAGES =
      "io.delta:delta-kernel-api:"
          + DELTA_KERNEL_VERSION
          + ",io.delta:delta-kernel-defaults:"
          + DELTA_KERNEL_VERSION;

  /** Kernel's class that holds its version. */
  private static final String DELTA_KERNEL_META = "io.delta.kernel.Meta";

  static final String DELTA_PLANNER = "io.corgipile.table.delta.DeltaSnapshotPlanner";

  /** A class of Delta Kernel's API jar and one of its defaults jar: both are needed. */
  static final String[] DELTA_CLASSES = {
    "io.delta.kernel.Table", "io.delta.kernel.defaults.engine.DefaultEngine"
  };

  private TablePlanners() {}

  /**
   * Whether {@code path} is a Delta table's root: a folder with a {@code _delta_log} folder. A path
   * the file system cannot look under (a file: HDFS says its child's parent is no directory; a
   * folder the user may not list) is no table root; the Parquet reader then meets it as it would.
   */
  public static boolean isDeltaTable(Path path, Configuration conf) {
    Path log = new Path(path, DELTA_LOG);
    try {
      FileSystem fs = log.getFileSystem(conf);
      return fs.getFileStatus(log).isDirectory();
    } catch (FileNotFoundException | ParentNotDirectoryException | AccessControlException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot tell whether " + path + " is a Delta table: " + e.getMessage(), e);
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
      } catch (ClassNotFoundException | NoClassDefFoundError e) {
        throw new TableReadException(missingDelta(name), e);
      }
    }
    String version = kernelVersion(loader);
    if (!DELTA_KERNEL_VERSION.equals(version)) {
      throw new TableReadException(
          "Delta Kernel "
              + version
              + " is on the class path, and this build reads through Delta Kernel "
              + DELTA_KERNEL_VERSION
              + " (delta-spark brings the Kernel of its own version): use spark-submit --packages "
              + DELTA_PACKAGES);
    }
    try {
      return (SnapshotPlanner)
          Class.forName(DELTA_PLANNER, true, loader)
              .getConstructor(Configuration.class)
              .newInstance(conf);
    } catch (InvocationTargetException e) {
      throw new TableReadException("Delta Kernel failed to start: " + e.getCause(), e.getCause());
    } catch (ClassNotFoundException | NoClassDefFoundError e) {
      throw new TableReadException(missingDelta(DELTA_PLANNER), e);
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new TableReadException("Delta Kernel failed to start: " + e, e);
    }
  }

  /** The version of the Delta Kernel {@code loader} finds, or "of an unknown version". */
  private static String kernelVersion(ClassLoader loader) {
    try {
      return (String)
          Class.forName(DELTA_KERNEL_META, false, loader).getField("KERNEL_VERSION").get(null);
    } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
      return "of an unknown version";
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
