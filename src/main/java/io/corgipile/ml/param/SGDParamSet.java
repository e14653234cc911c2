package io.corgipile.ml.param;

import io.corgipile.ml.SGDClassifierParams;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDRegressorParams;
import io.corgipile.ml.sgd.SGDTask;
import io.corgipile.ml.sgd.StepCalibration;
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
 * The param objects of one SGD estimator or model, and its uid. Java has no traits, so the shared
 * params live in this holder, made once per instance (by {@link PendingParams}), and {@link
 * SGDParams} exposes them as the public methods MLlib finds by reflection.
 */
public final class SGDParamSet implements PendingParams.Holder, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** The uid of the stage these params belong to: the stage's {@code uid()}. */
  public final String uid;
  private final SGDTask task;
  public final Param<String> loss;
  public final IntParam maxIter;
  public final DoubleParam tol;
  public final IntParam nIterNoChange;
  public final DoubleParam stepSize;
  public final Param<String> stepSchedule;
  public final DoubleParam decayRate;
  public final IntParam batchSize;
  public final DoubleParam regParam;
  public final DoubleParam elasticNetParam;
  public final BooleanParam fitIntercept;
  public final BooleanParam standardization;
  public final BooleanParam averaging;
  public final Param<String> weightCol;
  public final Param<String[]> featuresCols;
  public final LongParam seed;
  public final Param<String> handleInvalid;
  public final Param<String> syncInterval;
  public final Param<String> deltaCompression;
  public final BooleanParam errorFeedback;
  public final DoubleParam syncStepSize;
  public final DoubleParam syncMomentum;
  /** Only for the classifier. */
  public final DoubleParam threshold;
  /** Only for the classifier. */
  public final Param<String> family;
  /** Only for the regressor. */
  public final DoubleParam epsilon;

  SGDParamSet(String uid, SGDTask task) {
    this.uid = uid;
    this.task = task;
    List<String> losses = task.losses();
    loss = CheckedParams.choice(uid, "loss", "the loss to minimize", losses);
    maxIter = CheckedParams.atLeast(uid, "maxIter", "the maximum number of epochs", 1);
    tol = CheckedParams.number(uid, "tol", "the relative improvement on the best epoch objective so far that"
        + " counts: training stops after nIterNoChange epochs in a row improve by less; 0 runs all maxIter epochs",
        ">= 0", ParamValidators.gtEq(0));
    nIterNoChange = CheckedParams.atLeast(uid, "nIterNoChange", "with tol above 0, the epochs in a row without an"
        + " improvement of tol that stop training; training returns the last epoch's model", 1);
    stepSize = CheckedParams.number(uid, "stepSize", "the initial learning rate; when not set, the one of "
        + StepCalibration.CANDIDATES.length + " steps from " + StepCalibration.CANDIDATES[0] + " down to "
        + StepCalibration.CANDIDATES[StepCalibration.CANDIDATES.length - 1] + " that trains best in one pass over the"
        + " first " + StepCalibration.SAMPLE_ROWS + " rows of partition 0 (summary().stepSize() says which)", "> 0",
        ParamValidators.gt(0));
    stepSchedule = CheckedParams.choice(uid, "stepSchedule", "how the learning rate changes", SGDParams.STEP_SCHEDULES);
    decayRate = CheckedParams.number(uid, "decayRate", "the factor per epoch of the decay schedule", "in (0, 1]",
        ParamValidators.inRange(0, 1, false, true));
    batchSize = CheckedParams.atLeast(uid, "batchSize", "tuples per update within a partition", 1);
    regParam = CheckedParams.number(uid, "regParam", "the regularization strength", ">= 0", ParamValidators.gtEq(0));
    elasticNetParam = CheckedParams.number(uid, "elasticNetParam",
        "the L1 share of the regularization: 0 is L2, 1 is L1", "in [0, 1]", ParamValidators.inRange(0, 1));
    fitIntercept = new BooleanParam(uid, "fitIntercept", "whether to fit an intercept term");
    standardization = new BooleanParam(uid, "standardization", "whether to train on the features divided by"
        + " their standard deviations (one pass over the data before the first epoch) and, with fitIntercept, no"
        + " L1 and at least half of the values non-zero, centered on their means; the penalty applies in that"
        + " scale, the coefficients are reported in the original one");
    averaging = new BooleanParam(uid, "averaging", "whether an epoch ends on a mean of iterates (Polyak-Ruppert"
        + " averaging) rather than the last: with one round per epoch, from the second epoch on, each partition's mean"
        + " over its pass; with several, the mean of the models the rounds end on (of the first epoch's second half)");
    weightCol = new Param<>(uid, "weightCol", "the column of row weights; empty: every row weighs 1");
    featuresCols = new CheckedParams.ColumnsParam(uid, "featuresCols",
        "numeric columns to train on and predict from, in"
        + " this order, instead of the vector column featuresCol (no VectorAssembler needed, and training reads"
        + " them without a vector per row); empty: featuresCol");
    seed = new LongParam(uid, "seed", "the seed of the CorgiPile order when the input comes from the"
        + " corgipile source; when set it overrides the source's seed option");
    handleInvalid = CheckedParams.choice(uid, "handleInvalid", "what to do with a row whose features, label or weight"
        + " is null or not finite (or, for the classifier, a label that is not a class: 0 or 1, or 0..K-1 for"
        + " multinomial)", SGDParams.HANDLE_INVALID_VALUES);
    syncInterval = CheckedParams.syncInterval(uid);
    deltaCompression = CheckedParams.choice(uid, "deltaCompression",
        "how a partition's model change travels to the driver",
        SGDParams.DELTA_COMPRESSIONS);
    errorFeedback = new BooleanParam(uid, "errorFeedback", "with int8 deltas, whether each partition adds what"
        + " rounding lost in its last round to its next delta");
    syncStepSize = CheckedParams.number(uid, "syncStepSize", "with several rounds per epoch, the driver's step on"
        + " the averaged change of the partition models", "> 0", ParamValidators.gt(0));
    syncMomentum = CheckedParams.number(uid, "syncMomentum", "with several rounds per epoch, the momentum of the"
        + " driver's steps", "in [0, 1)", ParamValidators.inRange(0, 1, true, false));
    threshold = task == SGDTask.CLASSIFICATION
        ? CheckedParams.number(uid, "threshold", "predict 1 when the probability of 1 exceeds this", "in [0, 1]",
            ParamValidators.inRange(0, 1))
        : null;
    family = task == SGDTask.CLASSIFICATION
        ? CheckedParams.choice(uid, "family",
            "binomial (one margin, labels 0 and 1), multinomial (one margin per class,"
            + " labels 0..K-1, logistic loss only) or auto (multinomial when the labels name more than two classes)",
            SGDClassifierParams.FAMILIES)
        : null;
    epsilon = task == SGDTask.REGRESSION
        ? CheckedParams.number(uid, "epsilon", "where the huber loss turns from squared to linear", "> 0",
            ParamValidators.gt(0))
        : null;
  }

  /**
   * Sets the defaults on {@code owner}, once it is constructed: the constants of {@link SGDParams} and its subtypes.
   */
  @Override
  public void setDefaults(Params owner) {
    owner.setDefault(loss, task.losses().get(0));
    owner.setDefault(maxIter, SGDParams.DEFAULT_MAX_ITER);
    owner.setDefault(tol, SGDParams.DEFAULT_TOL);
    owner.setDefault(nIterNoChange, SGDParams.DEFAULT_N_ITER_NO_CHANGE);
    owner.setDefault(stepSize, task.defaultStepSize());
    owner.setDefault(stepSchedule, SGDParams.DEFAULT_STEP_SCHEDULE);
    owner.setDefault(decayRate, SGDParams.DEFAULT_DECAY_RATE);
    owner.setDefault(batchSize, SGDParams.DEFAULT_BATCH_SIZE);
    owner.setDefault(regParam, SGDParams.DEFAULT_REG_PARAM);
    owner.setDefault(elasticNetParam, SGDParams.DEFAULT_ELASTIC_NET_PARAM);
    owner.setDefault(fitIntercept, SGDParams.DEFAULT_FIT_INTERCEPT);
    owner.setDefault(standardization, SGDParams.DEFAULT_STANDARDIZATION);
    owner.setDefault(averaging, SGDParams.DEFAULT_AVERAGING);
    owner.setDefault(weightCol, SGDParams.DEFAULT_WEIGHT_COL);
    owner.setDefault(featuresCols, new String[0]);
    owner.setDefault(seed, ReadOptions.SEED_DEFAULT);
    owner.setDefault(handleInvalid, SGDParams.HANDLE_INVALID_ERROR);
    owner.setDefault(syncInterval, SGDParams.DEFAULT_SYNC_INTERVAL);
    owner.setDefault(deltaCompression, SGDParams.DEFAULT_DELTA_COMPRESSION);
    owner.setDefault(errorFeedback, SGDParams.DEFAULT_ERROR_FEEDBACK);
    owner.setDefault(syncStepSize, SGDParams.DEFAULT_SYNC_STEP_SIZE);
    owner.setDefault(syncMomentum, SGDParams.DEFAULT_SYNC_MOMENTUM);
    if (threshold != null) {
      owner.setDefault(threshold, SGDClassifierParams.DEFAULT_THRESHOLD);
      owner.setDefault(family, SGDClassifierParams.FAMILIES.get(0));
    }
    if (epsilon != null) {
      owner.setDefault(epsilon, SGDRegressorParams.DEFAULT_EPSILON);
    }
  }
}
