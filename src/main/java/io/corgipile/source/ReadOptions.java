package io.corgipile.source;

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

  /** {@code auto}, rows ({@code 100000}), decoded bytes ({@code 64m}) or a share of the partition's rows ({@code 10%}). */
  public static final String BUFFER_SIZE = "bufferSize";
  /** The rule of {@code auto} is in {@link io.corgipile.shuffle.BufferSize#FORMAT}. */
  public static final String BUFFER_SIZE_DEFAULT = "auto";

  /**
   * {@code auto}, {@code rowGroup} or a row count: how finely row groups are cut into blocks; the
   * rule is in {@link BlockSize#FORMAT}.
   */
  public static final String BLOCK_SIZE = "blockSize";
  public static final String BLOCK_SIZE_DEFAULT = "auto";

  /** Seed of every random choice of the scan; the local property {@link #SEED_LOCAL_PROPERTY} overrides it. */
  public static final String SEED = "seed";
  public static final long SEED_DEFAULT = 42L;

  /**
   * Spark local property that, set on the thread that runs a job, overrides {@link #SEED} for that
   * job's tasks: how an estimator's {@code seed} reaches a DataFrame planned without it.
   */
  public static final String SEED_LOCAL_PROPERTY = "corgipile.seed";

  /** The epoch whose order to produce; the local property {@link #EPOCH_LOCAL_PROPERTY} overrides it. */
  public static final String EPOCH = "epoch";
  public static final int EPOCH_DEFAULT = 0;

  /**
   * Spark local property that, set on the thread that runs a job, overrides {@link #EPOCH} for that
   * job's tasks. A training loop sets it before each epoch so one planned DataFrame yields a new
   * order every epoch.
   */
  public static final String EPOCH_LOCAL_PROPERTY = "corgipile.epoch";

  /**
   * Spark local property: the round (from 0) of the epoch that a job reads, when the epoch is read in
   * {@link #ROUNDS_LOCAL_PROPERTY} rounds of {@link #SYNC_INTERVAL_LOCAL_PROPERTY}. With all three
   * set, each partition reads only the round's slice of its epoch stream; with this or the interval
   * unset, the whole epoch.
   */
  public static final String ROUND_LOCAL_PROPERTY = "corgipile.round";

  /**
   * Spark local property: how many rounds the epoch is read in, as {@link EpochRounds} counts them
   * on the driver (so the executors need not plan every partition to know); see {@link
   * #ROUND_LOCAL_PROPERTY}.
   */
  public static final String ROUNDS_LOCAL_PROPERTY = "corgipile.rounds";

  /**
   * Spark local property: how an epoch is cut into rounds, as {@link io.corgipile.shuffle.SyncInterval}
   * text; see {@link #ROUND_LOCAL_PROPERTY}.
   */
  public static final String SYNC_INTERVAL_LOCAL_PROPERTY = "corgipile.syncInterval";

  /**
   * Spark local property: {@value #ROW_ORDER_LOCAL_PROPERTY_ANY} on the thread that runs a job that
   * needs the epoch's rows but not their order (a feature summary). Each partition then reads its
   * blocks of the epoch straight through in storage order, without the buffer: the same rows in each
   * partition, each once, at the cost of a plain scan. Ignored by a job that reads a round.
   */
  public static final String ROW_ORDER_LOCAL_PROPERTY = "corgipile.rowOrder";
  /** The value of {@link #ROW_ORDER_LOCAL_PROPERTY} that lets a job take the rows in any order. */
  public static final String ROW_ORDER_LOCAL_PROPERTY_ANY = "any";

  /** Number of input partitions, {@value #PARTITIONS_DEFAULT_DESCRIPTION} by default. */
  public static final String PARTITIONS = "partitions";
  /** What {@link #PARTITIONS} is when not set: it depends on the cluster and the table, so it has no fixed value. */
  public static final String PARTITIONS_DEFAULT_DESCRIPTION =
      "Spark's default parallelism, at most the number of blocks";

  /** {@code epoch} or {@code fixed}. */
  public static final String BLOCK_ASSIGNMENT = "blockAssignment";
  public static final String BLOCK_ASSIGNMENT_DEFAULT = "epoch";

  /** {@code true}: fill the next buffer on a background thread while the current one is emitted. */
  public static final String PREFETCH = "prefetch";
  public static final boolean PREFETCH_DEFAULT = true;

  /** Every option above, as users spell it. */
  public static final List<String> ALL =
      List.of(SHUFFLE, BUFFER_SIZE, BLOCK_SIZE, SEED, EPOCH, PARTITIONS, BLOCK_ASSIGNMENT, PREFETCH);
}
