package io.corgipile.table.iceberg;

import io.corgipile.table.AsOf;
import io.corgipile.table.CatalogPlanner;
import io.corgipile.table.CatalogTable;
import io.corgipile.table.TableFile;
import io.corgipile.table.TableFormat;
import io.corgipile.table.TablePlanners;
import io.corgipile.table.TableReadException;
import io.corgipile.table.TableSnapshot;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * An Iceberg table's snapshot as Iceberg's Java API plans it: the table from a catalog by name, or
 * {@code HadoopTables.load} (a table folder whose {@code metadata/version-hint.text} names its
 * current metadata, or a metadata file), the snapshot {@link AsOf} names (by id, time, branch or
 * tag), {@code TableScan.planFiles} (the live data files with the delete files that apply to each,
 * by Iceberg's sequence numbers), the schema Iceberg's Spark reader gives, and per file the
 * positions of its deleted rows ({@link DeletedRows}).
 *
 * <p>Loaded by name (public, with a {@link Configuration} constructor) from {@code TablePlanners}.
 */
public final class IcebergSnapshotPlanner implements CatalogPlanner {
  /** A catalog's settings that set Hadoop's, as Iceberg's Spark catalog reads them. */
  private static final String HADOOP_PREFIX = "hadoop.";

  private final Configuration conf;
  private final HadoopTables tables;

  /** A planner reading through Hadoop's file systems of {@code conf}. */
  public IcebergSnapshotPlanner(Configuration conf) {
    this.conf = conf;
    this.tables = new HadoopTables(conf);
  }

  @Override
  public TableSnapshot plan(String tablePath, AsOf asOf) {
    return plan(tablePath, load(tablePath), asOf);
  }

  /**
   * Builds the catalog as Iceberg's Spark catalog builds it from the same settings ({@code type} or
   * {@code catalog-impl}, {@code warehouse}, {@code uri}, ...; {@code hadoop.*} settings override
   * Hadoop's), loads the table, and plans it as a table read by path.
   */
  @Override
  public TableSnapshot plan(CatalogTable named, AsOf asOf) {
    Configuration catalogConf = new Configuration(conf);
    named
        .properties()
        .forEach(
            (key, value) -> {
              if (key.startsWith(HADOOP_PREFIX)) {
                catalogConf.set(key.substring(HADOOP_PREFIX.length()), value);
              }
            });
    Catalog catalog;
    try {
      catalog = CatalogUtil.buildIcebergCatalog(named.catalog(), named.properties(), catalogConf);
    } catch (RuntimeException | LinkageError e) {
      throw new TableReadException(
          "Cannot read Iceberg table "
              + named
              + ": Iceberg cannot build the catalog "
              + named.catalog()
              + " from its settings (spark.sql.catalog."
              + named.catalog()
              + ".*): "
              + e,
          e);
    }
    try {
      Table table;
      try {
        table =
            catalog.loadTable(
                TableIdentifier.of(
                    Namespace.of(named.namespace().toArray(String[]::new)), named.name()));
      } catch (NoSuchTableException e) {
        throw new TableReadException(
            "Cannot read Iceberg table "
                + named
                + ": the catalog "
                + named.catalog()
                + " has no such table",
            e);
      }
      return plan(named.toString(), table, asOf);
    } finally {
      if (catalog instanceof Closeable closeable) {
        try {
          closeable.close();
        } catch (IOException e) {
          // the table is planned; a catalog's connection that fails to close loses nothing
        }
      }
    }
  }

  /** {@code table}'s snapshot that {@code asOf} names; {@code tablePath} names it in messages. */
  private TableSnapshot plan(String tablePath, Table table, AsOf asOf) {
    Snapshot snapshot = snapshot(tablePath, table, asOf);
    Schema schema = schema(table, snapshot, asOf);
    List<TableFile> files = new ArrayList<>();
    if (snapshot != null) {
      try (CloseableIterable<FileScanTask> tasks =
          table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
        for (FileScanTask task : tasks) {
          files.add(file(tablePath, table, task));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot list the files of Iceberg table " + tablePath + ": " + e.getMessage(), e);
      }
    }
    return new TableSnapshot(
        table.location(),
        snapshot == null ? TableSnapshot.NO_VERSION : snapshot.snapshotId(),
        SparkSchemas.table(tablePath, schema).json(),
        SparkSchemas.files(tablePath, schema, nameMapping(table)).json(),
        List.of(),
        Set.of(),
        files);
  }

  private Table load(String tablePath) {
    try {
      return tables.load(tablePath);
    } catch (NoSuchTableException e) {
      String last = lastMetadataFile(tablePath);
      throw new TableReadException(
          "Cannot read Iceberg table "
              + tablePath
              + ": "
              + (last == null
                  ? e.getMessage()
                  : "its metadata folder has no "
                      + TablePlanners.ICEBERG_VERSION_HINT
                      + " to name its current metadata file, which only its catalog knows: load"
                      + " the current metadata file (of those here, the last by name is "
                      + last
                      + ")"),
          e);
    }
  }

  /**
   * The last by name of the table folder's metadata files, or null: a table of a catalog other than
   * Hadoop's names them {@code <version>-<uuid>.metadata.json}, with no version hint.
   */
  private String lastMetadataFile(String tablePath) {
    Path metadata = new Path(tablePath, TablePlanners.ICEBERG_METADATA);
    try {
      FileStatus[] files = metadata.getFileSystem(conf).listStatus(metadata);
      return Arrays.stream(files)
          .map(f -> f.getPath())
          .filter(p -> p.getName().endsWith(TablePlanners.ICEBERG_METADATA_FILE))
          .map(p -> Path.getPathWithoutSchemeAndAuthority(p).toString())
          .max(Comparator.naturalOrder())
          .orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** The table's name mapping, by which files without field ids are read; null without one. */
  private static NameMapping nameMapping(Table table) {
    String json = table.properties().get(TableProperties.DEFAULT_NAME_MAPPING);
    return json == null ? null : NameMappingParser.fromJson(json);
  }

  /** The snapshot {@code asOf} names; null for the current one of a table without any. */
  private static Snapshot snapshot(String tablePath, Table table, AsOf asOf) {
    if (asOf.version().isPresent()) {
      long id = asOf.version().getAsLong();
      Snapshot snapshot = table.snapshot(id);
      if (snapshot == null) {
        throw notFound(tablePath, asOf, "the table has no snapshot of that id");
      }
      return snapshot;
    }
    if (asOf.timestampMillis().isPresent()) {
      Long id = SnapshotUtil.nullableSnapshotIdAsOfTime(table, asOf.timestampMillis().getAsLong());
      if (id == null) {
        throw notFound(tablePath, asOf, "the table's first snapshot is later");
      }
      return table.snapshot(id);
    }
    Optional<String> ref = asOf.branch().or(asOf::tag);
    if (ref.isPresent()) {
      SnapshotRef found = table.refs().get(ref.get());
      if (found == null || found.isBranch() != asOf.branch().isPresent()) {
        throw notFound(tablePath, asOf, "the table has " + refs(table));
      }
      return table.snapshot(found.snapshotId());
    }
    return table.currentSnapshot();
  }

  /** The table's branches and tags, for a message: "branches main and audit, and tag v1". */
  private static String refs(Table table) {
    List<String> branches = new ArrayList<>();
    List<String> tags = new ArrayList<>();
    table.refs().forEach((name, ref) -> (ref.isBranch() ? branches : tags).add(name));
    branches.sort(Comparator.naturalOrder());
    tags.sort(Comparator.naturalOrder());
    return named("branch", "branches", branches) + ", and " + named("tag", "tags", tags);
  }

  private static String named(String one, String many, List<String> names) {
    return switch (names.size()) {
      case 0 -> "no " + one;
      case 1 -> one + " " + names.get(0);
      default -> many + " " + String.join(", ", names);
    };
  }

  /**
   * The schema a read of {@code snapshot} gives, as Iceberg's Spark reader gives it: the table's
   * own for the current snapshot and a branch's head (a column added since the last commit reads as
   * nulls), the snapshot's for a snapshot id, a time or a tag.
   */
  private static Schema schema(Table table, Snapshot snapshot, AsOf asOf) {
    if (snapshot == null || asOf.isLatest() || asOf.branch().isPresent()) {
      return table.schema();
    }
    return SnapshotUtil.schemaFor(table, snapshot.snapshotId());
  }

  private static TableReadException notFound(String tablePath, AsOf asOf, String reason) {
    return new TableReadException(
        "Cannot read Iceberg table "
            + tablePath
            + " at "
            + asOf.describe(TableFormat.ICEBERG)
            + ": "
            + reason);
  }

  private static TableFile file(String tablePath, Table table, FileScanTask task) {
    if (task.file().format() != FileFormat.PARQUET) {
      throw new TableReadException(
          "Cannot read Iceberg table "
              + tablePath
              + ": its data file "
              + task.file().location()
              + " is "
              + task.file().format()
              + ", and this reader reads Parquet data files only");
    }
    return new TableFile(
        task.file().location(),
        task.file().fileSizeInBytes(),
        Map.of(),
        DeletedRows.of(table, task));
  }
}
