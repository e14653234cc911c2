package io.corgipile.ml.sync;

import io.corgipile.ml.SGDParams;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.TrainingRow;
import io.corgipile.source.EpochRounds;
import io.corgipile.source.ReadScope;
import io.corgipile.spark.DatasetInternals;
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
 * with its own buffer, and the model is the same at every partition count above the cap.
 *
 * @param trained the rows as training selects them, planned in {@code rows}' partitions
 * @param rows {@code trained}'s internal rows
 * @param inputPartitions the partitions the input was planned in
 */
record TrainingInput(Dataset<?> trained, JavaRDD<InternalRow> rows, int inputPartitions) {
  private static final Logger LOG = LoggerFactory.getLogger(TrainingInput.class);

  static TrainingInput of(SGDConfig config, Dataset<?> dataset) {
    SparkContext sc = dataset.sparkSession().sparkContext();
    Dataset<?> trained = select(config, dataset);
    JavaRDD<InternalRow> rows = DatasetInternals.internalRows(trained).toJavaRDD();
    int partitions = rows.getNumPartitions();
    Optional<Scan> scan = DatasetInternals.onlyScanWithoutExchange(trained);
    OptionalLong total = scan.map(EpochRounds::rows).orElse(OptionalLong.empty());
    if (total.isEmpty()) {
      return new TrainingInput(trained, rows, partitions);
    }
    int wanted = partitions(total.getAsLong(), partitions, config);
    if (wanted == partitions) {
      return new TrainingInput(trained, rows, partitions);
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
    return new TrainingInput(trained, rows, partitions);
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
