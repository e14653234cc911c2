package io.corgipile.source;

import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.spark.DataFile;
import io.corgipile.spark.FileListing;
import io.corgipile.spark.ScanSettings;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A configured scan. Footers are read once, when Spark first asks for the batch or statistics.
 */
final class CorgiPileScan implements Scan, SupportsReportStatistics {
  private static final Logger LOG = LoggerFactory.getLogger(CorgiPileScan.class);

  private final SparkSession session;
  private final FileListing listing;
  private final StructType readSchema;
  private final Filter[] pushedFilters;
  private final ReadConf conf;
  private final ScanSettings settings;
  private BlockPlan plan;
  private boolean warned;

  CorgiPileScan(SparkSession session, FileListing listing, StructType readSchema, Filter[] pushedFilters,
      ReadConf conf, ScanSettings settings) {
    this.session = session;
    this.listing = listing;
    this.readSchema = readSchema;
    this.pushedFilters = pushedFilters;
    this.conf = conf;
    this.settings = settings;
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public String description() {
    return "corgipile [" + conf + "] files=" + listing.files().size()
        + (pushedFilters.length == 0 ? "" : ", pushedFilters=" + Arrays.toString(pushedFilters));
  }

  private synchronized BlockPlan plan() {
    if (plan == null) {
      plan = BlockPlanner.plan(settings, listing.files(), pushedFilters);
    }
    return plan;
  }

  /** The option if set, else Spark's default parallelism, at most the number of blocks. */
  private int partitions() {
    int blocks = plan().blocks().size();
    return conf.partitions().orElse(Math.max(1, Math.min(session.sparkContext().defaultParallelism(), blocks)));
  }

  @Override
  public Batch toBatch() {
    BlockPlan p = plan();
    int partitions = partitions();
    warnIfBufferHoldsFewerThanTwoBlocks(p, partitions);
    return new CorgiPileBatch(
        new CorgiPileReaderFactory(p, conf, partitions, settings, readSchema.fields().length), partitions);
  }

  @Override
  public Statistics estimateStatistics() {
    BlockPlan p = plan();
    long bytes = p.blocks().stream().mapToLong(Block::uncompressedBytes).sum();
    long rows = p.totalRows();
    return new Statistics() {
      @Override
      public OptionalLong sizeInBytes() {
        return OptionalLong.of(bytes);
      }

      @Override
      public OptionalLong numRows() {
        return OptionalLong.of(rows);
      }
    };
  }

  @Override
  public CustomMetric[] supportedCustomMetrics() {
    return CorgiPileMetrics.supported();
  }

  /**
   * The tuple-level shuffle mixes the row groups that share a buffer; with fewer than two per
   * buffer it cannot, and the order degenerates to {@code block} mode. Row sizes are estimated
   * from the footers when the buffer is given in bytes.
   */
  private synchronized void warnIfBufferHoldsFewerThanTwoBlocks(BlockPlan p, int partitions) {
    // Spark asks for the batch several times per query; say it once.
    if (warned || conf.shuffle() != ShuffleMode.CORGIPILE || p.blocks().size() <= partitions) {
      return;
    }
    warned = true;
    long rows = p.totalRows();
    double blockRows = (double) rows / p.blocks().size();
    BufferSize size = conf.bufferSize();
    double bufferRows = size.maxRows(rows / partitions);
    if (size.unit() == BufferSize.Unit.BYTES) {
      long bytes = p.blocks().stream().mapToLong(Block::uncompressedBytes).sum();
      double rowBytes = Math.max(8.0 * (readSchema.fields().length + 1), (double) bytes / Math.max(1, rows));
      bufferRows = size.maxBytes() / rowBytes;
    }
    if (bufferRows < 2 * blockRows) {
      LOG.warn("corgipile: the tuple buffer (bufferSize={}) holds about {} rows per partition, fewer than two "
              + "row groups of about {} rows, so the tuple-level shuffle cannot mix row groups and the order "
              + "is little better than shuffle=block. Write smaller row groups (Spark's parquet.block.size "
              + "write option, in bytes) or set a larger bufferSize. Files: {}",
          size, (long) bufferRows, (long) blockRows,
          listing.files().stream().limit(3).map(DataFile::path).collect(Collectors.joining(", "))
              + (listing.files().size() > 3 ? ", ..." : ""));
    }
  }
}
