package io.corgipile.table.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corgipile.table.AsOf;
import io.corgipile.table.DeltaFeatures;
import io.corgipile.table.SnapshotPlanner;
import io.corgipile.table.TableFile;
import io.corgipile.table.TableFormat;
import io.corgipile.table.TableReadException;
import io.corgipile.table.TableSnapshot;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.deletionvectors.DeletionVectorUtils;
import io.delta.kernel.internal.deletionvectors.RoaringBitmapArray;
import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.types.StructField;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;

/**
 * A Delta table's snapshot as Delta Kernel replays its log: {@code Table.forPath}, the snapshot
 * {@link AsOf} names, {@code Scan.getScanFiles} (the live {@code add} actions after log replay,
 * checkpoints included), and per file its partition values and its deletion vector, loaded into the
 * deleted rows' positions.
 *
 * <p>Loaded by name (public, with a {@link Configuration} constructor) from {@code TablePlanners}.
 */
public final class DeltaSnapshotPlanner implements SnapshotPlanner {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Engine engine;

  /**
   * A planner reading through Kernel's default engine, with Hadoop's file systems of {@code conf}.
   */
  public DeltaSnapshotPlanner(Configuration conf) {
    this.engine = DefaultEngine.create(conf);
  }

  @Override
  public TableSnapshot plan(String tablePath, AsOf asOf) {
    Snapshot snapshot = snapshot(tablePath, asOf);
    String root = snapshot.getPath();
    // refused before the log's file actions are replayed, which is most of planning's work
    Set<String> readerFeatures = readerFeatures(snapshot);
    DeltaFeatures.check(root, readerFeatures);
    Map<String, String> logicalNames = partitionLogicalNames(snapshot);
    Scan scan = snapshot.getScanBuilder().build();
    List<TableFile> files = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            files.add(file(root, rows.next(), logicalNames));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of Delta table " + tablePath, e);
    } catch (KernelException e) {
      throw unreadable(tablePath, asOf, e);
    }
    String schemaJson = sparkSchemaJson(tablePath, snapshot.getSchema().toJson());
    return new TableSnapshot(
        root,
        snapshot.getVersion(),
        schemaJson,
        fileSchemaJson(snapshot, schemaJson),
        snapshot.getPartitionColumnNames(),
        readerFeatures,
        files);
  }

  private static TableReadException unreadable(String tablePath, AsOf asOf, KernelException e) {
    return new TableReadException(
        "Cannot read Delta table "
            + tablePath
            + " at "
            + asOf.describe(TableFormat.DELTA)
            + ": "
            + e.getMessage(),
        e);
  }

  /**
   * The reader features the snapshot's protocol names (none for a protocol older than table
   * features, whose only reader feature, column mapping, is found by its mode); column mapping only
   * when its mode is set (a table may support it unused).
   */
  private static Set<String> readerFeatures(Snapshot snapshot) {
    SnapshotImpl impl = (SnapshotImpl) snapshot;
    Protocol protocol = impl.getProtocol();
    Set<String> features = new TreeSet<>();
    if (protocol.supportsReaderFeatures()) {
      features.addAll(protocol.getReaderFeatures());
    }
    features.remove(DeltaFeatures.COLUMN_MAPPING);
    if (ColumnMapping.isColumnMappingModeEnabled(columnMappingMode(snapshot))) {
      features.add(DeltaFeatures.COLUMN_MAPPING);
    }
    return features;
  }

  /**
   * The schema as the data files name it, by Kernel's own mapping: physical names, and Parquet
   * field ids when the files are matched by id, as Delta's reader asks Spark's Parquet reader for
   * them.
   */
  private static String fileSchemaJson(Snapshot snapshot, String schemaJson) {
    ColumnMapping.ColumnMappingMode mode = columnMappingMode(snapshot);
    if (!ColumnMapping.isColumnMappingModeEnabled(mode)) {
      return schemaJson;
    }
    io.delta.kernel.types.StructType schema = snapshot.getSchema();
    return ColumnMapping.convertToPhysicalSchema(schema, schema, mode).toJson();
  }

  private static ColumnMapping.ColumnMappingMode columnMappingMode(Snapshot snapshot) {
    return ColumnMapping.getColumnMappingMode(
        ((SnapshotImpl) snapshot).getMetadata().getConfiguration());
  }

  /** Field metadata that Delta's own Spark reader leaves out of the schema it gives. */
  private static boolean readerDrops(String metadataKey) {
    return metadataKey.startsWith("delta.columnMapping.")
        || metadataKey.startsWith("parquet.field.");
  }

  /**
   * Delta's schema JSON is Spark's {@code StructType} JSON; the column mapping metadata (ids,
   * physical names) is dropped, as Delta's reader drops it.
   */
  static String sparkSchemaJson(String tablePath, String deltaSchemaJson) {
    try {
      JsonNode schema = JSON.readTree(deltaSchemaJson);
      dropMappingMetadata(schema);
      return JSON.writeValueAsString(schema);
    } catch (JsonProcessingException e) {
      // the original message: the full one adds the JSON's source and location on a second line
      throw new TableReadException(
          "Cannot read the schema of Delta table " + tablePath + ": " + e.getOriginalMessage(), e);
    }
  }

  private static void dropMappingMetadata(JsonNode node) {
    if (node instanceof ObjectNode object) {
      if (object.get("metadata") instanceof ObjectNode metadata) {
        List<String> drop = new ArrayList<>();
        metadata
            .fieldNames()
            .forEachRemaining(
                k -> {
                  if (readerDrops(k)) {
                    drop.add(k);
                  }
                });
        metadata.remove(drop);
      }
    }
    for (JsonNode child : node) {
      dropMappingMetadata(child);
    }
  }

  private Snapshot snapshot(String tablePath, AsOf asOf) {
    try {
      Table table = Table.forPath(engine, tablePath);
      if (asOf.version().isPresent()) {
        return table.getSnapshotAsOfVersion(engine, asOf.version().getAsLong());
      }
      if (asOf.timestampMillis().isPresent()) {
        return table.getSnapshotAsOfTimestamp(engine, asOf.timestampMillis().getAsLong());
      }
      return table.getLatestSnapshot(engine);
    } catch (TableNotFoundException e) {
      throw new TableReadException(
          "Cannot read Delta table "
              + tablePath
              + ": no Delta table at that path: "
              + e.getMessage(),
          e);
    } catch (KernelException e) {
      throw unreadable(tablePath, asOf, e);
    }
  }

  /**
   * Partition columns by the name {@code add.partitionValues} keys them with (the physical name
   * under column mapping) to their logical name.
   */
  private static Map<String, String> partitionLogicalNames(Snapshot snapshot) {
    Map<String, String> names = new HashMap<>();
    for (String column : snapshot.getPartitionColumnNames()) {
      StructField field = snapshot.getSchema().get(column);
      names.put(ColumnMapping.getPhysicalName(field), field.getName());
    }
    return names;
  }

  private TableFile file(String root, Row scanFile, Map<String, String> logicalNames) {
    FileStatus status = InternalScanFileUtils.getAddFileStatus(scanFile);
    Map<String, String> partition = new LinkedHashMap<>();
    for (Map.Entry<String, String> e :
        InternalScanFileUtils.getPartitionValues(scanFile).entrySet()) {
      partition.put(logicalNames.getOrDefault(e.getKey(), e.getKey()), e.getValue());
    }
    DeletionVectorDescriptor dv =
        InternalScanFileUtils.getDeletionVectorDescriptorFromRow(scanFile);
    return new TableFile(
        status.getPath(), status.getSize(), partition, dv == null ? null : deleted(root, dv));
  }

  /** The deletion vector's rows, ascending; Kernel reads inline, relative and absolute vectors. */
  private long[] deleted(String root, DeletionVectorDescriptor dv) {
    RoaringBitmapArray bitmap = DeletionVectorUtils.loadNewDvAndBitmap(engine, root, dv)._2;
    long[] positions = bitmap.toArray();
    Arrays.sort(positions);
    if (positions.length != dv.getCardinality()) {
      throw new TableReadException(
          "Cannot load the deletion vector "
              + dv
              + " of Delta table "
              + root
              + ": it"
              + " holds "
              + positions.length
              + " rows, its descriptor says "
              + dv.getCardinality());
    }
    return positions;
  }
}
