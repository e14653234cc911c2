package io.corgipile.ml.sync;

import io.corgipile.ml.compress.PartitionResidual;
import io.corgipile.ml.compress.QuantizedDelta;
import io.corgipile.ml.sgd.FeatureScaling;
import io.corgipile.ml.sgd.PartitionResult;
import io.corgipile.ml.sgd.PartitionTrainer;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.StartingModel;
import io.corgipile.ml.sgd.StepSchedule;
import io.corgipile.spark.PartitionValues;
import io.corgipile.spark.RoundTraffic;
import io.corgipile.spark.SerializedSize;
import io.corgipile.spark.TaskResultMeter;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.storage.StorageLevel;

/**
 * One round: the starting model broadcast, one Spark job in which every partition trains on its
 * slice, and the partition models averaged by weight sum, in partition order, so the result is the
 * same bit for bit on every run. Partition models are collected when all of them fit in {@code
 * directBytes}, else summed by {@link ScatterReduce}; both add in partition order, so they give the
 * same model.
 *
 * <p>With error feedback every task also gets its partition's residual of the previous round
 * ({@link PartitionValues}: to its task only) and returns the new one with its delta, by either way
 * of merging; the job keeps them for the next round ({@link PartitionResiduals}).
 */
public final class RoundJob {
  private final SGDConfig config;
  private final long directBytes;
  private final int averaged;
  private final Broadcast<FeatureScaling> scaling;
  private final PartitionResiduals residuals; // null without error feedback

  /**
   * @param directBytes the most bytes of partition models the driver collects in a round
   * @param partitions the partitions every round trains
   * @param averaged the partitions averaged every round, 1 when once an epoch ({@link
   *     StepSchedule#rate})
   * @param scaling the features' scaling, null for none
   */
  RoundJob(
      SGDConfig config,
      long directBytes,
      int partitions,
      int averaged,
      Broadcast<FeatureScaling> scaling) {
    this.scaling = scaling;
    this.config = config;
    this.directBytes = directBytes;
    this.averaged = averaged;
    this.residuals = config.errorFeedback() ? new PartitionResiduals(partitions) : null;
  }

  /**
   * A round's partition models averaged; coefficients null when no partition trained on a row of
   * positive weight.
   *
   * @param bytesToExecutors the broadcast model's serialized size, times the executors it reaches,
   *     plus the residuals sent to the tasks
   * @param bytesFromExecutors task results and shuffle writes of the round's jobs
   */
  record Result(
      double[] coefficients,
      double[] intercepts,
      double weightSum,
      double lossSum,
      long rows,
      long skipped,
      long updatesPerPartition,
      long bytesToExecutors,
      long bytesFromExecutors,
      double seconds,
      double[] squaredGradients) {
    /** The mean as the next round's starting model, taken as it is. */
    StartingModel model() {
      return new StartingModel(coefficients, intercepts, updatesPerPartition, squaredGradients);
    }

    /** The merged models with what the round cost. */
    Result withCost(long bytesToExecutors, long bytesFromExecutors, double seconds) {
      return new Result(
          coefficients,
          intercepts,
          weightSum,
          lossSum,
          rows,
          skipped,
          updatesPerPartition,
          bytesToExecutors,
          bytesFromExecutors,
          seconds,
          squaredGradients);
    }
  }

  /**
   * @param round the round's number in the whole run, counted over epochs, naming its jobs for the
   *     meter
   * @param partitionsAverage whether each partition returns the mean of its iterates
   */
  Result run(
      JavaRDD<InternalRow> rows,
      JavaSparkContext jsc,
      TaskResultMeter meter,
      StartingModel model,
      int epoch,
      int round,
      boolean partitionsAverage) {
    String roundId = Integer.toString(round);
    meter.beginRound(roundId);
    long began = System.nanoTime();
    long bytesToExecutors = SerializedSize.broadcast(jsc.sc(), model);
    Broadcast<StartingModel> start = jsc.broadcast(model);
    Result merged;
    try {
      PartitionTrainer trainer =
          new PartitionTrainer(start, scaling, config, epoch, averaged, partitionsAverage);
      JavaRDD<PartitionResult> results;
      if (residuals == null) {
        results = rows.mapPartitions(trainer);
      } else {
        List<PartitionResidual> sent = residuals.toSend();
        for (PartitionResidual residual : sent) {
          bytesToExecutors += SerializedSize.of(residual); // each to one task
        }
        results = PartitionValues.zip(rows, sent, trainer);
      }
      merged = merge(results, start, model, rows.getNumPartitions());
    } finally {
      start.destroy();
    }
    double seconds = (System.nanoTime() - began) / 1e9;
    RoundTraffic traffic = meter.awaitRound(roundId);
    return merged.withCost(
        bytesToExecutors, traffic.resultBytes() + traffic.shuffleBytesWritten(), seconds);
  }

  /**
   * Before the first round the model's size is unknown: the partitions' results are then kept (one
   * model per task, on the executors) while a first job finds the size.
   */
  private Result merge(
      JavaRDD<PartitionResult> results,
      Broadcast<StartingModel> start,
      StartingModel model,
      int partitions) {
    if (model.coefficients() != null) {
      return merge(results, start, model, partitions, model.coefficients().length);
    }
    results.persist(StorageLevel.MEMORY_AND_DISK());
    try {
      int numFeatures = results.map(PartitionResult::numFeatures).fold(0, Math::max);
      return merge(results, start, model, partitions, numFeatures);
    } finally {
      results.unpersist(false);
    }
  }

  private Result merge(
      JavaRDD<PartitionResult> results,
      Broadcast<StartingModel> start,
      StartingModel model,
      int partitions,
      int numFeatures) {
    // a dense model's values, as a partition sends it (coefficients in float64, or a compressed
    // delta, and with error feedback as many again for the residual)
    long perPartition =
        QuantizedDelta.valueBytes(numFeatures, config.deltaCompression())
            * (residuals == null ? 1 : 2);
    if (partitions * perPartition <= directBytes) {
      return merge(results.collect(), null, model);
    }
    int slices = ScatterReduce.slices(partitions, numFeatures);
    ScatterReduce.Sums sums =
        ScatterReduce.reduce(results, start, slices, config::featureSizeMismatch);
    return merge(sums.stats(), sums.mean(), model);
  }

  /**
   * @param results in partition order, with their residuals, which it keeps for the next round
   * @param reduced the models' sums from {@link ScatterReduce}, or null to add up the results'
   *     models
   */
  private Result merge(List<PartitionResult> results, CoordinateMean reduced, StartingModel start) {
    CoordinateMean sum = reduced;
    int numFeatures = -1;
    double[] interceptSums = new double[start.intercepts().length];
    double[] squareSums = null;
    double weightSum = 0;
    double lossSum = 0;
    long rows = 0;
    long skipped = 0;
    long updates = 0;
    int trained = 0;
    for (PartitionResult r : results) {
      skipped += r.skipped();
      if (residuals != null) {
        residuals.keep(r);
      }
      if (!r.trained()) {
        continue;
      }
      if (numFeatures < 0) {
        numFeatures = r.numFeatures();
      } else if (numFeatures != r.numFeatures()) {
        throw config.featureSizeMismatch(r.numFeatures(), numFeatures);
      }
      double w = r.weightSum();
      if (reduced == null) {
        sum = sum == null ? new CoordinateMean(numFeatures) : sum;
        double[] model = r.model(start.coefficients());
        sum.add(model, CoordinateMean.moved(model, start.coefficients(), 0, numFeatures), w, 0);
      }
      for (int k = 0; k < interceptSums.length; k++) {
        interceptSums[k] += w * r.intercepts()[k];
      }
      if (r.squaredGradients() != null) {
        squareSums = squareSums == null ? new double[r.squaredGradients().length] : squareSums;
        for (int j = 0; j < squareSums.length; j++) {
          squareSums[j] += w * r.squaredGradients()[j];
        }
      }
      weightSum += w;
      lossSum += r.lossSum();
      rows += r.rows();
      updates += r.updates();
      trained++;
    }
    if (trained == 0 || !(weightSum > 0)) {
      return new Result(
          null,
          start.intercepts(),
          weightSum,
          lossSum,
          rows,
          skipped,
          start.updatesPerPartition(),
          0,
          0,
          0,
          start.squaredGradients());
    }
    for (int k = 0; k < interceptSums.length; k++) {
      interceptSums[k] /= weightSum;
    }
    for (int j = 0; squareSums != null && j < squareSums.length; j++) {
      squareSums[j] /= weightSum;
    }
    return new Result(
        sum.mean(start.coefficients()),
        interceptSums,
        weightSum,
        lossSum,
        rows,
        skipped,
        start.updatesPerPartition() + updates / trained,
        0,
        0,
        0,
        squareSums);
  }
}
