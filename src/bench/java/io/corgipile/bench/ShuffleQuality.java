package io.corgipile.bench;

import io.corgipile.source.ReadScope;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * How well an epoch's stream mixes labels: cut each partition's stream, in the order training reads
 * it, into chunks of the buffer's size and take the variance of the share of positives across all
 * chunks. It is the h_D term of CorgiPile's bound in miniature: about p(1-p)/chunk for a uniform
 * shuffle, up to p(1-p) for label-sorted data read in order.
 */
final class ShuffleQuality {
  private ShuffleQuality() {}

  /**
   * @param train the training input, read again for its {@code label} column (the same order: the
   *     order of a corgipile scan does not depend on the columns read)
   * @param epoch from 0, set as {@code corgipile.epoch} as training sets it
   * @param bufferPercent chunk size as a percent of each partition's rows
   */
  static double of(SparkSession spark, Dataset<Row> train, int epoch, double bufferPercent) {
    try (ReadScope.Saved previous = ReadScope.save(spark.sparkContext())) {
      ReadScope.setEpoch(spark.sparkContext(), epoch);
      List<Double> shares =
          train
              .select("label")
              .javaRDD()
              .mapPartitions((Iterator<Row> rows) -> chunkShares(rows, bufferPercent).iterator())
              .collect();
      return variance(shares);
    }
  }

  /** The share of positives in each chunk of one partition's labels. */
  static List<Double> chunkShares(Iterator<Row> rows, double bufferPercent) {
    BitSet positive = new BitSet();
    int n = 0;
    while (rows.hasNext()) {
      positive.set(n++, rows.next().getDouble(0) > 0.5);
    }
    int chunk = (int) Math.max(1, Math.ceil(n * bufferPercent / 100));
    List<Double> shares = new ArrayList<>();
    for (int start = 0; start + chunk <= n; start += chunk) {
      shares.add((double) positive.get(start, start + chunk).cardinality() / chunk);
    }
    return shares;
  }

  static double variance(List<Double> values) {
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    return values.stream().mapToDouble(v -> (v - mean) * (v - mean)).average().orElse(Double.NaN);
  }
}
