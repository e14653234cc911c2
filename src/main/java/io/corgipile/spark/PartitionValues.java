package io.corgipile.spark;

import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction2;

/**
 * Sends every task of a job over an RDD a value of its own: value {@code i} reaches the task of
 * partition {@code i}, and that task only, inside its serialized partition. A broadcast would ship
 * every value to every executor; here the values are a collection of one value per partition
 * ({@code parallelize} over as many slices as values: slice {@code i} holds value {@code i}) zipped
 * with the RDD. The collection's values are not in the job's closure (the RDD holds them in a
 * transient field), the zip is narrow (no shuffle), and as the collection has no preferred
 * locations, the zipped partitions have those of the RDD's (the zip takes the union of its parents'
 * where they share none). A retried or moved task gets the same value: it is part of the partition,
 * not of an executor.
 */
public final class PartitionValues {
  private PartitionValues() {}

  /**
   * {@code f} over each partition of {@code rdd} with an iterator over that partition's value: one
   * value, {@code values.get(i)} for partition {@code i}.
   *
   * @param values one per partition of {@code rdd}, in partition order
   */
  public static <T, V extends Serializable, R> JavaRDD<R> zip(
      JavaRDD<T> rdd, List<V> values, FlatMapFunction2<Iterator<T>, Iterator<V>, R> f) {
    int partitions = rdd.getNumPartitions();
    if (values.size() != partitions) {
      throw new IllegalArgumentException(
          "Cannot send each task a value of its own: "
              + values.size()
              + " values for an RDD of "
              + partitions
              + " partitions; it needs one value per partition");
    }
    JavaRDD<V> perPartition =
        JavaSparkContext.fromSparkContext(rdd.context()).parallelize(values, partitions);
    return rdd.zipPartitions(perPartition, f);
  }
}
