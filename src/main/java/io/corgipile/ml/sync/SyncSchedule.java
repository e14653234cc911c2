package io.corgipile.ml.sync;

import io.corgipile.ml.SGDParams;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.shuffle.SyncInterval;
import io.corgipile.source.EpochRounds;
import io.corgipile.source.ReadScope;
import io.corgipile.spark.DatasetInternals;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.connector.read.Scan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many rounds each epoch has, and the local properties that make a job read one round's slice.
 *
 * <p>Rounds within an epoch need the {@code corgipile} source feeding the training rows partition
 * for partition (no exchange between), since only that source can read a partition's next slice
 * without reading the slices before it. Over any other input {@code auto} (the default) falls back
 * to one round per epoch (logged); another value the user chose is an error naming the way out, so
 * the data is never read once per round.
 */
public final class SyncSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(SyncSchedule.class);

  private final SyncInterval interval;
  private final Scan scan;
  private final Long seed;

  private SyncSchedule(SyncInterval interval, Scan scan, Long seed) {
    this.interval = interval;
    this.scan = scan;
    this.seed = seed;
  }

  /**
   * @param trained the rows as training reads them
   * @param seed the seed the jobs read with ({@link ReadScope#seed}), or null for the source's own
   */
  static SyncSchedule of(SGDConfig config, Dataset<?> trained, Long seed) {
    SyncInterval interval = config.syncInterval();
    if (interval.isEpoch()) {
      return new SyncSchedule(interval, null, seed);
    }
    Optional<Scan> scan = DatasetInternals.onlyScanWithoutExchange(trained);
    if (scan.isPresent() && EpochRounds.of(scan.get(), 0, seed, interval).isPresent()) {
      return new SyncSchedule(interval, scan.get(), seed);
    }
    String why =
        DatasetInternals.readsCachedData(trained)
            ? "the input is cached"
            : scan.isPresent()
                ? "the input is not read by the corgipile source"
                : "the input does not come from one corgipile scan without a shuffle (repartition,"
                    + " join, aggregation)";
    if (config.isSet(SGDParams.SYNC_INTERVAL) && !interval.isAuto()) {
      throw new IllegalArgumentException(
          config.cannotTrain()
              + "syncInterval '"
              + interval
              + "' averages the models several times per epoch, which needs the corgipile source to"
              + " read each partition's next slice per round, but "
              + why
              + ". Read the training data with format(\"corgipile\") and train on it"
              + " without a shuffle, or set syncInterval to '"
              + SyncInterval.EPOCH
              + "'");
    }
    LOG.info(
        "{}: one round per epoch (syncInterval '{}' needs the corgipile source, but {})",
        config.task().estimatorName(),
        interval,
        why);
    return new SyncSchedule(SyncInterval.EPOCH, null, seed);
  }

  /** Whether epochs are read in rounds (of one or more), the driver averaging after each. */
  boolean sliced() {
    return scan != null;
  }

  /** The rounds of {@code epoch}: 1 unless epochs are sliced. */
  int rounds(int epoch) {
    if (scan == null) {
      return 1;
    }
    OptionalInt rounds = EpochRounds.of(scan, epoch, seed, interval.forEpoch(epoch));
    return rounds.orElseThrow(
        () -> new IllegalStateException("Cannot count the rounds of epoch " + epoch));
  }

  /**
   * Sets the local properties for a job that reads {@code round} of {@code epoch}'s {@code rounds};
   * of the last, also the next epoch's first round when {@code epochFollows}, so the partitions
   * fill its first buffers ahead.
   */
  void select(SparkContext sc, int epoch, int round, int rounds, boolean epochFollows) {
    ReadScope.setEpoch(sc, epoch);
    if (scan != null) {
      ReadScope.setRound(sc, interval.forEpoch(epoch), round, rounds);
      ReadScope.setNext(
          sc,
          round == rounds - 1 && epochFollows
              ? new ReadScope.Round(interval.forEpoch(epoch + 1), 0, rounds(epoch + 1))
              : null);
    }
  }
}
