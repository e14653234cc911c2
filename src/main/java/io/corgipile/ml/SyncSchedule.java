package io.corgipile.ml;

import io.corgipile.shuffle.SyncInterval;
import io.corgipile.source.EpochRounds;
import io.corgipile.source.ReadOptions;
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
 * <p>Rounds within an epoch need the {@code corgipile} source feeding the training rows partition for
 * partition (no exchange between), since only that source can read a partition's next slice
 * without reading the slices before it. Over any other input {@code auto} (the default) falls back
 * to one round per epoch (logged); another value the user chose is an error naming the way out, so
 * the data is never read once per round.
 */
final class SyncSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(SyncSchedule.class);

  private final SyncInterval interval;
  private final Scan scan;
  private final String seedProperty;

  private SyncSchedule(SyncInterval interval, Scan scan, String seedProperty) {
    this.interval = interval;
    this.scan = scan;
    this.seedProperty = seedProperty;
  }

  /**
   * @param trained the rows as training reads them
   * @param seedProperty the value the job runs with of the local property {@code corgipile.seed}, or null
   */
  static SyncSchedule of(SGDConfig config, Dataset<?> trained, String seedProperty) {
    SyncInterval interval = config.syncInterval();
    if (interval.isEpoch()) {
      return new SyncSchedule(interval, null, seedProperty);
    }
    Optional<Scan> scan = DatasetInternals.onlyScanWithoutExchange(trained);
    if (scan.isPresent() && EpochRounds.of(scan.get(), 0, seedProperty, interval).isPresent()) {
      return new SyncSchedule(interval, scan.get(), seedProperty);
    }
    String why = DatasetInternals.readsCachedData(trained) ? "the input is cached"
        : scan.isPresent() ? "the input is not read by the corgipile source"
        : "the input does not come from one corgipile scan without a shuffle (repartition, join, aggregation)";
    if (config.syncIntervalSet() && !interval.isAuto()) {
      throw new IllegalArgumentException(config.cannotTrain() + "syncInterval '" + interval + "' averages the"
          + " models several times per epoch, which needs the corgipile source to read each partition's next"
          + " slice per round, but " + why + ". Read the training data with format(\"corgipile\") and train on it"
          + " without a shuffle, or set syncInterval to '" + SyncInterval.EPOCH + "'");
    }
    LOG.info("{}: one round per epoch (syncInterval '{}' needs the corgipile source, but {})",
        config.task().estimatorName(), interval, why);
    return new SyncSchedule(SyncInterval.EPOCH, null, seedProperty);
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
    OptionalInt rounds = EpochRounds.of(scan, epoch, seedProperty, interval.forEpoch(epoch));
    return rounds.orElseThrow(() -> new IllegalStateException("Cannot count the rounds of epoch " + epoch));
  }

  /** Sets the local properties for a job that reads {@code round} of {@code epoch}'s {@code rounds}. */
  void select(SparkContext sc, int epoch, int round, int rounds) {
    sc.setLocalProperty(ReadOptions.EPOCH_LOCAL_PROPERTY, Integer.toString(epoch));
    if (scan != null) {
      sc.setLocalProperty(ReadOptions.SYNC_INTERVAL_LOCAL_PROPERTY, interval.forEpoch(epoch).toString());
      sc.setLocalProperty(ReadOptions.ROUND_LOCAL_PROPERTY, Integer.toString(round));
      sc.setLocalProperty(ReadOptions.ROUNDS_LOCAL_PROPERTY, Integer.toString(rounds));
    }
  }
}
