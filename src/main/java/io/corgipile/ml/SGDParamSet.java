package io.corgipile.ml;

import java.util.List;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;

/**
 * The param objects of one SGD estimator or model. Java has no traits, so the shared params live
 * in this holder, made once per instance, and {@link SGDParams} exposes them as the public methods
 * MLlib finds by reflection.
 */
public final class SGDParamSet implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  final Param<String> loss;
  final IntParam maxIter;
  final DoubleParam tol;
  final DoubleParam stepSize;
  final Param<String> stepSchedule;
  final DoubleParam decayRate;
  final IntParam batchSize;
  final DoubleParam regParam;
  final DoubleParam elasticNetParam;
  final BooleanParam fitIntercept;
  final Param<String> weightCol;
  final LongParam seed;
  final Param<String> handleInvalid;
  /** Only for the classifier. */
  final DoubleParam threshold;
  /** Only for the regressor. */
  final DoubleParam epsilon;

  SGDParamSet(String uid, SGDTask task) {
    List<String> losses = task.losses();
    loss = new Param<>(uid, "loss", "the loss to minimize: " + String.join(", ", losses),
        ParamValidators.inArray(losses));
    maxIter = new IntParam(uid, "maxIter", "the maximum number of epochs (>= 1)", ParamValidators.gtEq(1));
    tol = new DoubleParam(uid, "tol", "stop when the epoch objective improves by less than this,"
        + " relatively (>= 0; 0 runs all maxIter epochs)", ParamValidators.gtEq(0));
    stepSize = new DoubleParam(uid, "stepSize", "the initial learning rate (> 0)", ParamValidators.gt(0));
    stepSchedule = new Param<>(uid, "stepSchedule", "how the learning rate changes: " + String.join(", ",
        StepSchedule.names()), ParamValidators.inArray(StepSchedule.names()));
    decayRate = new DoubleParam(uid, "decayRate", "the factor per epoch of the decay schedule, in (0, 1]",
        ParamValidators.inRange(0, 1, false, true));
    batchSize = new IntParam(uid, "batchSize", "tuples per update within a partition (>= 1)",
        ParamValidators.gtEq(1));
    regParam = new DoubleParam(uid, "regParam", "the regularization strength (>= 0)", ParamValidators.gtEq(0));
    elasticNetParam = new DoubleParam(uid, "elasticNetParam",
        "the L1 share of the regularization, in [0, 1]: 0 is L2, 1 is L1", ParamValidators.inRange(0, 1));
    fitIntercept = new BooleanParam(uid, "fitIntercept", "whether to fit an intercept term");
    weightCol = new Param<>(uid, "weightCol", "the column of row weights; unset or empty: every row weighs 1");
    seed = new LongParam(uid, "seed", "the seed of the CorgiPile order when the input comes from the"
        + " corgipile source; when set it overrides the source's seed option");
    handleInvalid = new Param<>(uid, "handleInvalid", "what to do with a row whose features, label or weight"
        + " is null or not finite (or, for the classifier, a label other than 0 or 1): error or skip",
        ParamValidators.inArray(List.of("error", "skip")));
    threshold = task == SGDTask.CLASSIFICATION
        ? new DoubleParam(uid, "threshold", "predict 1 when the probability of 1 exceeds this, in [0, 1]",
            ParamValidators.inRange(0, 1))
        : null;
    epsilon = task == SGDTask.REGRESSION
        ? new DoubleParam(uid, "epsilon", "where the huber loss turns from squared to linear (> 0)",
            ParamValidators.gt(0))
        : null;
  }

  /** Sets the defaults on {@code owner}, once it is constructed. */
  void setDefaults(Params owner, SGDTask task) {
    owner.setDefault(loss, task.losses().get(0));
    owner.setDefault(maxIter, 10);
    owner.setDefault(tol, 1e-4);
    owner.setDefault(stepSize, 0.01);
    owner.setDefault(stepSchedule, StepSchedule.DECAY.paramValue());
    owner.setDefault(decayRate, 0.95);
    owner.setDefault(batchSize, 1);
    owner.setDefault(regParam, 0.0);
    owner.setDefault(elasticNetParam, 0.0);
    owner.setDefault(fitIntercept, true);
    owner.setDefault(weightCol, "");
    owner.setDefault(seed, io.corgipile.source.ReadOptions.SEED_DEFAULT);
    owner.setDefault(handleInvalid, "error");
    if (threshold != null) {
      owner.setDefault(threshold, 0.5);
    }
    if (epsilon != null) {
      owner.setDefault(epsilon, 1.35);
    }
  }
}
