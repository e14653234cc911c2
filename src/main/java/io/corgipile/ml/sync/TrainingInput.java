package io.corgipile.ml.sync;

import io.corgipile.ml.SGDParams;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.TrainingRow;
import io.corgipile.source.EpochRounds;
import io.corgipile.source.ReadScope;
import io.corgipile.spark.DatasetInternals;
import io.corgipile.spark.InOrderCoalescer;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Scan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The training rows, in the partitions training runs in. Each partition trains its own model
 * between averages, so a partition of few rows takes few steps a round, and the model would depend
 * on how finely the input happens to be split: an input of R rows in more than {@code R /
 * minPartitionRows} partitions is read in that many (at least one). A {@code corgipile} input is
 * planned again under {@link ReadScope#setMaxPartitions}, so its partitions are whole ones, each
 * with its own buffer, and the model is the same at every partition count above the cap. Any other
 * input's row count is known only after a pass ({@link #sized}): its partitions are then coalesced,
 * consecutive ones together ({@link InOrderCoalescer}).
 *
 * @param trained the rows as training selects them, planned in {@code rows}' partitions
 * @param rows {@code trained}'s internal rows
 * @param seed the seed the input is read with: the estimator's, else a {@code corgipile} scan's
 *     option, else the param's default; what else training draws at random draws from it too
 * @param sized whether {@code rows}' partitions were chosen knowing the row count
 */
record TrainingInput(Dataset<?> trained, JavaRDD<InternalRow> rows, long seed, boolean sized) {
  private static final Logger LOG = LoggerFactory.getLogger(TrainingInput.class);

  static TrainingInput of(SGDConfig config, Dataset<?> dataset) {
    SparkContext sc = dataset.sparkSession().sparkContext();
    Dataset<?> trained = select(config, dataset);
    JavaRDD<InternalRow> rows = DatasetInternals.internalRows(trained).toJavaRDD();
    int partitions = rows.getNumPartitions();
    Optional<Scan> scan = DatasetInternals.onlyScanWithoutExchange(trained);
    long seed =
        config.seed() != null
            ? config.seed()
            : scan.map(EpochRounds::seed)
                .orElse(OptionalLong.empty())
                .orElse(SGDParams.SEED.defaultValue());
    OptionalLong total = scan.map(EpochRounds::rows).orElse(OptionalLong.empty());
    if (total.isEmpty()) {
      return new TrainingInput(trained, rows, seed, partitions == 1);
    }
    int wanted = partitions(total.getAsLong(), partitions, config);
    if (wanted == partitions) {
      return new TrainingInput(trained, rows, seed, true);
    }
    ReadScope.setMaxPartitions(sc, wanted);
    try {
      trained = select(config, dataset);
      rows = DatasetInternals.internalRows(trained).toJavaRDD(); // plans the scan under the cap
    } finally {
      ReadScope.setMaxPartitions(sc, null);
    }
    LOG.info(
        "{}: training in {} partitions of the corgipile input's {} ({} rows, minPartitionRows {})",
        config.task().estimatorName(),
        rows.getNumPartitions(),
        partitions,
        total.getAsLong(),
        config.get(SGDParams.MIN_PARTITION_ROWS));
    return new TrainingInput(trained, rows, seed, true);
  }

  /**
   * This input in the partitions its rows fill: itself when they were chosen knowing the row count,
   * else coalesced.
   *
   * @param counted the training rows when a pass counted them (the feature summary), else empty:
   *     then a Spark {@code count()} of the input, which reads no column where the source can
   */
  TrainingInput sized(SGDConfig config, OptionalLong counted) {
    if (sized) {
      return this;
    }
    long total = counted.isPresent() ? counted.getAsLong() : trained.count();
    int partitions = rows.getNumPartitions();
    int wanted = partitions(total, partitions, config);
    if (wanted == partitions) {
      return new TrainingInput(trained, rows, seed, true);
    }
    LOG.info(
        "{}: training in {} partitions, each of consecutive ones of the input's {} ({} rows,"
            + " minPartitionRows {})",
        config.task().estimatorName(),
        wanted,
        partitions,
        total,
        config.get(SGDParams.MIN_PARTITION_ROWS));
    return new TrainingInput(trained, InOrderCoalescer.coalesce(rows, wanted), seed, true);
  }

  /** The partitions {@code rows} rows train in, given the input's {@code partitions}. */
  static int partitions(long rows, int partitions, SGDConfig config) {
    long filled = rows / config.get(SGDParams.MIN_PARTITION_ROWS);
    return (int) Math.max(1, Math.min(partitions, filled));
  }

  private static Dataset<?> select(SGDConfig config, Dataset<?> dataset) {
    return dataset.select(TrainingRow.columns(config, dataset));
  }
}
