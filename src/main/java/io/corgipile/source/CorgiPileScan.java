package io.corgipile.source;

import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SyncInterval;
import io.corgipile.spark.BlockDecoder;
import io.corgipile.spark.FileListing;
import io.corgipile.spark.PhysicalColumns;
import io.corgipile.spark.ScanSettings;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
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

/** A configured scan. Footers are read once, when Spark first asks for the batch or statistics. */
final class CorgiPileScan implements Scan, SupportsReportStatistics {
  private static final Logger LOG = LoggerFactory.getLogger(CorgiPileScan.class);

  private final SparkSession session;
  private final FileListing listing;
  private final StructType readSchema;
  private final Filter[] pushedFilters;
  private final ReadConf conf;
  private final ScanSettings settings;
  private final TaskMemory memory;
  private final ScanWarnings warnings;
  private final String id = UUID.randomUUID().toString();

  /** The cap of {@link ReadScope#setMaxPartitions} when the scan was planned. */
  private final OptionalInt maxPartitions;

  private BlockPlan plan;
  private FillLayout layout;

  /** What {@link BufferBudget} says of {@code auto}'s cap. */
  private Optional<String> capWarning;

  CorgiPileScan(
      SparkSession session,
      FileListing listing,
      StructType readSchema,
      Filter[] pushedFilters,
      ReadConf conf,
      ScanSettings settings,
      TaskMemory memory,
      ScanWarnings warnings) {
    this.session = session;
    this.listing = listing;
    this.readSchema = readSchema;
    this.pushedFilters = pushedFilters;
    this.conf = conf;
    this.settings = settings;
    this.memory = memory;
    this.warnings = warnings;
    this.maxPartitions = ReadScope.maxPartitions(session.sparkContext());
  }

  @Override
  public StructType readSchema() {
    return readSchema;
  }

  @Override
  public String description() {
    return "corgipile ["
        + conf
        + "] files="
        + listing.files().size()
        + (maxPartitions.isPresent() ? ", maxPartitions=" + maxPartitions.getAsInt() : "")
        + (pushedFilters.length == 0 ? "" : ", pushedFilters=" + Arrays.toString(pushedFilters));
  }

  /**
   * The blocks, planned from the footers on first use. A file that cannot be read fails the query
   * here, on the driver, as Spark's own {@code AnalysisException}.
   */
  synchronized BlockPlan plan() {
    if (plan == null) {
      try {
        plan = planBlocks();
      } catch (CorgiPileReadException e) {
        throw CorgiPileAnalysisException.raise(e);
      }
    }
    return plan;
  }

  private BlockPlan planBlocks() {
    BlockPlan rowGroups =
        BlockPlanner.plan(
            settings,
            listing.files(),
            listing.deletedRows(),
            PhysicalColumns.of(listing).filters(pushedFilters));
    return switch (conf.blockSize().kind()) {
      case ROW_GROUP -> rowGroups;
      case ROWS -> {
        BlockDecoder.rowRangesUnsupported(settings)
            .ifPresent(
                why ->
                    warnings.once(
                        LOG,
                        "blockSize",
                        "corgipile: blockSize="
                            + conf.blockSize()
                            + " reads whole row groups: "
                            + why));
        yield BlockPlanner.cut(settings, rowGroups, conf.blockSize().rows());
      }
      case AUTO -> autoCut(rowGroups);
    };
  }

  /**
   * {@code blockSize=auto}: in the {@code corgipile} shuffle, where a buffer of the row-group
   * layout would hold fewer than {@link BlockSize#AUTO_BLOCKS_PER_BUFFER} row groups, parts of that
   * share of the buffer. Few large blocks per buffer leave runs of one block's neighbouring rows in
   * the order, which SGD without averaging feels (see docs/benchmarks/peers.md).
   */
  private BlockPlan autoCut(BlockPlan rowGroups) {
    if (conf.shuffle() != ShuffleMode.CORGIPILE || rowGroups.blocks().isEmpty()) {
      return rowGroups;
    }
    long bufferRows = layoutOf(rowGroups).typicalBufferRows(rowGroups);
    double groupRows = (double) rowGroups.totalRows() / rowGroups.blocks().size();
    if (bufferRows >= BlockSize.AUTO_BLOCKS_PER_BUFFER * groupRows) {
      return rowGroups;
    }
    return BlockPlanner.cut(
        settings, rowGroups, Math.max(1, bufferRows / BlockSize.AUTO_BLOCKS_PER_BUFFER));
  }

  ScanSettings settings() {
    return settings;
  }

  /**
   * The option if set, else Spark's default parallelism, at most the number of blocks; at most the
   * cap the scan was planned under.
   */
  private int partitions(BlockPlan p) {
    int blocks = p.blocks().size();
    int partitions =
        conf.partitions()
            .orElse(Math.max(1, Math.min(session.sparkContext().defaultParallelism(), blocks)));
    return Math.min(partitions, maxPartitions.orElse(partitions));
  }

  /** The scan's seed option. */
  long seed() {
    return conf.seed();
  }

  /** The rows the scan reads per epoch, as its footers count them. */
  long rows() {
    return plan().totalRows();
  }

  private FillLayout layoutOf(BlockPlan p) {
    return new FillLayout(
        p,
        conf,
        partitions(p),
        readSchema.fields().length,
        memory.autoBufferBytes(conf.prefetch() ? 2 : 1));
  }

  /**
   * The partitions' streams, laid out once per scan: the batch and {@link EpochRounds} share it.
   * Its buffers are held to the tasks' memory here, on the driver, so every task plans the same
   * fills.
   *
   * @throws IllegalArgumentException when an explicit bufferSize needs more than a task can hold
   */
  private synchronized FillLayout layout() {
    if (layout == null) {
      FillLayout l = layoutOf(plan());
      capWarning = BufferBudget.check(conf, l, memory, plan());
      layout = l;
    }
    return layout;
  }

  /**
   * The fills an executor may hold ahead of its rounds ({@link RoundLookahead}): two per task slot
   * with prefetch, the two buffers prefetch budgets, when every partition of a round runs at once.
   * A slot's task fills the next round's first buffer ahead once it reads its own last one and
   * holds no other; once it has let its own go, it fills the round after next when the next reads
   * one buffer, so a partition never holds more than two. With more partitions than slots, tasks
   * run in waves, the next wave's reading overlaps the last one's training, and fills ahead would
   * hold a buffer per partition.
   */
  private int lookahead(int partitions) {
    boolean oneWave = partitions <= session.sparkContext().defaultParallelism();
    return conf.prefetch() && conf.shuffle() == ShuffleMode.CORGIPILE && oneWave
        ? 2 * memory.slots()
        : 0;
  }

  /** The rounds of epoch {@code epoch}; see {@link EpochRounds#of}. */
  int rounds(int epoch, Long seed, SyncInterval interval) {
    if (epoch < 0) {
      throw new IllegalArgumentException(
          "Cannot count the rounds of epoch " + epoch + ": epochs are >= 0");
    }
    return layout().rounds(epoch, seed == null ? conf.seed() : seed, interval);
  }

  @Override
  public Batch toBatch() {
    FillLayout l = layout();
    warnOnce(plan(), l);
    return new CorgiPileBatch(
        new CorgiPileReaderFactory(
            plan(), conf, l, settings, readSchema.fields().length, id, lookahead(l.partitions())),
        l.partitions());
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
   * Spark asks for the batch several times per query, and plans a scan per query: each warning once
   * per table.
   */
  private void warnOnce(BlockPlan p, FillLayout l) {
    capWarning.ifPresent(message -> warnings.once(LOG, "bufferCap", message));
    if (bufferHoldsFewerThanTwoBlocks(p, l)) {
      warnings.once(
          LOG,
          "fewerThanTwoBlocks",
          String.format(
              Locale.ROOT,
              "corgipile: the tuple buffer of %s (bufferSize=%s) holds about %,d rows per"
                  + " partition, fewer than two blocks of about %,d rows, so the order is little"
                  + " better than shuffle=block: set a larger bufferSize, or write smaller row"
                  + " groups (parquet.block.size) or pages (parquet.page.row.count.limit), which"
                  + " blockSize cuts row groups at",
              warnings.table(),
              conf.bufferSize(),
              l.typicalBufferRows(p),
              Math.round((double) p.totalRows() / p.blocks().size())));
    }
  }

  /**
   * The tuple-level shuffle mixes the blocks that share a buffer; with fewer than two per buffer it
   * cannot, and the order degenerates to {@code block} mode. Judged for a partition of average rows
   * and blocks, with row sizes estimated from the footers where the buffer size depends on them; a
   * partition smaller than two blocks is not the buffer's fault.
   */
  private boolean bufferHoldsFewerThanTwoBlocks(BlockPlan p, FillLayout l) {
    int partitions = l.partitions();
    if (conf.shuffle() != ShuffleMode.CORGIPILE || p.blocks().size() <= partitions) {
      return false;
    }
    long rows = p.totalRows();
    double blockRows = (double) rows / p.blocks().size();
    return l.typicalBufferRows(p) < Math.min(2 * blockRows, rows / partitions);
  }
}
