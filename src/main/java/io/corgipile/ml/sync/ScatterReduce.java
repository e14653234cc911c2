package io.corgipile.ml.sync;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.sgd.PartitionResult;
import io.corgipile.ml.sgd.StartingModel;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/**
 * Sums the weighted partition models ({@link CoordinateMean}) without any task or the driver
 * holding more than one model's worth of them (LambdaML's ScatterReduce): every partition cuts its
 * model into {@code slices} ranges of coordinates, reducer {@code s} adds up range {@code s} of all
 * partitions, and the driver receives the sums, one model in all. Each reducer adds in partition
 * order, so the sums are the same bit for bit as a driver adding all models in partition order
 * would get. A compressed delta is decoded onto the round's start before it is cut, so the shuffle
 * carries float64 slices. A partition's statistics travel whole, with its residual under error
 * feedback; they are spread over the reducers by partition, so no reducer holds every partition's
 * residual (or {@code adagrad}'s sums).
 */
public final class ScatterReduce {
  private ScatterReduce() {}

  /**
   * One partition's part in a reduction: its statistics (slice -1) or one range of its weighted
   * model.
   */
  record Part(
      int slice,
      int partition,
      PartitionResult stats,
      int numFeatures,
      double weight,
      double[] values,
      long[] moved,
      CoordinateMean mean)
      implements Serializable {}

  /**
   * What the reducers return: the partitions' statistics in partition order, and the models' mean
   * sums.
   */
  record Sums(List<PartitionResult> stats, CoordinateMean mean) {}

  /**
   * @param results one result per partition, computed once
   * @param start the round's starting model, which a compressed delta changes
   * @param slices reducers, at least 1
   * @param featureSizeMismatch the error when partitions' models differ in size
   */
  static Sums reduce(
      JavaRDD<PartitionResult> results,
      Broadcast<StartingModel> start,
      int slices,
      SizeMismatch featureSizeMismatch) {
    List<Tuple2<Integer, Part>> reduced =
        results
            .mapPartitionsWithIndex(
                (partition, it) -> scatter(partition, it, start.value().coefficients(), slices),
                true)
            .mapToPair(p -> new Tuple2<>(reducer(p, slices), p))
            .partitionBy(new HashPartitioner(slices + 1))
            .mapPartitions(it -> reduceSlices(it, featureSizeMismatch))
            .collect();
    List<PartitionResult> stats = new ArrayList<>();
    CoordinateMean mean = null;
    for (Tuple2<Integer, Part> t : reduced) {
      Part p = t._2();
      if (p.slice() < 0) {
        stats.add(p.stats());
        continue;
      }
      if (mean == null) {
        mean = new CoordinateMean(p.numFeatures());
      }
      mean.put(p.mean(), start(p.slice(), slices, p.numFeatures()));
    }
    stats.sort(Comparator.comparingInt(PartitionResult::partition));
    return new Sums(stats, mean);
  }

  /**
   * The reducers for a model of {@code numFeatures} from {@code partitions} partitions: one per
   * partition, at least 1.
   */
  static int slices(int partitions, int numFeatures) {
    return Math.max(1, Math.min(partitions, numFeatures));
  }

  /**
   * The reducer of a part: {@code s + 1} for slice {@code s}, any of the {@code slices + 1} for a
   * partition's statistics.
   */
  private static int reducer(Part part, int slices) {
    return part.slice() < 0 ? part.partition() % (slices + 1) : part.slice() + 1;
  }

  /** Coordinates {@code [start(s), start(s + 1))} are slice s. */
  static int start(int slice, int slices, int numFeatures) {
    return (int) ((long) slice * numFeatures / slices);
  }

  private static Iterator<Part> scatter(
      int partition, Iterator<PartitionResult> it, double[] start, int slices) {
    List<Part> parts = new ArrayList<>();
    while (it.hasNext()) {
      PartitionResult r = it.next();
      parts.add(new Part(-1, partition, r.withoutModel(), 0, 0, null, null, null));
      if (!r.trained()) {
        continue;
      }
      double[] w = r.model(start);
      for (int s = 0; s < slices; s++) {
        int from = start(s, slices, w.length);
        int to = start(s + 1, slices, w.length);
        double[] values = new double[to - from];
        System.arraycopy(w, from, values, 0, values.length);
        parts.add(
            new Part(
                s,
                partition,
                null,
                w.length,
                r.weightSum(),
                values,
                CoordinateMean.moved(w, start, from, values.length),
                null));
      }
    }
    return parts.iterator();
  }

  /**
   * A reducer's output: the statistics as they came, and per slice its weighted sum over
   * partitions.
   */
  private static Iterator<Tuple2<Integer, Part>> reduceSlices(
      Iterator<Tuple2<Integer, Part>> it, SizeMismatch featureSizeMismatch) {
    List<Part> stats = new ArrayList<>();
    List<List<Part>> bySlice = new ArrayList<>();
    while (it.hasNext()) {
      Part p = it.next()._2();
      if (p.slice() < 0) {
        stats.add(p);
        continue;
      }
      while (bySlice.size() <= p.slice()) {
        bySlice.add(new ArrayList<>());
      }
      bySlice.get(p.slice()).add(p);
    }
    List<Tuple2<Integer, Part>> out = new ArrayList<>();
    for (Part p : stats) {
      out.add(new Tuple2<>(-1, p));
    }
    for (List<Part> parts : bySlice) {
      if (parts.isEmpty()) {
        continue;
      }
      parts.sort(Comparator.comparingInt(Part::partition));
      Part first = parts.get(0);
      CoordinateMean mean = new CoordinateMean(first.values().length);
      for (Part p : parts) {
        if (p.numFeatures() != first.numFeatures()) {
          throw featureSizeMismatch.error(p.numFeatures(), first.numFeatures());
        }
        mean.add(p.values(), p.moved(), p.weight(), 0);
      }
      out.add(
          new Tuple2<>(
              first.slice(),
              new Part(first.slice(), -1, null, first.numFeatures(), 0, null, null, mean)));
    }
    return out.iterator();
  }

  /** Builds the error for models of different sizes; serializable, as reducers raise it. */
  interface SizeMismatch extends Serializable {
    InvalidTrainingDataException error(int size, int otherSize);
  }
}
