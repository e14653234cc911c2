package io.corgipile.source;

import io.corgipile.options.Integers;
import io.corgipile.shuffle.SyncInterval;
import java.util.List;
import java.util.OptionalInt;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;

/**
 * What the {@code corgipile} scans of a driver thread's next jobs read: which epoch, with which
 * seed, which round of it, and whether in order. Spark carries a thread's local properties with
 * every job it submits, so a scan planned once yields each epoch and round without being planned
 * again; this class is the one channel for them, typed on both ends: the driver's setters here
 * (used by training loops, the estimators, the benchmarks and the Python package) and the tasks'
 * {@link #of}.
 */
public final class ReadScope {
  /**
   * The local property of the epoch, which overrides the {@code epoch} option. Documented for loops
   * that set it themselves, from SQL or other languages: {@link #setEpoch} sets it in Java.
   */
  public static final String EPOCH = "corgipile.epoch";

  /**
   * The local property of the seed, which overrides the {@code seed} option; see {@link #setSeed}.
   */
  public static final String SEED = "corgipile.seed";

  /** The round (from 0) of the epoch a job reads; see {@link #setRound}. */
  static final String ROUND = "corgipile.round";

  /** How many rounds the epoch is read in, as {@link EpochRounds} counts them on the driver. */
  static final String ROUNDS = "corgipile.rounds";

  /** How the epoch is cut into rounds, as {@link SyncInterval} text. */
  static final String SYNC_INTERVAL = "corgipile.syncInterval";

  /** How the next epoch is cut into rounds, as {@link SyncInterval} text; see {@link #setNext}. */
  static final String NEXT_SYNC_INTERVAL = "corgipile.nextSyncInterval";

  /** How many rounds the next epoch is read in; see {@link #setNext}. */
  static final String NEXT_ROUNDS = "corgipile.nextRounds";

  /**
   * {@value #ANY_ORDER} for a job that needs the epoch's rows but not their order; see {@link
   * #setAnyOrder}.
   */
  static final String ROW_ORDER = "corgipile.rowOrder";

  static final String ANY_ORDER = "any";

  /**
   * The most partitions a {@code corgipile} scan planned by the thread has; see {@link
   * #setMaxPartitions}. Read when Spark plans the scan, not by its tasks.
   */
  static final String MAX_PARTITIONS = "corgipile.maxPartitions";

  private static final List<String> KEYS =
      List.of(
          EPOCH, SEED, ROUND, ROUNDS, SYNC_INTERVAL, NEXT_SYNC_INTERVAL, NEXT_ROUNDS, ROW_ORDER);

  private ReadScope() {}

  /** The epoch the thread's next jobs read; null: the scan's {@code epoch} option. */
  public static void setEpoch(SparkContext sc, Integer epoch) {
    if (epoch != null && epoch < 0) {
      throw new IllegalArgumentException("Cannot read epoch " + epoch + ": epochs count from 0");
    }
    sc.setLocalProperty(EPOCH, epoch == null ? null : epoch.toString());
  }

  /** The seed of the thread's next jobs; null: the scan's {@code seed} option. */
  public static void setSeed(SparkContext sc, Long seed) {
    sc.setLocalProperty(SEED, seed == null ? null : seed.toString());
  }

  /**
   * The thread's next jobs read round {@code round} (from 0) of the {@code rounds} that {@code
   * interval} cuts their epoch into: each partition the round's slice of its epoch stream. Take
   * {@code rounds} from {@link EpochRounds#of}; every round of an epoch together reads it whole.
   */
  public static void setRound(SparkContext sc, SyncInterval interval, int round, int rounds) {
    if (round < 0 || round >= rounds) {
      throw new IllegalArgumentException(
          "Cannot read round "
              + round
              + " of "
              + rounds
              + ": rounds count from 0 to the epoch's round count - 1");
    }
    sc.setLocalProperty(SYNC_INTERVAL, interval.toString());
    sc.setLocalProperty(ROUND, Integer.toString(round));
    sc.setLocalProperty(ROUNDS, Integer.toString(rounds));
  }

  /**
   * The round the driver reads after the thread's next jobs, when they read an epoch's last round
   * and the next epoch follows: its first round, {@code first}; null when no epoch is known to
   * follow. A hint, by which each partition fills its first buffer of that round ahead ({@link
   * RoundLookahead}) while the driver ends the epoch; a fit that stops there instead leaves that
   * fill unclaimed.
   */
  public static void setNext(SparkContext sc, Round first) {
    sc.setLocalProperty(NEXT_SYNC_INTERVAL, first == null ? null : first.interval().toString());
    sc.setLocalProperty(NEXT_ROUNDS, first == null ? null : Integer.toString(first.count()));
  }

  /** The thread's next jobs read their whole epoch, not a round of it. */
  public static void setWholeEpoch(SparkContext sc) {
    sc.setLocalProperty(SYNC_INTERVAL, null);
    sc.setLocalProperty(ROUND, null);
    sc.setLocalProperty(ROUNDS, null);
    setNext(sc, null);
  }

  /**
   * Whether the thread's next jobs take the epoch's rows in any order (a feature summary, a count):
   * each partition then reads its blocks of the epoch straight through in storage order, without
   * the buffer: the same rows in each partition, each once, at the cost of a plain scan. A job that
   * reads a round keeps the order.
   */
  public static void setAnyOrder(SparkContext sc, boolean anyOrder) {
    sc.setLocalProperty(ROW_ORDER, anyOrder ? ANY_ORDER : null);
  }

  /**
   * The most partitions the {@code corgipile} scans the thread plans next have (fewer when the
   * {@code partitions} option or the default gives fewer); null: no cap. A scan keeps the cap it
   * was planned with, so a training loop sets it, plans its input, and unsets it.
   */
  public static void setMaxPartitions(SparkContext sc, Integer partitions) {
    if (partitions != null && partitions < 1) {
      throw new IllegalArgumentException(
          "Cannot plan a scan in at most " + partitions + " partitions: at least 1 is needed");
    }
    sc.setLocalProperty(MAX_PARTITIONS, partitions == null ? null : partitions.toString());
  }

  /** The cap {@link #setMaxPartitions} set for the thread's scans, if any. */
  static OptionalInt maxPartitions(SparkContext sc) {
    String value = sc.getLocalProperty(MAX_PARTITIONS);
    return value == null
        ? OptionalInt.empty()
        : OptionalInt.of((int) parse(MAX_PARTITIONS, value, 1, Integer.MAX_VALUE));
  }

  /** The seed the thread's next jobs read with, or null for the scan's own option. */
  public static Long seed(SparkContext sc) {
    String seed = sc.getLocalProperty(SEED);
    return seed == null ? null : parse(SEED, seed, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * The thread's scope now, restored by {@link Saved#close}: for code that changes it for its own
   * jobs.
   */
  public static Saved save(SparkContext sc) {
    return new Saved(sc, KEYS.stream().map(sc::getLocalProperty).toArray(String[]::new));
  }

  /** A thread's scope as it was, set again on close. */
  public static final class Saved implements AutoCloseable {
    private final SparkContext sc;
    private final String[] values;

    private Saved(SparkContext sc, String[] values) {
      this.sc = sc;
      this.values = values;
    }

    @Override
    public void close() {
      for (int i = 0; i < values.length; i++) {
        sc.setLocalProperty(KEYS.get(i), values[i]);
      }
    }
  }

  /** Round {@code index} of an epoch cut into {@code count} rounds by {@code interval}. */
  public record Round(SyncInterval interval, int index, int count) {
    static final Round WHOLE_EPOCH = new Round(SyncInterval.EPOCH, 0, 1);
  }

  /**
   * What a running task's job reads, from its local properties; null fields were not set. {@code
   * anyOrder} holds only for a job of the whole epoch: a round keeps its order. {@code next} is the
   * first round of the epoch after, when the driver said one follows ({@link #setNext}).
   */
  public record InTask(Integer epoch, Long seed, Round round, boolean anyOrder, Round next) {
    static final InTask NONE = new InTask(null, null, Round.WHOLE_EPOCH, false, null);
  }

  /**
   * The scope of {@code task}'s job (none outside a task).
   *
   * @throws IllegalArgumentException naming the local property whose value is not what it allows
   */
  public static InTask of(TaskContext task) {
    if (task == null) {
      return InTask.NONE;
    }
    String epoch = task.getLocalProperty(EPOCH);
    String seed = task.getLocalProperty(SEED);
    Round round =
        round(
            task.getLocalProperty(ROUND),
            task.getLocalProperty(ROUNDS),
            task.getLocalProperty(SYNC_INTERVAL));
    String nextInterval = task.getLocalProperty(NEXT_SYNC_INTERVAL);
    return new InTask(
        epoch == null ? null : (int) parse(EPOCH, epoch, 0, Integer.MAX_VALUE),
        seed == null ? null : parse(SEED, seed, Long.MIN_VALUE, Long.MAX_VALUE),
        round,
        round.count() == 1 && ANY_ORDER.equals(task.getLocalProperty(ROW_ORDER)),
        nextInterval == null
            ? null
            : round(
                "0",
                task.getLocalProperty(NEXT_ROUNDS),
                nextInterval,
                NEXT_ROUNDS,
                NEXT_SYNC_INTERVAL));
  }

  /**
   * Which part of the epoch a job reads: round {@code round} of {@code rounds} under {@code
   * syncInterval} when the round and the interval are set, else the whole epoch.
   */
  static Round round(String round, String rounds, String syncInterval) {
    return round(round, rounds, syncInterval, ROUNDS, SYNC_INTERVAL);
  }

  /** {@link #round(String, String, String)}, its errors naming the properties given. */
  private static Round round(
      String round,
      String rounds,
      String syncInterval,
      String roundsProperty,
      String intervalProperty) {
    int index = round == null ? 0 : (int) parse(ROUND, round, 0, Integer.MAX_VALUE);
    SyncInterval interval;
    try {
      interval = syncInterval == null ? SyncInterval.EPOCH : SyncInterval.parse(syncInterval);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot use local property "
              + intervalProperty
              + "='"
              + syncInterval
              + "': "
              + e.getMessage());
    }
    if (round == null || syncInterval == null) {
      return Round.WHOLE_EPOCH;
    }
    if (rounds == null) {
      throw new IllegalArgumentException(
          "Cannot read round "
              + index
              + " of the epoch: local property "
              + roundsProperty
              + " is not set; set it to the epoch's round count (EpochRounds.of)");
    }
    return new Round(interval, index, (int) parse(roundsProperty, rounds, 1, Integer.MAX_VALUE));
  }

  private static long parse(String name, String value, long min, long max) {
    try {
      return Integers.parse(value, min, max);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot use local property " + name + "='" + value + "': " + e.getMessage());
    }
  }
}
