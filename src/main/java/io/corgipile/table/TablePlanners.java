package io.corgipile.table;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;

/**
 * Recognises a table folder and gives its format's {@link SnapshotPlanner}. The planners are loaded
 * by name, so that this class, and so the scan planning that calls it, loads without any table
 * format's library; a table read without its format's library fails here, with what to add.
 */
public final class TablePlanners {
  /** The folder that makes a folder a Delta table. */
  public static final String DELTA_LOG = "_delta_log";

  /** The libraries' versions and Maven coordinates, the pom's: filled in by the build. */
  private static final Properties LIBRARIES = libraries("libraries.properties");

  /**
   * The Delta Kernel version this build reads through: the planner uses some of Kernel's internal
   * classes, which change between versions.
   */
  static final String DELTA_KERNEL_VERSION = LIBRARIES.getProperty("delta.version");

  /**
   * The Maven coordinates a user adds for Delta tables, of the pom's {@code delta.version}: both
   * jars.
   */
  public static final String DELTA_PACKAGES = LIBRARIES.getProperty("delta.packages");

  /** Kernel's class that holds its version. */
  private static final String DELTA_KERNEL_META = "io.delta.kernel.Meta";

  static final String DELTA_PLANNER = "io.corgipile.table.delta.DeltaSnapshotPlanner";

  /** A class of Delta Kernel's API jar and one of its defaults jar: both are needed. */
  static final String[] DELTA_CLASSES = {
    "io.delta.kernel.Table", "io.delta.kernel.defaults.engine.DefaultEngine"
  };

  /** The folder of an Iceberg table's metadata files. */
  public static final String ICEBERG_METADATA = "metadata";

  /** The file in which a table of Iceberg's Hadoop catalog names its current metadata version. */
  public static final String ICEBERG_VERSION_HINT = "version-hint.text";

  /** How an Iceberg metadata file's name ends. */
  public static final String ICEBERG_METADATA_FILE = ".metadata.json";

  /** The Iceberg version this build reads through, the pom's {@code iceberg.version}. */
  static final String ICEBERG_VERSION = LIBRARIES.getProperty("iceberg.version");

  /** The Maven coordinates a user adds for Iceberg tables: the API, its readers, its Parquet. */
  public static final String ICEBERG_PACKAGES = LIBRARIES.getProperty("iceberg.packages");

  static final String ICEBERG_PLANNER = "io.corgipile.table.iceberg.IcebergSnapshotPlanner";

  /**
   * Iceberg's Spark catalogs, as {@code spark.sql.catalog.<name>} names them: a catalog of one of
   * these holds Iceberg tables, which are read by name through Iceberg's Java catalog its settings
   * describe ({@code CatalogUtil.buildIcebergCatalog}), as Iceberg's catalog would build it.
   */
  public static final List<String> ICEBERG_SPARK_CATALOGS =
      List.of(
          "org.apache.iceberg.spark.SparkCatalog", "org.apache.iceberg.spark.SparkSessionCatalog");

  /**
   * A class of each Iceberg jar the planner needs: core, data (its delete filter), Parquet (its
   * generic reader); the format model registry came with Iceberg 1.11.
   */
  static final String[] ICEBERG_CLASSES = {
    "org.apache.iceberg.hadoop.HadoopTables",
    "org.apache.iceberg.formats.FormatModelRegistry",
    "org.apache.iceberg.data.GenericDeleteFilter",
    "org.apache.iceberg.parquet.Parquet"
  };

  private TablePlanners() {}

  private static Properties libraries(String resource) {
    Properties properties = new Properties();
    try (InputStream in = TablePlanners.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("Cannot find " + resource + " beside TablePlanners");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + resource + ": " + e.getMessage(), e);
    }
    return properties;
  }

  /**
   * The format of the table whose root (or, for Iceberg, whose metadata file) {@code path} is, or
   * null when it is none: a folder with a {@code _delta_log} folder is a Delta table; a folder
   * whose {@code metadata} folder holds Iceberg metadata files, or such a file itself, an Iceberg
   * table. A path the file system cannot look under is no table, as for {@link #isDeltaTable}.
   */
  public static TableFormat formatOf(Path path, Configuration conf) {
    if (isDeltaTable(path, conf)) {
      return TableFormat.DELTA;
    }
    if (path.getName().endsWith(ICEBERG_METADATA_FILE)) {
      return TableFormat.ICEBERG;
    }
    Path metadata = new Path(path, ICEBERG_METADATA);
    try {
      FileStatus[] files = metadata.getFileSystem(conf).listStatus(metadata);
      return Arrays.stream(files)
              .map(f -> f.getPath().getName())
              .anyMatch(n -> n.equals(ICEBERG_VERSION_HINT) || n.endsWith(ICEBERG_METADATA_FILE))
          ? TableFormat.ICEBERG
          : null;
    } catch (FileNotFoundException | ParentNotDirectoryException | AccessControlException e) {
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot tell whether " + path + " is an Iceberg table: " + e.getMessage(), e);
    }
  }

  /** The planner of Iceberg tables named through a catalog. */
  public static CatalogPlanner icebergCatalogs(Configuration conf) {
    return (CatalogPlanner) iceberg(conf);
  }

  /** The planner of {@code format}'s tables. */
  public static SnapshotPlanner planner(TableFormat format, Configuration conf) {
    return format == TableFormat.DELTA ? delta(conf) : iceberg(conf);
  }

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
    requireClasses(DELTA_CLASSES, TablePlanners::missingDelta, loader);
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
    return construct(DELTA_PLANNER, "Delta Kernel", TablePlanners::missingDelta, conf, loader);
  }

  /**
   * The Iceberg planner, its classes loaded from {@code loader}.
   *
   * @throws TableReadException when Iceberg's jars are not on the class path
   */
  static SnapshotPlanner iceberg(Configuration conf, ClassLoader loader) {
    requireClasses(ICEBERG_CLASSES, TablePlanners::missingIceberg, loader);
    return construct(ICEBERG_PLANNER, "Iceberg", TablePlanners::missingIceberg, conf, loader);
  }

  /**
   * @throws TableReadException naming the first of {@code classes} {@code loader} lacks
   */
  private static void requireClasses(
      String[] classes, Function<String, String> missing, ClassLoader loader) {
    for (String name : classes) {
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | NoClassDefFoundError e) {
        throw new TableReadException(missing.apply(name), e);
      }
    }
  }

  /** A planner of the class {@code planner}, made with {@code conf}. */
  private static SnapshotPlanner construct(
      String planner,
      String library,
      Function<String, String> missing,
      Configuration conf,
      ClassLoader loader) {
    try {
      return (SnapshotPlanner)
          Class.forName(planner, true, loader)
              .getConstructor(Configuration.class)
              .newInstance(conf);
    } catch (InvocationTargetException e) {
      throw new TableReadException(library + " failed to start: " + e.getCause(), e.getCause());
    } catch (ClassNotFoundException | NoClassDefFoundError e) {
      throw new TableReadException(missing.apply(planner), e);
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new TableReadException(library + " failed to start: " + e, e);
    }
  }

  private static SnapshotPlanner iceberg(Configuration conf) {
    return iceberg(conf, TablePlanners.class.getClassLoader());
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

  static String missingIceberg(String missingClass) {
    return "this is an Apache Iceberg table (it has a "
        + ICEBERG_METADATA
        + " folder of Iceberg metadata files, or its catalog is Iceberg's), and reading one needs"
        + " Iceberg's Java API "
        + ICEBERG_VERSION
        + ", which is not on the class path ("
        + missingClass
        + " is missing): add spark-submit --packages "
        + ICEBERG_PACKAGES
        + " (or set spark.jars.packages to it); its files are not read as plain Parquet, as"
        + " that would return removed files and deleted rows";
  }
}
