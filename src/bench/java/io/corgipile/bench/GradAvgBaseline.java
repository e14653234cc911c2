package io.corgipile.bench;

import io.corgipile.shuffle.EpochSeeds;
import io.corgipile.shuffle.SplitMix64;
import io.corgipile.spark.RoundTraffic;
import io.corgipile.spark.SerializedSize;
import io.corgipile.spark.TaskResultMeter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * The baseline of {@code scripts/bench scale --sync gradavg}: LambdaML's gradient averaging per
 * mini-batch, in Spark terms, for logistic regression with an intercept and no regularization.
 * Every step is one Spark job: each partition computes the logistic-loss gradient of its next
 * mini-batch at the broadcast model, the driver sums the partitions' gradients and takes one step
 * {@code w -= learningRate * meanGradient} at a constant rate, as LambdaML trains: a step's
 * mini-batches hold about 1/stepsPerEpoch of the rows, so its gradient is close to the full one,
 * and a rate decaying as 1/sqrt(step) would only shrink the few steps an epoch has; the benchmark
 * tunes the constant over a grid instead.
 *
 * <p>Each partition's rows are cached in memory once, as MLlib's optimizers do, in the order the
 * input gave them; every epoch a partition visits them in a permutation drawn from the seed, the
 * epoch and the partition, cut into consecutive mini-batches of {@code b} rows, so an epoch visits
 * every row exactly once. {@code b} is the largest partition's rows over the steps asked for,
 * rounded up, and an epoch has as many steps as the largest partition has mini-batches; smaller
 * partitions run out early and send empty gradients after.
 *
 * <p>Partitions' gradients are collected and summed on the driver in partition order rather than by
 * {@code treeAggregate}, whose merges follow the order tasks finish in: the model is then the same
 * bit for bit on every run.
 */
final class GradAvgBaseline {
  private GradAvgBaseline() {}

  /**
   * The model after one epoch and what the epoch cost.
   *
   * @param rows rows whose gradient the epoch's steps computed, over all partitions
   * @param seconds wall time of the epoch's steps; the first epoch's includes caching the input
   * @param bytesToExecutors each step's broadcast model, serialized, times the executors it reaches
   * @param bytesFromExecutors task results of the steps' jobs, as Spark's task metrics count them
   */
  record EpochResult(
      double[] coefficients,
      double intercept,
      int steps,
      long rows,
      double seconds,
      long bytesToExecutors,
      long bytesFromExecutors) {}

  /** One partition's cached rows: features and 0/1 labels. */
  private record Rows(Vector[] features, double[] labels) implements Serializable {}

  /**
   * Trains on {@code train}'s {@code features} (vectors) and {@code label} (0 or 1) columns, as its
   * partitions are.
   *
   * @param stepsPerEpoch the steps an epoch should take; the largest partition's mini-batches
   */
  static List<EpochResult> train(
      Dataset<Row> train, int epochs, int stepsPerEpoch, double learningRate, long seed) {
    if (stepsPerEpoch < 1) {
      throw new IllegalArgumentException(
          "Cannot train gradavg with " + stepsPerEpoch + " steps per epoch: it needs at least 1");
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(train.sparkSession().sparkContext());
    List<EpochResult> results = new ArrayList<>();
    long began = System.nanoTime();
    JavaRDD<Rows> cached =
        train
            .select("features", "label")
            .javaRDD()
            .mapPartitions(GradAvgBaseline::rows)
            .persist(StorageLevel.MEMORY_ONLY());
    String run = "gradavg-" + UUID.randomUUID();
    try (TaskResultMeter meter = TaskResultMeter.start(jsc.sc(), run)) {
      // caches the rows, and sizes the batches and the model
      List<int[]> sizes =
          cached
              .map(
                  r ->
                      new int[] {
                        r.labels().length, r.labels().length == 0 ? 0 : r.features()[0].size()
                      })
              .collect();
      int largest = sizes.stream().mapToInt(s -> s[0]).max().orElse(0);
      int numFeatures = sizes.stream().mapToInt(s -> s[1]).max().orElse(0);
      if (largest == 0) {
        throw new IllegalArgumentException("Cannot train gradavg: the input has no rows");
      }
      int batch = (largest + stepsPerEpoch - 1) / stepsPerEpoch;
      int steps = (largest + batch - 1) / batch;
      double[] model = new double[numFeatures + 1]; // the intercept last
      int step = 0;
      for (int epoch = 0; epoch < epochs; epoch++) {
        long rows = 0;
        long bytesTo = 0;
        long bytesFrom = 0;
        // the epoch's order, drawn once per partition rather than again by every step
        int e = epoch;
        JavaRDD<Rows> ordered =
            cached
                .mapPartitionsWithIndex(
                    (partition, it) -> List.of(inOrder(it.next(), seed, e, partition)).iterator(),
                    true)
                .persist(StorageLevel.MEMORY_ONLY());
        try {
          for (int s = 0; s < steps; s++) {
            String stepId = Integer.toString(step++);
            meter.beginRound(stepId);
            bytesTo += SerializedSize.broadcast(jsc.sc(), model);
            double[] sum = step(ordered, jsc.broadcast(model), s, batch);
            rows += (long) sum[numFeatures + 1];
            for (int j = 0; j <= numFeatures; j++) {
              model[j] -= learningRate * sum[j] / sum[numFeatures + 1];
            }
            RoundTraffic traffic = meter.awaitRound(stepId);
            bytesFrom += traffic.resultBytes() + traffic.shuffleBytesWritten();
          }
        } finally {
          ordered.unpersist(false);
        }
        long now = System.nanoTime();
        results.add(
            new EpochResult(
                Arrays.copyOf(model, numFeatures),
                model[numFeatures],
                steps,
                rows,
                (now - began) / 1e9,
                bytesTo,
                bytesFrom));
        began = now;
      }
    } finally {
      cached.unpersist(false);
    }
    return results;
  }

  /**
   * One step's job: the partitions' gradient sums at {@code model}, added in partition order, with
   * the rows they cover last.
   */
  private static double[] step(
      JavaRDD<Rows> ordered, Broadcast<double[]> model, int step, int batch) {
    try {
      List<double[]> gradients =
          ordered.map(rows -> gradient(rows, model.value(), step, batch)).collect();
      double[] sum = new double[gradients.get(0).length];
      for (double[] g : gradients) {
        for (int j = 0; j < sum.length; j++) {
          sum[j] += g[j];
        }
      }
      return sum;
    } finally {
      model.destroy();
    }
  }

  /**
   * The logistic-loss gradient summed over mini-batch {@code step} of a partition's rows in the
   * epoch's order: one entry per coefficient, the intercept's, then the rows summed over.
   */
  private static double[] gradient(Rows rows, double[] model, int step, int batch) {
    int n = rows.labels().length;
    int d = model.length - 1;
    double[] g = new double[d + 2];
    for (int i = Math.min(n, step * batch); i < Math.min(n, (step + 1) * batch); i++) {
      Vector x = rows.features()[i];
      double margin = model[d];
      if (x instanceof SparseVector sparse) {
        for (int a = 0; a < sparse.indices().length; a++) {
          margin += model[sparse.indices()[a]] * sparse.values()[a];
        }
      } else {
        double[] values = ((DenseVector) x).values();
        for (int j = 0; j < d; j++) {
          margin += model[j] * values[j];
        }
      }
      // d/dmargin of log(1 + e^margin) - y * margin
      double residual = 1 / (1 + Math.exp(-margin)) - rows.labels()[i];
      if (x instanceof SparseVector sparse) {
        for (int a = 0; a < sparse.indices().length; a++) {
          g[sparse.indices()[a]] += residual * sparse.values()[a];
        }
      } else {
        double[] values = ((DenseVector) x).values();
        for (int j = 0; j < d; j++) {
          g[j] += residual * values[j];
        }
      }
      g[d] += residual;
      g[d + 1]++;
    }
    return g;
  }

  /** A partition's cached rows in the order it visits them during {@code epoch}. */
  private static Rows inOrder(Rows rows, long seed, int epoch, int partition) {
    int n = rows.labels().length;
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    SplitMix64 random =
        new EpochSeeds(seed).random(epoch, partition, EpochSeeds.Purpose.TUPLE_ORDER);
    random.shuffle(order, n);
    Vector[] features = new Vector[n];
    double[] labels = new double[n];
    for (int k = 0; k < n; k++) {
      features[k] = rows.features()[order[k]];
      labels[k] = rows.labels()[order[k]];
    }
    return new Rows(features, labels);
  }

  private static Iterator<Rows> rows(Iterator<Row> it) {
    List<Vector> features = new ArrayList<>();
    List<Double> labels = new ArrayList<>();
    while (it.hasNext()) {
      Row r = it.next();
      features.add((Vector) r.get(0));
      labels.add(r.getDouble(1));
    }
    return List.of(
            new Rows(
                features.toArray(new Vector[0]),
                labels.stream().mapToDouble(Double::doubleValue).toArray()))
        .iterator();
  }
}
