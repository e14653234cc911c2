package io.corgipile.ml.sync;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.ml.common.FitJobs;
import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.sgd.FeatureScaling;
import io.corgipile.ml.sgd.PartitionTrainer;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.StartingModel;
import io.corgipile.ml.sgd.StepCalibration;
import io.corgipile.source.ReadScope;
import io.corgipile.spark.DatasetInternals;
import io.corgipile.spark.TaskResultMeter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's loop: with standardization, one job summarizing the features first ({@link
 * FeatureSummary}); then one Spark job per round, one or more per epoch. Before each, the thread's
 * {@link ReadScope} is set to the epoch (and the round), so a {@code corgipile} input yields that
 * epoch's order without being planned again; it runs inside {@link FitJobs#run}, which sets the
 * thread's scope back afterwards. Every partition runs {@link PartitionTrainer} from the broadcast
 * model, and the partition models are averaged by their weight sums, in partition order so the
 * result is the same bit for bit on every run.
 */
public final class SGDOptimizer {
  private static final Logger LOG = LoggerFactory.getLogger(SGDOptimizer.class);

  /**
   * The most bytes of partition models the driver collects in a round; above it they are summed by
   * {@link ScatterReduce}, which costs a shuffle but holds at most one model per task and driver.
   */
  public static final long DIRECT_BYTES = 64L << 20;

  private final SGDConfig config;
  private final long directBytes;

  public SGDOptimizer(SGDConfig config) {
    this(config, DIRECT_BYTES);
  }

  /**
   * @param directBytes see {@link #DIRECT_BYTES}; tests lower it to exercise the reduction
   */
  public SGDOptimizer(SGDConfig config, long directBytes) {
    this.config = config;
    this.directBytes = directBytes;
  }

  /** Trains on {@code dataset}: the model, with its training summary. */
  public LinearFit optimize(Dataset<?> dataset) {
    if (DatasetInternals.readsCachedData(dataset)) {
      LOG.warn(
          "{} reads a cached input: every epoch sees the rows in the cached order, so a corgipile"
              + " source cannot give a new order per epoch. Train on the uncached DataFrame to"
              + " reshuffle every epoch (CrossValidator and TrainValidationSplit cache their folds,"
              + " so there this is expected).",
          config.task().estimatorName());
    }
    SparkContext sc = dataset.sparkSession().sparkContext();
    if (config.seed() != null) {
      ReadScope.setSeed(sc, config.seed());
    }
    TrainingInput input = TrainingInput.of(config, dataset);
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);
    String runId = UUID.randomUUID().toString(); // names this run's rounds, never enters the model
    SyncSchedule schedule = SyncSchedule.of(config, input.trained(), ReadScope.seed(sc));
    FeatureSummary.Result summary =
        config.get(SGDParams.STANDARDIZATION)
            ? featureSummary(input.rows(), sc, input.seed())
            : null;
    if (!input.sized()) {
      FitJobs.describe(sc, config.task().estimatorName(), "row count (minPartitionRows)");
    }
    input =
        input.sized(
            config, summary == null ? OptionalLong.empty() : OptionalLong.of(summary.rows()));
    JavaRDD<InternalRow> rows = input.rows();
    FeatureScaling scaling = summary == null ? null : summary.scaling();
    SGDConfig run =
        config.stepSizeSet()
            ? config
            : calibrated(
                rows, sc, input.seed(), scaling, summary == null ? null : summary.sample());
    Broadcast<FeatureScaling> scalingBroadcast = scaling == null ? null : jsc.broadcast(scaling);
    try (TaskResultMeter meter = TaskResultMeter.start(sc, runId)) {
      return epochs(run, rows, sc, jsc, schedule, meter, scalingBroadcast);
    } finally {
      if (scalingBroadcast != null) {
        scalingBroadcast.destroy();
      }
    }
  }

  /**
   * The pass before the first epoch that standardization needs: the whole of epoch 0's input in one
   * job, whatever round properties the thread holds, in any order (a corgipile source then reads
   * its blocks straight through, at the cost of a plain scan, not of an epoch). Null when no row
   * has a positive weight.
   */
  private FeatureSummary.Result featureSummary(
      JavaRDD<InternalRow> rows, SparkContext sc, long seed) {
    readEpochZero(sc, "feature summary (standardization)");
    long began = System.nanoTime();
    FeatureSummary.Result summary;
    ReadScope.setAnyOrder(sc, true);
    try {
      summary = FeatureSummary.scaling(rows, config, directBytes, seed);
    } finally {
      ReadScope.setAnyOrder(sc, false);
    }
    FeatureScaling scaling = summary.scaling();
    LOG.info(
        String.format(
            Locale.ROOT,
            "%s: features summarized for standardization in %.2f s (%s)",
            config.task().estimatorName(),
            (System.nanoTime() - began) / 1e9,
            scaling == null
                ? "no row of positive weight"
                : scaling.centered() ? "scaled and centered" : "scaled"));
    return summary;
  }

  /**
   * Sets the thread's scope for a job that reads epoch 0's input whole, whatever round the thread
   * held.
   */
  private void readEpochZero(SparkContext sc, String job) {
    ReadScope.setEpoch(sc, 0);
    ReadScope.setWholeEpoch(sc);
    FitJobs.describe(sc, config.task().estimatorName(), job);
  }

  /**
   * The run's settings with {@code stepSize} chosen by {@link StepCalibration}, as it was not set.
   *
   * @param drawn the sample the feature summary drew, or null: then the first rows of every
   *     partition, in an order drawn from {@code seed}
   */
  private SGDConfig calibrated(
      JavaRDD<InternalRow> rows,
      SparkContext sc,
      long seed,
      FeatureScaling scaling,
      List<InternalRow> drawn) {
    long began = System.nanoTime();
    StepCalibration calibration = new StepCalibration(config, scaling);
    List<InternalRow> sample = drawn;
    if (sample == null) {
      readEpochZero(sc, "step size calibration");
      sample = calibration.sample(rows, seed);
    }
    StepCalibration.Choice choice = calibration.choose(sample);
    LOG.info(
        String.format(
            Locale.ROOT,
            "%s: stepSize %s chosen on %,d rows %s in %.2f s (objective"
                + " after one pass per step: %s)",
            config.task().estimatorName(),
            choice.stepSize(),
            choice.sampleRows(),
            drawn == null ? "first in every partition" : "drawn from every partition",
            (System.nanoTime() - began) / 1e9,
            choice.describe()));
    return config.withStepSize(choice.stepSize());
  }

  /**
   * @param config this run's settings: the estimator's, with the step size the calibration chose
   */
  private LinearFit epochs(
      SGDConfig config,
      JavaRDD<InternalRow> rows,
      SparkContext sc,
      JavaSparkContext jsc,
      SyncSchedule schedule,
      TaskResultMeter meter,
      Broadcast<FeatureScaling> scaling) {
    String name = config.task().estimatorName();
    StartingModel model = StartingModel.initial(config.numMargins());
    TrainingHistory history =
        new TrainingHistory(
            scaling == null ? null : scaling.value(), config.stepSize(), rows.getNumPartitions());
    EarlyStopping stopping =
        new EarlyStopping(config.get(SGDParams.TOL), config.get(SGDParams.N_ITER_NO_CHANGE));
    int partitions = rows.getNumPartitions();
    RoundJob job =
        new RoundJob(config, directBytes, partitions, schedule.sliced() ? partitions : 1, scaling);
    // Between the rounds of an epoch; its velocity carries over to the next epoch's rounds.
    ServerStep server =
        new ServerStep(config.get(SGDParams.SYNC_STEP_SIZE), config.get(SGDParams.SYNC_MOMENTUM));
    int roundsSoFar = 0;
    int maxIter = config.get(SGDParams.MAX_ITER);
    for (int epoch = 0; epoch < maxIter; epoch++) {
      int thisEpoch = epoch; // for the job's lambda
      int rounds = schedule.rounds(epoch);
      // With one round, each partition averages its iterates (from the second epoch on: the first
      // is
      // burn-in, its early iterates far from the optimum). With several, a partition's pass is too
      // short for that, so the driver averages the rounds' models instead, in the first epoch those
      // of
      // its second half: its last round alone left epoch-1 accuracy at the mercy of one round's
      // buffers.
      boolean partitionsAverage = config.get(SGDParams.AVERAGING) && epoch > 0 && rounds == 1;
      IterateMean epochMean =
          config.get(SGDParams.AVERAGING) && rounds > 1 ? new IterateMean() : null;
      int firstAveraged = epoch == 0 ? rounds / 2 : 0;
      EpochTotals totals = new EpochTotals();
      for (int round = 0; round < rounds; round++) {
        schedule.select(sc, epoch, round, rounds, epoch + 1 < maxIter);
        FitJobs.describe(
            sc,
            name,
            "epoch "
                + (epoch + 1)
                + "/"
                + maxIter
                + (rounds > 1 ? " round " + (round + 1) + "/" + rounds : ""));
        StartingModel from = model;
        int roundNumber = roundsSoFar++;
        RoundJob.Result merged =
            job.run(rows, jsc, meter, from, thisEpoch, roundNumber, partitionsAverage);
        totals.add(merged);
        if (merged.coefficients() != null) {
          // with one round, the mean as it is, as syncInterval=epoch always gave
          model = rounds == 1 ? merged.model() : server.next(model, merged);
          if (epochMean != null && round >= firstAveraged) {
            epochMean.add(model.coefficients(), model.intercepts());
          }
        }
      }
      totals.check(model);
      double[] coefficients =
          epochMean == null ? model.coefficients() : epochMean.coefficients(model.coefficients());
      double[] intercepts = epochMean == null ? model.intercepts() : epochMean.intercepts();
      model = model.with(coefficients, intercepts);
      double objective = totals.lossSum / totals.weightSum + config.penalty(coefficients);
      history.add(objective, totals, coefficients, intercepts);
      int left = maxIter - epoch - 1; // at most: tol may stop training earlier
      LOG.info(
          String.format(
              Locale.ROOT,
              "%s epoch %d/%d: objective %.6f, %,d rows, %d round%s, %.2f s (%,.0f rows/s), %s",
              name,
              epoch + 1,
              maxIter,
              objective,
              totals.rows,
              rounds,
              rounds == 1 ? "" : "s",
              totals.seconds,
              totals.rows / totals.seconds,
              left == 0
                  ? "last epoch"
                  : String.format(
                      Locale.ROOT, "at most %,.0f s left", left * history.meanSeconds())));
      if (!Double.isFinite(objective)) {
        throw config.diverged("the objective became " + objective + " in epoch " + (epoch + 1));
      }
      if (stopping.stopsAfter(objective)) {
        break;
      }
    }
    if (history.skipped > 0) {
      LOG.warn("{} left out {} invalid rows per epoch (handleInvalid=skip)", name, history.skipped);
    }
    int last = history.objectives.size() - 1;
    return LinearFit.trained(
        history.coefficients.get(last), history.intercepts.get(last), history.summary());
  }

  /** What the rounds of one epoch add up to. */
  private final class EpochTotals {
    double weightSum;
    double lossSum;
    long rows;
    long skipped;
    double seconds;
    final List<Double> roundSeconds = new ArrayList<>();

    long bytesToExecutors;
    long bytesFromExecutors;

    void add(RoundJob.Result round) {
      weightSum += round.weightSum();
      lossSum += round.lossSum();
      rows += round.rows();
      skipped += round.skipped();
      seconds += round.seconds();
      roundSeconds.add(round.seconds());
      bytesToExecutors += round.bytesToExecutors();
      bytesFromExecutors += round.bytesFromExecutors();
    }

    /** Fails when the epoch had no row, or no positive weight, to train on. */
    void check(StartingModel model) {
      if (rows == 0) {
        throw new InvalidTrainingDataException(
            config.cannotTrain()
                + "the dataset has no rows"
                + (skipped > 0 ? " left after skipping " + skipped + " invalid rows" : ""));
      }
      if (!(weightSum > 0) || model.coefficients() == null) {
        throw new InvalidTrainingDataException(
            config.cannotTrain()
                + "the weights in column '"
                + config.weightCol()
                + "' sum to "
                + weightSum
                + "; at least one row needs a positive weight");
      }
    }
  }

  /** The epochs so far, for the summary; models in the original features' scale. */
  private static final class TrainingHistory {
    private final FeatureScaling scaling;
    private final double stepSize;
    private final int partitions;
    final List<Double> objectives = new ArrayList<>();
    final List<Long> rows = new ArrayList<>();
    final List<Double> seconds = new ArrayList<>();
    final List<double[]> roundSeconds = new ArrayList<>();
    final List<long[]> bytes = new ArrayList<>();
    final List<double[]> coefficients = new ArrayList<>();
    final List<double[]> intercepts = new ArrayList<>();
    long skipped;

    /**
     * @param scaling the scaling training's models are in, or null
     * @param stepSize the step training used, set or calibrated
     * @param partitions the partitions training ran in
     */
    TrainingHistory(FeatureScaling scaling, double stepSize, int partitions) {
      this.scaling = scaling;
      this.stepSize = stepSize;
      this.partitions = partitions;
    }

    double[] original(double[] w) {
      return scaling == null ? w : scaling.originalCoefficients(w);
    }

    double[] original(double[] w, double[] b) {
      return scaling == null ? b : scaling.originalIntercepts(w, b);
    }

    void add(double objective, EpochTotals epoch, double[] w, double[] b) {
      objectives.add(objective);
      rows.add(epoch.rows);
      seconds.add(epoch.seconds);
      roundSeconds.add(epoch.roundSeconds.stream().mapToDouble(Double::doubleValue).toArray());
      bytes.add(new long[] {epoch.bytesToExecutors, epoch.bytesFromExecutors});
      coefficients.add(original(w));
      intercepts.add(original(w, b));
      skipped = epoch.skipped;
    }

    double meanSeconds() {
      return seconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    SGDTrainingSummary summary() {
      return new SGDTrainingSummary(
          objectives.stream().mapToDouble(Double::doubleValue).toArray(),
          rows.stream().mapToLong(Long::longValue).toArray(),
          seconds.stream().mapToDouble(Double::doubleValue).toArray(),
          skipped,
          coefficients.toArray(new double[0][]),
          intercepts.toArray(new double[0][]),
          roundSeconds.toArray(new double[0][]),
          bytes.stream().mapToLong(b -> b[0]).toArray(),
          bytes.stream().mapToLong(b -> b[1]).toArray(),
          stepSize,
          partitions);
    }
  }

  /**
   * The mean of the models after each round of an epoch (Polyak-Ruppert over rounds). A coefficient
   * the last model holds at exactly zero (L1) stays zero: a mean of iterates is never exactly zero.
   */
  private static final class IterateMean {
    private double[] sum;
    private double[] interceptSums;
    private int count;

    void add(double[] w, double[] b) {
      if (sum == null) {
        sum = new double[w.length];
        interceptSums = new double[b.length];
      }
      for (int j = 0; j < w.length; j++) {
        sum[j] += w[j];
      }
      for (int k = 0; k < b.length; k++) {
        interceptSums[k] += b[k];
      }
      count++;
    }

    double[] coefficients(double[] last) {
      double[] mean = new double[sum.length];
      for (int j = 0; j < mean.length; j++) {
        mean[j] = last[j] == 0 ? 0 : sum[j] / count;
      }
      return mean;
    }

    double[] intercepts() {
      double[] mean = new double[interceptSums.length];
      for (int k = 0; k < mean.length; k++) {
        mean[k] = interceptSums[k] / count;
      }
      return mean;
    }
  }
}
