package io.corgipile.ml.sync;

import io.corgipile.ml.SGDParams;
import io.corgipile.ml.common.Moments;
import io.corgipile.ml.sgd.FeatureScaling;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.TrainingRow;
import io.corgipile.spark.FeatureVector;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The weighted mean and variance of every feature, from one pass over the training rows before the
 * first epoch, for {@code standardization}.
 *
 * <p>Each partition runs Welford's update over its non-zero values only (O(non-zeros) per row, as
 * MLlib's summarizer), then accounts for its zeros; partitions merge by Chan's formula, which stays
 * exact where a sum of squares would cancel (a timestamp's mean is 1e9 of its deviations). Merges
 * run in partition order, so the scaling is the same bit for bit on every run: on the driver when
 * the partitions' moments fit in {@code directBytes}, else by coordinate ranges on reducers (as
 * {@link ScatterReduce} does for models), so no task or driver holds more than one model's worth of
 * them.
 */
public final class FeatureSummary {
  /**
   * Centering needs at least this share of the values non-zero: on sparse rows it would move every
   * coordinate.
   */
  static final double MIN_DENSITY_TO_CENTER = 0.5;

  private FeatureSummary() {}

  /**
   * The scaling training applies, or null when no row has a positive weight (training then says
   * so).
   *
   * @param rows the training rows, {@link TrainingRow}'s layout
   * @param directBytes the most bytes of partition moments the driver collects
   */
  public static Result scaling(
      JavaRDD<InternalRow> rows, SGDConfig config, long directBytes, long seed) {
    int perPartition = samplePerPartition(config, rows.getNumPartitions());
    JavaRDD<PartitionSummary> summaries =
        rows.mapPartitionsWithIndex(
            (partition, it) -> summarize(partition, it, config, perPartition, seed), true);
    summaries.persist(StorageLevel.MEMORY_AND_DISK());
    JavaRDD<Moments> parts =
        summaries.filter(p -> p.moments() != null).map(PartitionSummary::moments);
    Moments total;
    List<InternalRow> sample = new ArrayList<>();
    try {
      int numFeatures = parts.map(Moments::numFeatures).fold(0, Math::max);
      int partitions = rows.getNumPartitions();
      if ((long) partitions * numFeatures * 2 * Double.BYTES <= directBytes) {
        total = mergeInOrder(new ArrayList<>(parts.collect()), config);
      } else {
        total = reduceBySlices(parts, ScatterReduce.slices(partitions, numFeatures), config);
      }
      for (List<InternalRow> part : summaries.map(PartitionSummary::sample).collect()) {
        sample.addAll(part); // in partition order
      }
    } finally {
      summaries.unpersist(false);
    }
    Collections.shuffle(sample, new Random(sampleSeed(seed, -1)));
    boolean weighted = total != null && total.weight() > 0;
    return new Result(
        weighted ? scaling(total, config) : null, sample, weighted ? total.rows() : 0);
  }

  /**
   * What the pass found.
   *
   * @param scaling the scaling training applies, or null when no row has a positive weight
   * @param sample about {@code calibrationRows} valid rows of positive weight, drawn uniformly
   *     within each partition, the same number from each, in a random order: for {@link
   *     io.corgipile.ml.sgd.StepCalibration}, a sample of all the data where the first rows of a
   *     partition are the few blocks of its first buffers, on clustered data a few labels
   * @param rows the valid rows of positive weight, those training reads
   */
  public record Result(FeatureScaling scaling, List<InternalRow> sample, long rows) {}

  /** A partition's moments (absent when it has no row of positive weight) and sampled rows. */
  private record PartitionSummary(Moments moments, List<InternalRow> sample)
      implements Serializable {}

  private static int samplePerPartition(SGDConfig config, int partitions) {
    int rows = config.get(SGDParams.CALIBRATION_ROWS);
    return (int) Math.ceil((double) rows / Math.max(1, partitions));
  }

  /** The seed of partition {@code partition}'s draws, and of the sample's order (-1). */
  private static long sampleSeed(long seed, int partition) {
    return seed * 31 + partition;
  }

  private static FeatureScaling scaling(Moments total, SGDConfig config) {
    int n = total.numFeatures();
    double density = n == 0 ? 0 : total.nonZeros() / ((double) total.rows() * n);
    boolean center =
        config.get(SGDParams.FIT_INTERCEPT) && config.l1() == 0 && density >= MIN_DENSITY_TO_CENTER;
    double[] inverseStd = new double[n];
    double[] scaledMean = center ? new double[n] : null;
    for (int j = 0; j < n; j++) {
      double std = Math.sqrt(total.m2()[j] / total.weight());
      inverseStd[j] = std > 0 ? 1 / std : 0;
      if (center) {
        scaledMean[j] = total.mean()[j] * inverseStd[j];
      }
    }
    return new FeatureScaling(inverseStd, scaledMean);
  }

  private static Iterator<PartitionSummary> summarize(
      int partition, Iterator<InternalRow> it, SGDConfig config, int sampleSize, long seed) {
    FeatureVector x = TrainingRow.features(config);
    boolean weighted = config.weighted();
    List<InternalRow> sample = new ArrayList<>(sampleSize);
    Random draws = new Random(sampleSeed(seed, partition));
    double weight = 0;
    long rows = 0;
    long nonZeros = 0;
    double[] nonZeroWeight = null;
    double[] mean = null;
    double[] m2 = null;
    while (it.hasNext()) {
      InternalRow row = it.next();
      String problem = TrainingRow.problem(config, row);
      if (problem == null) {
        x.pointTo(row);
        problem = TrainingRow.nonFiniteFeature(config, x);
      }
      if (problem != null) {
        if (!config.skipInvalid()) {
          throw TrainingRow.invalid(config, problem);
        }
        continue;
      }
      if (mean == null) {
        nonZeroWeight = new double[x.size()];
        mean = new double[x.size()];
        m2 = new double[x.size()];
      } else if (x.size() != mean.length) {
        throw config.featureSizeMismatch(x.size(), mean.length);
      }
      double w = TrainingRow.weight(row, weighted);
      if (w == 0) {
        continue; // as training does: a row of weight 0 is absent
      }
      weight += w;
      rows++;
      // reservoir sampling (Algorithm R): every row of the partition kept with equal chance
      if (sample.size() < sampleSize) {
        sample.add(row.copy());
      } else {
        long slot = (long) (draws.nextDouble() * rows);
        if (slot < sampleSize) {
          sample.set((int) slot, row.copy());
        }
      }
      for (int k = 0, n = x.numStored(); k < n; k++) {
        double value = x.value(k);
        if (value == 0) {
          continue;
        }
        int j = x.index(k);
        nonZeros++;
        nonZeroWeight[j] += w;
        double delta = value - mean[j];
        mean[j] += delta * (w / nonZeroWeight[j]);
        m2[j] += w * delta * (value - mean[j]);
      }
    }
    if (mean == null || weight == 0) {
      return List.of(new PartitionSummary(null, sample)).iterator();
    }
    // the zeros the loop skipped: fold them into each feature's mean and squared deviations
    for (int j = 0; j < mean.length; j++) {
      double nz = nonZeroWeight[j];
      if (nz == weight) {
        continue;
      }
      double full = mean[j] * (nz / weight);
      double shift = mean[j] - full;
      m2[j] += nz * shift * shift + (weight - nz) * full * full;
      mean[j] = full;
    }
    return List.of(
            new PartitionSummary(
                new Moments(partition, mean.length, 0, weight, rows, nonZeros, mean, m2), sample))
        .iterator();
  }

  /** Merges in partition order; null when there are none. */
  private static Moments mergeInOrder(List<Moments> parts, SGDConfig config) {
    parts.sort(Comparator.comparingInt(Moments::partition));
    Moments total = null;
    for (Moments p : parts) {
      if (total != null && p.numFeatures() != total.numFeatures()) {
        throw config.featureSizeMismatch(p.numFeatures(), total.numFeatures());
      }
      total = total == null ? p : total.merge(p);
    }
    return total;
  }

  private static Moments reduceBySlices(JavaRDD<Moments> parts, int slices, SGDConfig config) {
    List<Moments> merged =
        parts
            .flatMapToPair(
                p -> {
                  List<Tuple2<Integer, Moments>> out = new ArrayList<>(slices);
                  for (int s = 0; s < slices; s++) {
                    out.add(
                        new Tuple2<>(
                            s,
                            p.slice(
                                ScatterReduce.start(s, slices, p.numFeatures()),
                                ScatterReduce.start(s + 1, slices, p.numFeatures()))));
                  }
                  return out.iterator();
                })
            .partitionBy(new HashPartitioner(slices))
            .mapPartitions(
                it -> {
                  List<List<Moments>> bySlice = new ArrayList<>();
                  while (it.hasNext()) {
                    Tuple2<Integer, Moments> t = it.next();
                    while (bySlice.size() <= t._1()) {
                      bySlice.add(new ArrayList<>());
                    }
                    bySlice.get(t._1()).add(t._2());
                  }
                  List<Moments> out = new ArrayList<>();
                  for (List<Moments> slice : bySlice) {
                    if (!slice.isEmpty()) {
                      out.add(mergeInOrder(slice, config));
                    }
                  }
                  return out.iterator();
                })
            .collect();
    if (merged.isEmpty()) {
      return null;
    }
    Moments first = merged.get(0);
    int n = first.numFeatures();
    double[] mean = new double[n];
    double[] m2 = new double[n];
    for (Moments m : merged) {
      System.arraycopy(m.mean(), 0, mean, m.from(), m.mean().length);
      System.arraycopy(m.m2(), 0, m2, m.from(), m.m2().length);
    }
    return new Moments(-1, n, 0, first.weight(), first.rows(), first.nonZeros(), mean, m2);
  }
}
