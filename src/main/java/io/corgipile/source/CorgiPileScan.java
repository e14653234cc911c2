package io.corgipile.source;

import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SyncInterval;
import io.corgipile.spark.DataFile;
import io.corgipile.spark.FileListing;
import io.corgipile.spark.ScanSettings;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
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
  private final String id = UUID.randomUUID().toString();
  private BlockPlan plan;
  private FillLayout layout;
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

  /** The partitions' streams, laid out once per scan: the batch and {@link EpochRounds} share it. */
  private synchronized FillLayout layout() {
    if (layout == null) {
      layout = new FillLayout(plan(), conf, partitions(), readSchema.fields().length, bufferMemory());
    }
    return layout;
  }

  /**
   * The memory one buffer may take under {@code bufferSize=auto}: the buffers of all tasks of an
   * executor together take at most a quarter of its heap (most of the rest is Spark's execution and
   * storage memory); with prefetch a task holds two buffers. Decided here, on the driver, so that
   * the executors and {@link EpochRounds} plan the same fills.
   */
  private long bufferMemory() {
    SparkContext sc = session.sparkContext();
    long heap = sc.isLocal() ? Runtime.getRuntime().maxMemory()
        : sc.getConf().getSizeAsBytes("spark.executor.memory", "1g");
    int buffers = conf.prefetch() ? 2 : 1;
    return Math.max(1, heap / (4L * executorSlots() * buffers));
  }

  /** The tasks an executor runs at once. */
  private int executorSlots() {
    SparkContext sc = session.sparkContext();
    SparkConf sparkConf = sc.getConf();
    int slots = sc.isLocal() ? sc.defaultParallelism()
        : sparkConf.getInt("spark.executor.cores", 1) / sparkConf.getInt("spark.task.cpus", 1);
    return Math.max(1, slots);
  }

  /**
   * The fills an executor may hold ahead of its rounds ({@link RoundLookahead}): one per task slot
   * with prefetch, its second buffer, when every partition of a round runs at once; with more
   * partitions than slots, tasks run in waves, the next wave's reading overlaps the last one's
   * training, and fills ahead would hold a buffer per partition.
   */
  private int lookahead(int partitions) {
    boolean oneWave = partitions <= session.sparkContext().defaultParallelism();
    return conf.prefetch() && conf.shuffle() == ShuffleMode.CORGIPILE && oneWave ? executorSlots() : 0;
  }

  /** The rounds of epoch {@code epoch}; see {@link EpochRounds#of}. */
  int rounds(int epoch, String seedLocalProperty, SyncInterval interval) {
    if (epoch < 0) {
      throw new IllegalArgumentException("Cannot count the rounds of epoch " + epoch + ": epochs are >= 0");
    }
    return layout().rounds(epoch, conf.effectiveSeed(seedLocalProperty), interval);
  }

  @Override
  public Batch toBatch() {
    FillLayout l = layout();
    warnIfBufferHoldsFewerThanTwoBlocks(plan(), l);
    return new CorgiPileBatch(new CorgiPileReaderFactory(plan(), conf, l, settings, readSchema.fields().length, id,
        lookahead(l.partitions())), l.partitions());
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
   * buffer it cannot, and the order degenerates to {@code block} mode. Judged for a partition of
   * average rows and row groups, with row sizes estimated from the footers where the buffer size
   * depends on them; a partition smaller than two row groups is not the buffer's fault.
   */
  private synchronized void warnIfBufferHoldsFewerThanTwoBlocks(BlockPlan p, FillLayout l) {
    int partitions = l.partitions();
    // Spark asks for the batch several times per query; say it once.
    if (warned || conf.shuffle() != ShuffleMode.CORGIPILE || p.blocks().size() <= partitions) {
      return;
    }
    warned = true;
    long rows = p.totalRows();
    double blockRows = (double) rows / p.blocks().size();
    long partitionRows = rows / partitions;
    long bufferRows = l.capacity(partitionRows, p.blocks().size() / partitions).plannedRows();
    if (bufferRows < Math.min(2 * blockRows, partitionRows)) {
      LOG.warn("corgipile: the tuple buffer (bufferSize={}) holds about {} rows per partition, fewer than two "
              + "row groups of about {} rows, so the tuple-level shuffle cannot mix row groups and the order "
              + "is little better than shuffle=block. Write smaller row groups (Spark's parquet.block.size "
              + "write option, in bytes) or set a larger bufferSize. Files: {}",
          conf.bufferSize(), bufferRows, (long) blockRows,
          listing.files().stream().limit(3).map(DataFile::path).collect(Collectors.joining(", "))
              + (listing.files().size() > 3 ? ", ..." : ""));
    }
  }
}
