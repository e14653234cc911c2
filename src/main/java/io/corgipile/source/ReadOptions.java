package io.corgipile.source;

import io.corgipile.table.TableFormat;
import java.util.List;

/**
 * Names and defaults of the {@code corgipile} source's options. Each option can also be set for a
 * whole session as {@code spark.datasource.corgipile.<name>}; an option on the reader wins.
 */
public final class ReadOptions {
  private ReadOptions() {}

  /** Prefix of session configuration keys that set an option's default. */
  public static final String SESSION_CONF_PREFIX = "spark.datasource.corgipile.";

  /** {@code corgipile}, {@code block}, {@code window} or {@code none}. */
  public static final String SHUFFLE = "shuffle";

  public static final String SHUFFLE_DEFAULT = "corgipile";

  /**
   * {@code auto}, rows ({@code 100000}), decoded bytes ({@code 64m}) or a share of the partition's
   * rows ({@code 10%}).
   */
  public static final String BUFFER_SIZE = "bufferSize";

  /** The rule of {@code auto} is in {@link io.corgipile.shuffle.BufferSize#FORMAT}. */
  public static final String BUFFER_SIZE_DEFAULT = "auto";

  /**
   * {@code auto}, {@code rowGroup} or a row count: how finely row groups are cut into blocks; the
   * rule is in {@link BlockSize#FORMAT}.
   */
  public static final String BLOCK_SIZE = "blockSize";

  public static final String BLOCK_SIZE_DEFAULT = "auto";

  /** Seed of every random choice of the scan; a job's {@link ReadScope#setSeed} overrides it. */
  public static final String SEED = "seed";

  public static final long SEED_DEFAULT = 42L;

  /** The epoch whose order to produce; a job's {@link ReadScope#setEpoch} overrides it. */
  public static final String EPOCH = "epoch";

  public static final int EPOCH_DEFAULT = 0;

  /** Number of input partitions, {@value #PARTITIONS_DEFAULT_DESCRIPTION} by default. */
  public static final String PARTITIONS = "partitions";

  /**
   * What {@link #PARTITIONS} is when not set: it depends on the cluster and the table, so it has no
   * fixed value.
   */
  public static final String PARTITIONS_DEFAULT_DESCRIPTION =
      "Spark's default parallelism, at most the number of blocks";

  /** {@code epoch} or {@code fixed}. */
  public static final String BLOCK_ASSIGNMENT = "blockAssignment";

  public static final String BLOCK_ASSIGNMENT_DEFAULT = "epoch";

  /** {@code true}: fill the next buffer on a background thread while the current one is emitted. */
  public static final String PREFETCH = "prefetch";

  public static final boolean PREFETCH_DEFAULT = true;

  /** A Delta table's version to read (time travel), Delta's name; the latest by default. */
  public static final String VERSION_AS_OF = TableFormat.DELTA.versionOption();

  /** The Delta table's latest version committed at or before a time; Delta's name. */
  public static final String TIMESTAMP_AS_OF = TableFormat.DELTA.timestampOption();

  /** An Iceberg table's snapshot to read, by its id; Iceberg's name; the current by default. */
  public static final String SNAPSHOT_ID = TableFormat.ICEBERG.versionOption();

  /** The Iceberg table's latest snapshot at or before a time in milliseconds; Iceberg's name. */
  public static final String AS_OF_TIMESTAMP = TableFormat.ICEBERG.timestampOption();

  /** The head of an Iceberg table's branch to read; Iceberg's name. */
  public static final String BRANCH = TableFormat.ICEBERG.branchOption();

  /** The snapshot an Iceberg table's tag names; Iceberg's name. */
  public static final String TAG = TableFormat.ICEBERG.tagOption();

  /** The time travel options, which only a table format's snapshot takes. */
  public static final List<String> TIME_TRAVEL = TableFormat.timeTravelOptions();

  /** Every option above, as users spell it. */
  public static final List<String> ALL =
      List.of(
          SHUFFLE,
          BUFFER_SIZE,
          BLOCK_SIZE,
          SEED,
          EPOCH,
          PARTITIONS,
          BLOCK_ASSIGNMENT,
          PREFETCH,
          VERSION_AS_OF,
          TIMESTAMP_AS_OF,
          SNAPSHOT_ID,
          AS_OF_TIMESTAMP,
          BRANCH,
          TAG);
}
