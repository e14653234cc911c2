package io.corgipile.ml;

import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.SGDParamSet;
import io.corgipile.ml.sgd.StepCalibration;
import io.corgipile.ml.sgd.StepSchedule;
import io.corgipile.shuffle.SyncInterval;
import java.util.List;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/**
 * The params shared by the SGD estimators and their models, and the one home of their defaults
 * and allowed values (the {@code DEFAULT_*} constants and lists below, which the param docs, the
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
  /** Default of {@link #syncInterval()}: one round per shuffle buffer, at most a few per epoch. */
  String DEFAULT_SYNC_INTERVAL = SyncInterval.AUTO.toString();

  /** The holder of this instance's param objects. */
  SGDParamSet sgdParams();

  /** The uid, kept with the param objects: see {@link PendingParams} for why not in a field of the stage. */
  @Override
  default String uid() {
    return sgdParams().uid;
  }

  /**
   * The loss to minimize: one of {@link SGDClassifier#SUPPORTED_LOSSES} for the classifier, of {@link
   * SGDRegressor#SUPPORTED_LOSSES} for the regressor; the first of each is the default.
   */
  default Param<String> loss() {
    return sgdParams().loss;
  }

  default String getLoss() {
    return $(loss());
  }

  /** The maximum number of epochs (default {@value #DEFAULT_MAX_ITER}). */
  default IntParam maxIter() {
    return sgdParams().maxIter;
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
    return sgdParams().tol;
  }

  default double getTol() {
    return (Double) $(tol());
  }

  /**
   * With {@code tol} above 0, the epochs in a row without an improvement of {@code tol} that stop
   * training (default {@value #DEFAULT_N_ITER_NO_CHANGE}). Training returns the last epoch's model.
   */
  default IntParam nIterNoChange() {
    return sgdParams().nIterNoChange;
  }

  default int getNIterNoChange() {
    return (Integer) $(nIterNoChange());
  }

  /**
   * The initial learning rate. When not set, {@link StepCalibration} chooses it on a sample before the
   * first epoch ({@code summary().stepSize()} says which); its default, {@value
   * SGDClassifierParams#DEFAULT_STEP_SIZE} for the classifier and {@value SGDRegressorParams#DEFAULT_STEP_SIZE}
   * for the regressor, is used only when no row of the sample trains.
   */
  default DoubleParam stepSize() {
    return sgdParams().stepSize;
  }

  default double getStepSize() {
    return (Double) $(stepSize());
  }

  /**
   * One of {@link #STEP_SCHEDULES}: {@code constant}, {@code decay} (stepSize * decayRate^epoch) or {@code
   * invsqrt} (stepSize / sqrt(t)); default {@value #DEFAULT_STEP_SCHEDULE}.
   */
  default Param<String> stepSchedule() {
    return sgdParams().stepSchedule;
  }

  default String getStepSchedule() {
    return $(stepSchedule());
  }

  /** The factor per epoch of the {@code decay} schedule (default {@value #DEFAULT_DECAY_RATE}). */
  default DoubleParam decayRate() {
    return sgdParams().decayRate;
  }

  default double getDecayRate() {
    return (Double) $(decayRate());
  }

  /** Tuples per update within a partition (default {@value #DEFAULT_BATCH_SIZE}). */
  default IntParam batchSize() {
    return sgdParams().batchSize;
  }

  default int getBatchSize() {
    return (Integer) $(batchSize());
  }

  /** The regularization strength (default {@value #DEFAULT_REG_PARAM}). */
  default DoubleParam regParam() {
    return sgdParams().regParam;
  }

  default double getRegParam() {
    return (Double) $(regParam());
  }

  /** The L1 share of the regularization: 0 is L2, 1 is L1 (default {@value #DEFAULT_ELASTIC_NET_PARAM}). */
  default DoubleParam elasticNetParam() {
    return sgdParams().elasticNetParam;
  }

  default double getElasticNetParam() {
    return (Double) $(elasticNetParam());
  }

  /** Whether to fit an intercept (default {@value #DEFAULT_FIT_INTERCEPT}). */
  default BooleanParam fitIntercept() {
    return sgdParams().fitIntercept;
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
    return sgdParams().standardization;
  }

  default boolean getStandardization() {
    return (Boolean) $(standardization());
  }

  /**
   * Whether an epoch ends on a mean of iterates rather than the last (default {@value
   * #DEFAULT_AVERAGING}): with one round per epoch, from the second epoch on, each partition returns
   * the mean of its iterates over its pass; with several rounds, the driver averages the models the
   * rounds end on (in the first epoch those of its second half: the first is burn-in from zero). The
   * mean weighs every buffer alike, so it does not lean toward the label mix of the last buffers.
   * With L1, a coefficient the last iterate holds at zero stays zero.
   */
  default BooleanParam averaging() {
    return sgdParams().averaging;
  }

  default boolean getAveraging() {
    return (Boolean) $(averaging());
  }

  /** The column of row weights; empty (the default, {@link #DEFAULT_WEIGHT_COL}): every row weighs 1. */
  default Param<String> weightCol() {
    return sgdParams().weightCol;
  }

  default String getWeightCol() {
    return $(weightCol());
  }

  /**
   * Numeric columns to train on and predict from, in this order, instead of the vector column {@code
   * featuresCol}: no {@code VectorAssembler} is needed, and training reads the values without making a
   * vector per row. Empty (the default): {@code featuresCol}. A model's {@code predict(Vector)} takes the
   * columns' values in this order.
   */
  default Param<String[]> featuresCols() {
    return sgdParams().featuresCols;
  }

  default String[] getFeaturesCols() {
    return $(featuresCols());
  }

  /** The seed of the CorgiPile order; when set it overrides the corgipile source's {@code seed} option. */
  default LongParam seed() {
    return sgdParams().seed;
  }

  default long getSeed() {
    return (Long) $(seed());
  }

  /** What to do with invalid rows: one of {@link #HANDLE_INVALID_VALUES}, default {@value #HANDLE_INVALID_ERROR}. */
  default Param<String> handleInvalid() {
    return sgdParams().handleInvalid;
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
    return sgdParams().syncInterval;
  }

  default String getSyncInterval() {
    return $(syncInterval());
  }

  /**
   * How a partition's model change travels to the driver each round: {@code none} (float64) or
   * {@code int8} (per chunk of 256 coordinates a minimum and a step, and one byte per coordinate:
   * about 7.5 times fewer bytes); default {@value #DEFAULT_DELTA_COMPRESSION}.
   */
  default Param<String> deltaCompression() {
    return sgdParams().deltaCompression;
  }

  default String getDeltaCompression() {
    return $(deltaCompression());
  }

  /**
   * With {@code deltaCompression=int8}: whether each partition adds what rounding lost in its last
   * round to its next delta (default {@value #DEFAULT_ERROR_FEEDBACK}). The residual stays on the
   * executor; a task that runs on another executor than its previous round starts again from zero
   * (counted in the summary's {@code residualsLost}).
   */
  default BooleanParam errorFeedback() {
    return sgdParams().errorFeedback;
  }

  default boolean getErrorFeedback() {
    return (Boolean) $(errorFeedback());
  }

  /**
   * With several rounds per epoch: the driver's step on the averaged change of the partition models
   * (default {@value #DEFAULT_SYNC_STEP_SIZE}: the mean itself). With one round per epoch the mean is
   * taken as it is.
   */
  default DoubleParam syncStepSize() {
    return sgdParams().syncStepSize;
  }

  default double getSyncStepSize() {
    return (Double) $(syncStepSize());
  }

  /**
   * With several rounds per epoch: the momentum the driver carries the averaged changes with,
   * round to round (default {@value #DEFAULT_SYNC_MOMENTUM}).
   */
  default DoubleParam syncMomentum() {
    return sgdParams().syncMomentum;
  }

  default double getSyncMomentum() {
    return (Double) $(syncMomentum());
  }
}
