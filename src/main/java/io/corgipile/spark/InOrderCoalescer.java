package io.corgipile.spark;

import java.io.Serializable;
import org.apache.spark.Partition;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.PartitionCoalescer;
import org.apache.spark.rdd.PartitionGroup;
import org.apache.spark.rdd.RDD;
import scala.Option;
import scala.reflect.ClassTag;

/**
 * Coalesces an RDD into fewer partitions of consecutive ones, in order: the groups depend only on
 * the partition counts. Spark's own coalescer balances groups by preferred location, with a seeded
 * draw where the parents have locations, so its groups, and a model trained on them, could change
 * with where the parents happen to live (a cached input's blocks after an executor was lost).
 */
public final class InOrderCoalescer implements PartitionCoalescer, Serializable {
  private static final long serialVersionUID = 1L;

  private InOrderCoalescer() {}

  /**
   * {@code rdd} in {@code partitions} partitions, partition {@code i} made of the parents {@code [i
   * * n / partitions, (i + 1) * n / partitions)} of its {@code n}, read one after the other without
   * a shuffle; {@code rdd} itself when it has no more than {@code partitions}.
   */
  public static <T> JavaRDD<T> coalesce(JavaRDD<T> rdd, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException(
          "Cannot coalesce into " + partitions + " partitions: it needs at least 1");
    }
    if (rdd.getNumPartitions() <= partitions) {
      return rdd;
    }
    ClassTag<T> tag = rdd.classTag();
    RDD<T> coalesced =
        rdd.rdd().coalesce(partitions, false, Option.apply(new InOrderCoalescer()), null);
    return new JavaRDD<>(coalesced, tag);
  }

  @Override
  public PartitionGroup[] coalesce(int maxPartitions, RDD<?> parent) {
    Partition[] parents = parent.partitions();
    int n = parents.length;
    int groups = Math.min(maxPartitions, n);
    PartitionGroup[] out = new PartitionGroup[groups];
    for (int g = 0; g < groups; g++) {
      int from = (int) ((long) g * n / groups);
      int to = (int) ((long) (g + 1) * n / groups);
      // the first parent's first preferred location: where the group starts reading
      out[g] = new PartitionGroup(parent.preferredLocations(parents[from]).headOption());
      for (int p = from; p < to; p++) {
        out[g].partitions().addOne(parents[p]);
      }
    }
    return out;
  }
}
