package io.corgipile.ml;

import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.ml.param.ParamSpec;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import io.corgipile.ml.sgd.StepCalibration;
import io.corgipile.ml.sgd.StepSchedule;
import io.corgipile.shuffle.SyncInterval;
import io.corgipile.source.ReadOptions;
import java.util.List;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;

/**
 * The params shared by the SGD estimators and their models, and the one home of their defaults and
 * allowed values (the {@code DEFAULT_*} constants and lists below, which the param docs, the
 * validation errors and the CLI read).
 */
public interface SGDParams extends Params {
  /** Default of {@link #maxIter()}. */
  int DEFAULT_MAX_ITER = 10;

  /** Default of {@link #tol()}. */
  double DEFAULT_TOL = 1e-4;

  /** Default of {@link #nIterNoChange()}, as scikit-learn's {@code n_iter_no_change}. */
  int DEFAULT_N_ITER_NO_CHANGE = 5;

  /** The values {@link #stepSchedule()} takes. */
  List<String> STEP_SCHEDULES = StepSchedule.names();

  /** Default of {@link #stepSchedule()}. */
  String DEFAULT_STEP_SCHEDULE = "invsqrt";

  /** Default of {@link #decayRate()}. */
  double DEFAULT_DECAY_RATE = 0.95;

  /** Default of {@link #batchSize()}. */
  int DEFAULT_BATCH_SIZE = 1;

  /** Default of {@link #regParam()}. */
  double DEFAULT_REG_PARAM = 0.0;

  /** Default of {@link #elasticNetParam()}. */
  double DEFAULT_ELASTIC_NET_PARAM = 0.0;

  /** Default of {@link #fitIntercept()}. */
  boolean DEFAULT_FIT_INTERCEPT = true;

  /** Default of {@link #standardization()}, as MLlib's linear models. */
  boolean DEFAULT_STANDARDIZATION = true;

  /** Default of {@link #averaging()}. */
  boolean DEFAULT_AVERAGING = true;

  /** Default of {@link #weightCol()}: no weight column. */
  String DEFAULT_WEIGHT_COL = "";

  /** {@link #handleInvalid()}: fail on the first invalid row (the default). */
  String HANDLE_INVALID_ERROR = "error";

  /** {@link #handleInvalid()}: leave invalid rows out, and count them. */
  String HANDLE_INVALID_SKIP = "skip";

  /** The values {@link #handleInvalid()} takes. */
  List<String> HANDLE_INVALID_VALUES = List.of(HANDLE_INVALID_ERROR, HANDLE_INVALID_SKIP);

  /** The values {@link #deltaCompression()} takes. */
  List<String> DELTA_COMPRESSIONS = DeltaCompression.names();

  /** Default of {@link #deltaCompression()}. */
  String DEFAULT_DELTA_COMPRESSION = "none";

  /** Default of {@link #errorFeedback()}. */
  boolean DEFAULT_ERROR_FEEDBACK = true;

  /** Default of {@link #syncStepSize()}. */
  double DEFAULT_SYNC_STEP_SIZE = 1.0;

  /** Default of {@link #syncMomentum()}. */
  double DEFAULT_SYNC_MOMENTUM = 0.0;

  /** Default of {@link #calibrationRows()}. */
  int DEFAULT_CALIBRATION_ROWS = 2_000;

  /**
   * Default of {@link #minPartitionRows()}: partitions of 100 rows left the averaged model 1.2 and
   * 19.6 points of test accuracy behind 2 partitions after the first epoch (docs: Small
   * partitions), while at 10,000 rows each the same sets trained within 0.23 points of 2.
   */
  int DEFAULT_MIN_PARTITION_ROWS = 10_000;

  /** Default of {@link #syncInterval()}: one round per shuffle buffer, at most a few per epoch. */
  String DEFAULT_SYNC_INTERVAL = SyncInterval.AUTO.toString();

  // The declarations: name, doc (the MLlib param's, which explainParams, Python and the errors
  // show),
  // allowed values and default. loss and stepSize differ by estimator: see lossSpec and
  // stepSizeSpec.
  ParamSpec<Integer> MAX_ITER =
      ParamSpec.atLeast("maxIter", "the maximum number of epochs", 1, DEFAULT_MAX_ITER);
  ParamSpec<Double> TOL =
      ParamSpec.nonNegative(
          "tol",
          "the relative improvement on the best epoch objective so far that counts: training stops"
              + " after nIterNoChange epochs in a row improve by less; 0 runs all maxIter epochs",
          DEFAULT_TOL);
  ParamSpec<Integer> N_ITER_NO_CHANGE =
      ParamSpec.atLeast(
          "nIterNoChange",
          "with tol above 0, the epochs in a row without an improvement of tol that stop training;"
              + " training returns the last epoch's model",
          1,
          DEFAULT_N_ITER_NO_CHANGE);
  ParamSpec<String> STEP_SCHEDULE =
      ParamSpec.choice(
          "stepSchedule", "how the learning rate changes", STEP_SCHEDULES, DEFAULT_STEP_SCHEDULE);
  ParamSpec<Double> DECAY_RATE =
      ParamSpec.number(
          "decayRate",
          "the factor per epoch of the decay schedule",
          "in (0, 1]",
          ParamValidators.inRange(0, 1, false, true),
          DEFAULT_DECAY_RATE);
  ParamSpec<Integer> BATCH_SIZE =
      ParamSpec.atLeast("batchSize", "tuples per update within a partition", 1, DEFAULT_BATCH_SIZE);
  ParamSpec<Double> REG_PARAM =
      ParamSpec.nonNegative("regParam", "the regularization strength", DEFAULT_REG_PARAM);
  ParamSpec<Double> ELASTIC_NET_PARAM =
      ParamSpec.fraction(
          "elasticNetParam",
          "the L1 share of the regularization: 0 is L2, 1 is L1",
          DEFAULT_ELASTIC_NET_PARAM);
  ParamSpec<Boolean> FIT_INTERCEPT =
      ParamSpec.flag("fitIntercept", "whether to fit an intercept term", DEFAULT_FIT_INTERCEPT);
  ParamSpec<Boolean> STANDARDIZATION =
      ParamSpec.flag(
          "standardization",
          "whether to train on the features divided by their standard deviations (one pass over the"
              + " data before the first epoch) and, with fitIntercept, no L1 and at least half of"
              + " the values non-zero, centered on their means; the penalty applies in that scale,"
              + " the coefficients are reported in the original one",
          DEFAULT_STANDARDIZATION);
  ParamSpec<Boolean> AVERAGING =
      ParamSpec.flag(
          "averaging",
          "whether an epoch ends on a mean of iterates (Polyak-Ruppert averaging) rather than the"
              + " last: with one round per epoch, from the second epoch on, each partition's mean"
              + " over its pass; with several, the mean of the models the rounds end on (of the"
              + " first epoch's second half)",
          DEFAULT_AVERAGING);
  ParamSpec<String> WEIGHT_COL =
      ParamSpec.text(
          "weightCol", "the column of row weights; empty: every row weighs 1", DEFAULT_WEIGHT_COL);
  ParamSpec<String[]> FEATURES_COLS =
      ParamSpec.columns(
          "featuresCols",
          "numeric columns to train on and predict from, in this order, instead of the vector"
              + " column featuresCol (no VectorAssembler needed, and training reads them without a"
              + " vector per row); empty: featuresCol");
  ParamSpec<Long> SEED =
      ParamSpec.seed(
          "seed",
          "the seed of the CorgiPile order when the input comes from the"
              + " corgipile source; when set it overrides the source's seed option",
          ReadOptions.SEED_DEFAULT);
  ParamSpec<String> HANDLE_INVALID =
      ParamSpec.choice(
          "handleInvalid",
          "what to do with a row whose features, label or weight is null or not finite (or, for the"
              + " classifier, a label that is not a class: 0 or 1, or 0..K-1 for multinomial)",
          HANDLE_INVALID_VALUES,
          HANDLE_INVALID_ERROR);
  ParamSpec<String> SYNC_INTERVAL =
      ParamSpec.syncInterval(
          "syncInterval", "how often the partition models are averaged", DEFAULT_SYNC_INTERVAL);
  ParamSpec<String> DELTA_COMPRESSION =
      ParamSpec.choice(
          "deltaCompression",
          "how a partition's model change travels to the driver",
          DELTA_COMPRESSIONS,
          DEFAULT_DELTA_COMPRESSION);
  ParamSpec<Boolean> ERROR_FEEDBACK =
      ParamSpec.flag(
          "errorFeedback",
          "with int8 deltas, whether each partition adds"
              + " what rounding lost in its last round to its next delta",
          DEFAULT_ERROR_FEEDBACK);
  ParamSpec<Double> SYNC_STEP_SIZE =
      ParamSpec.positive(
          "syncStepSize",
          "with several rounds per epoch, the driver's"
              + " step on the averaged change of the partition models",
          DEFAULT_SYNC_STEP_SIZE);
  ParamSpec<Double> SYNC_MOMENTUM =
      ParamSpec.number(
          "syncMomentum",
          "with several rounds per epoch, the momentum of" + " the driver's steps",
          "in [0, 1)",
          ParamValidators.inRange(0, 1, true, false),
          DEFAULT_SYNC_MOMENTUM);
  ParamSpec<Integer> CALIBRATION_ROWS =
      ParamSpec.atLeast(
          "calibrationRows",
          "when stepSize is not set, the rows it is chosen on: with standardization drawn at"
              + " random, as many from every partition, in the pass that summarizes the features;"
              + " without, as many of the first rows of every partition in epoch 0's order",
          1,
          DEFAULT_CALIBRATION_ROWS);
  ParamSpec<Integer> MIN_PARTITION_ROWS =
      ParamSpec.atLeast(
          "minPartitionRows",
          "the fewest rows a partition trains on, on average: an input of R rows in more than"
              + " R / minPartitionRows partitions trains in that many (at least 1) instead, a"
              + " corgipile input planned again, another coalesced in order; 1 trains in the"
              + " input's partitions",
          1,
          DEFAULT_MIN_PARTITION_ROWS);

  /** The params of both estimators and both models but {@code loss} and {@code stepSize}. */
  List<ParamSpec<?>> COMMON_SPECS =
      List.of(
          MAX_ITER,
          TOL,
          N_ITER_NO_CHANGE,
          STEP_SCHEDULE,
          DECAY_RATE,
          BATCH_SIZE,
          REG_PARAM,
          ELASTIC_NET_PARAM,
          FIT_INTERCEPT,
          STANDARDIZATION,
          AVERAGING,
          WEIGHT_COL,
          FEATURES_COLS,
          SEED,
          HANDLE_INVALID,
          SYNC_INTERVAL,
          DELTA_COMPRESSION,
          ERROR_FEEDBACK,
          SYNC_STEP_SIZE,
          SYNC_MOMENTUM,
          CALIBRATION_ROWS,
          MIN_PARTITION_ROWS);

  /** The {@code loss} of an estimator whose losses are {@code losses}, the first the default. */
  static ParamSpec<String> lossSpec(List<String> losses) {
    return ParamSpec.choice("loss", "the loss to minimize", losses, losses.get(0));
  }

  /** The {@code stepSize} of an estimator whose default step is {@code defaultValue}. */
  static ParamSpec<Double> stepSizeSpec(double defaultValue) {
    return ParamSpec.positive(
        "stepSize",
        "the initial learning rate; when not set, the one of "
            + StepCalibration.CANDIDATES.length
            + " steps from "
            + StepCalibration.CANDIDATES[0]
            + " down to "
            + StepCalibration.CANDIDATES[StepCalibration.CANDIDATES.length - 1]
            + " that trains best in one pass over the"
            + " calibrationRows rows of the sample that param describes (summary().stepSize() says"
            + " which)",
        defaultValue);
  }

  /** The holder of this instance's param objects. */
  StageParams sgdParams();

  /**
   * The uid, kept with the param objects: see {@link PendingParams} for why not in a field of the
   * stage.
   */
  @Override
  default String uid() {
    return sgdParams().uid;
  }

  /**
   * The loss to minimize: one of {@link SGDClassifier#SUPPORTED_LOSSES} for the classifier, of
   * {@link SGDRegressor#SUPPORTED_LOSSES} for the regressor; the first of each is the default.
   */
  default Param<String> loss() {
    return sgdParams().get("loss");
  }

  default String getLoss() {
    return $(loss());
  }

  /** The maximum number of epochs (default {@value #DEFAULT_MAX_ITER}). */
  default IntParam maxIter() {
    return sgdParams().get(MAX_ITER);
  }

  default int getMaxIter() {
    return (Integer) $(maxIter());
  }

  /**
   * The relative improvement on the best epoch objective so far that counts (default {@value
   * #DEFAULT_TOL}): training stops after {@link #nIterNoChange()} epochs in a row improve by less;
   * 0 runs all {@code maxIter} epochs.
   */
  default DoubleParam tol() {
    return sgdParams().get(TOL);
  }

  default double getTol() {
    return (Double) $(tol());
  }

  /**
   * With {@code tol} above 0, the epochs in a row without an improvement of {@code tol} that stop
   * training (default {@value #DEFAULT_N_ITER_NO_CHANGE}). Training returns the last epoch's model.
   */
  default IntParam nIterNoChange() {
    return sgdParams().get(N_ITER_NO_CHANGE);
  }

  default int getNIterNoChange() {
    return (Integer) $(nIterNoChange());
  }

  /**
   * The initial learning rate. When not set, {@link StepCalibration} chooses it on a sample before
   * the first epoch ({@code summary().stepSize()} says which); its default, {@value
   * SGDClassifierParams#DEFAULT_STEP_SIZE} for the classifier and {@value
   * SGDRegressorParams#DEFAULT_STEP_SIZE} for the regressor, is used only when no row of the sample
   * trains.
   */
  default DoubleParam stepSize() {
    return sgdParams().get("stepSize");
  }

  default double getStepSize() {
    return (Double) $(stepSize());
  }

  /**
   * One of {@link #STEP_SCHEDULES}: {@code constant}, {@code decay} (stepSize * decayRate^epoch) or
   * {@code invsqrt} (stepSize / sqrt(t)); default {@value #DEFAULT_STEP_SCHEDULE}.
   */
  default Param<String> stepSchedule() {
    return sgdParams().get(STEP_SCHEDULE);
  }

  default String getStepSchedule() {
    return $(stepSchedule());
  }

  /** The factor per epoch of the {@code decay} schedule (default {@value #DEFAULT_DECAY_RATE}). */
  default DoubleParam decayRate() {
    return sgdParams().get(DECAY_RATE);
  }

  default double getDecayRate() {
    return (Double) $(decayRate());
  }

  /** Tuples per update within a partition (default {@value #DEFAULT_BATCH_SIZE}). */
  default IntParam batchSize() {
    return sgdParams().get(BATCH_SIZE);
  }

  default int getBatchSize() {
    return (Integer) $(batchSize());
  }

  /** The regularization strength (default {@value #DEFAULT_REG_PARAM}). */
  default DoubleParam regParam() {
    return sgdParams().get(REG_PARAM);
  }

  default double getRegParam() {
    return (Double) $(regParam());
  }

  /**
   * The L1 share of the regularization: 0 is L2, 1 is L1 (default {@value
   * #DEFAULT_ELASTIC_NET_PARAM}).
   */
  default DoubleParam elasticNetParam() {
    return sgdParams().get(ELASTIC_NET_PARAM);
  }

  default double getElasticNetParam() {
    return (Double) $(elasticNetParam());
  }

  /** Whether to fit an intercept (default {@value #DEFAULT_FIT_INTERCEPT}). */
  default BooleanParam fitIntercept() {
    return sgdParams().get(FIT_INTERCEPT);
  }

  default boolean getFitIntercept() {
    return (Boolean) $(fitIntercept());
  }

  /**
   * Whether training sees the features scaled to unit standard deviation (default {@value
   * #DEFAULT_STANDARDIZATION}), and centered on their means with an intercept, no L1 and dense
   * features; the penalty applies in that scale. Coefficients are always in the original scale.
   */
  default BooleanParam standardization() {
    return sgdParams().get(STANDARDIZATION);
  }

  default boolean getStandardization() {
    return (Boolean) $(standardization());
  }

  /**
   * Whether an epoch ends on a mean of iterates rather than the last (default {@value
   * #DEFAULT_AVERAGING}): with one round per epoch, from the second epoch on, each partition
   * returns the mean of its iterates over its pass; with several rounds, the driver averages the
   * models the rounds end on (in the first epoch those of its second half: the first is burn-in
   * from zero). The mean weighs every buffer alike, so it does not lean toward the label mix of the
   * last buffers. With L1, a coefficient the last iterate holds at zero stays zero.
   */
  default BooleanParam averaging() {
    return sgdParams().get(AVERAGING);
  }

  default boolean getAveraging() {
    return (Boolean) $(averaging());
  }

  /**
   * The column of row weights; empty (the default, {@link #DEFAULT_WEIGHT_COL}): every row weighs
   * 1.
   */
  default Param<String> weightCol() {
    return sgdParams().get(WEIGHT_COL);
  }

  default String getWeightCol() {
    return $(weightCol());
  }

  /**
   * Numeric columns to train on and predict from, in this order, instead of the vector column
   * {@code featuresCol}: no {@code VectorAssembler} is needed, and training reads the values
   * without making a vector per row. Empty (the default): {@code featuresCol}. A model's {@code
   * predict(Vector)} takes the columns' values in this order.
   */
  default Param<String[]> featuresCols() {
    return sgdParams().get(FEATURES_COLS);
  }

  default String[] getFeaturesCols() {
    return $(featuresCols());
  }

  /**
   * The seed of the CorgiPile order; when set it overrides the corgipile source's {@code seed}
   * option.
   */
  default LongParam seed() {
    return sgdParams().get(SEED);
  }

  default long getSeed() {
    return (Long) $(seed());
  }

  /**
   * What to do with invalid rows: one of {@link #HANDLE_INVALID_VALUES}, default {@value
   * #HANDLE_INVALID_ERROR}.
   */
  default Param<String> handleInvalid() {
    return sgdParams().get(HANDLE_INVALID);
  }

  default String getHandleInvalid() {
    return $(handleInvalid());
  }

  /**
   * How often the partition models are averaged: {@value io.corgipile.shuffle.SyncInterval#FORMAT}
   * (default {@value #DEFAULT_SYNC_INTERVAL}). Every round is one Spark job; rounds within an epoch
   * need the {@code corgipile} source, which reads each partition's next slice per round. Over
   * another input {@code auto} falls back to one round per epoch, and any other explicit value is
   * an error.
   */
  default Param<String> syncInterval() {
    return sgdParams().get(SYNC_INTERVAL);
  }

  default String getSyncInterval() {
    return $(syncInterval());
  }

  /**
   * How a partition's model change travels to the driver each round: {@code none} (float64) or
   * {@code int8} (per chunk of 256 coordinates a minimum and a step, and one byte per coordinate:
   * about 7.5 times fewer bytes, 3.75 with the residual of {@link #errorFeedback()}, on by
   * default); default {@value #DEFAULT_DELTA_COMPRESSION}.
   */
  default Param<String> deltaCompression() {
    return sgdParams().get(DELTA_COMPRESSION);
  }

  default String getDeltaCompression() {
    return $(deltaCompression());
  }

  /**
   * With {@code deltaCompression=int8}: whether each partition adds what rounding lost in its last
   * round to its next delta (default {@value #DEFAULT_ERROR_FEEDBACK}). The residual travels with
   * the delta, itself in int8, and the driver keeps each partition's latest and sends it with the
   * partition's next task, so a fit stays the same bit for bit when tasks are retried or executors
   * lost. It costs about one byte per coordinate more each way per partition and round (int8 deltas
   * then carry about 3.75 times fewer bytes than float64 instead of 7.5), and the driver holds one
   * residual per partition: about partitions times coordinates bytes.
   */
  default BooleanParam errorFeedback() {
    return sgdParams().get(ERROR_FEEDBACK);
  }

  default boolean getErrorFeedback() {
    return (Boolean) $(errorFeedback());
  }

  /**
   * With several rounds per epoch: the driver's step on the averaged change of the partition models
   * (default {@value #DEFAULT_SYNC_STEP_SIZE}: the mean itself). With one round per epoch the mean
   * is taken as it is.
   */
  default DoubleParam syncStepSize() {
    return sgdParams().get(SYNC_STEP_SIZE);
  }

  default double getSyncStepSize() {
    return (Double) $(syncStepSize());
  }

  /**
   * With several rounds per epoch: the momentum the driver carries the averaged changes with, round
   * to round (default {@value #DEFAULT_SYNC_MOMENTUM}).
   */
  default DoubleParam syncMomentum() {
    return sgdParams().get(SYNC_MOMENTUM);
  }

  default double getSyncMomentum() {
    return (Double) $(syncMomentum());
  }

  /**
   * When {@code stepSize} is not set, the rows {@link StepCalibration} chooses it on (default
   * {@value #DEFAULT_CALIBRATION_ROWS}): with standardization a random sample, as many rows from
   * every partition, drawn in the pass that summarizes the features; without, the first of
   * partition 0 in epoch 0's order, which over clustered data are a few blocks. More rows, a choice
   * less swayed by the sample's mix, at the cost of a pass per candidate step over them on the
   * driver.
   */
  default IntParam calibrationRows() {
    return sgdParams().get(CALIBRATION_ROWS);
  }

  default int getCalibrationRows() {
    return (Integer) $(calibrationRows());
  }

  /**
   * The fewest rows a partition trains on, on average (default {@value
   * #DEFAULT_MIN_PARTITION_ROWS}): the models of small partitions take few steps before they are
   * averaged, so an input in more partitions than its rows fill at this many trains in fewer, and
   * the model no longer depends on how finely the input happens to be split.
   */
  default IntParam minPartitionRows() {
    return sgdParams().get(MIN_PARTITION_ROWS);
  }

  default int getMinPartitionRows() {
    return (Integer) $(minPartitionRows());
  }

  /**
   * The setters of the training params, typed to return the estimator: one copy for both
   * estimators. Models have the params too (copied from their estimator) but not these setters.
   *
   * @param <E> the estimator
   */
  interface Setters<E extends Setters<E>> extends SGDParams {
    @SuppressWarnings("unchecked")
    private E self() {
      return (E) this;
    }

    default E setLoss(String value) {
      set(loss(), value);
      return self();
    }

    default E setMaxIter(int value) {
      set(maxIter(), value);
      return self();
    }

    default E setTol(double value) {
      set(tol(), value);
      return self();
    }

    default E setStepSize(double value) {
      set(stepSize(), value);
      return self();
    }

    default E setStepSchedule(String value) {
      set(stepSchedule(), value);
      return self();
    }

    default E setDecayRate(double value) {
      set(decayRate(), value);
      return self();
    }

    default E setBatchSize(int value) {
      set(batchSize(), value);
      return self();
    }

    default E setRegParam(double value) {
      set(regParam(), value);
      return self();
    }

    default E setElasticNetParam(double value) {
      set(elasticNetParam(), value);
      return self();
    }

    default E setNIterNoChange(int value) {
      set(nIterNoChange(), value);
      return self();
    }

    default E setFitIntercept(boolean value) {
      set(fitIntercept(), value);
      return self();
    }

    default E setStandardization(boolean value) {
      set(standardization(), value);
      return self();
    }

    default E setAveraging(boolean value) {
      set(averaging(), value);
      return self();
    }

    default E setWeightCol(String value) {
      set(weightCol(), value);
      return self();
    }

    /** Numeric columns to train on instead of {@code featuresCol}; see {@link #featuresCols()}. */
    default E setFeaturesCols(String... value) {
      set(featuresCols(), value);
      return self();
    }

    default E setSeed(long value) {
      set(seed(), value);
      return self();
    }

    default E setHandleInvalid(String value) {
      set(handleInvalid(), value);
      return self();
    }

    default E setSyncInterval(String value) {
      set(syncInterval(), value);
      return self();
    }

    default E setDeltaCompression(String value) {
      set(deltaCompression(), value);
      return self();
    }

    default E setErrorFeedback(boolean value) {
      set(errorFeedback(), value);
      return self();
    }

    default E setSyncStepSize(double value) {
      set(syncStepSize(), value);
      return self();
    }

    default E setSyncMomentum(double value) {
      set(syncMomentum(), value);
      return self();
    }

    default E setCalibrationRows(int value) {
      set(calibrationRows(), value);
      return self();
    }

    default E setMinPartitionRows(int value) {
      set(minPartitionRows(), value);
      return self();
    }
  }
}
