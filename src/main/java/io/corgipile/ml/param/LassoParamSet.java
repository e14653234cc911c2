package io.corgipile.ml.param;

import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.ScheduledLassoParams;
import io.corgipile.source.ReadOptions;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;

/**
 * The param objects of {@link ScheduledLasso} and its model, and their uid: made once per instance
 * (by {@link PendingParams}); {@link ScheduledLassoParams} exposes them as the public methods MLlib
 * finds by reflection.
 */
public final class LassoParamSet implements PendingParams.Holder, java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** The uid of the stage these params belong to: the stage's {@code uid()}. */
  public final String uid;
  public final DoubleParam regParam;
  public final DoubleParam elasticNetParam;
  public final IntParam scheduleSize;
  public final DoubleParam candidateFactor;
  public final DoubleParam priorityFloor;
  public final DoubleParam correlationThreshold;
  public final Param<String> scheduler;
  public final IntParam maxIter;
  public final DoubleParam tol;
  public final IntParam refreshInterval;
  public final BooleanParam fitIntercept;
  public final BooleanParam standardization;
  public final LongParam seed;

  public LassoParamSet(String uid) {
    this.uid = uid;
    regParam = CheckedParams.number(uid, "regParam", "the penalty's strength, lambda in (1/2n)|y - Xb - c|^2 +"
        + " lambda (alpha |s b|_1 + (1 - alpha)/2 |s b|^2), s the features' standard deviations with standardization,"
        + " else 1", ">= 0", ParamValidators.gtEq(0));
    elasticNetParam = CheckedParams.number(uid, "elasticNetParam", "the L1 share alpha of the penalty: 1 is the"
        + " lasso, 0 ridge", "in [0, 1]", ParamValidators.inRange(0, 1));
    scheduleSize = CheckedParams.atLeast(uid, "scheduleSize", "coefficients updated together in a round (L)", 1);
    candidateFactor = CheckedParams.number(uid, "candidateFactor", "with the dependency check, candidates sampled"
        + " per coefficient scheduled (L'/L)", ">= 1", ParamValidators.gtEq(1));
    priorityFloor = CheckedParams.number(uid, "priorityFloor", "added to every coefficient's priority (the size of"
        + " the last change of its contribution x_j b_j, in root mean squares of the label), so a coefficient that"
        + " stayed put is still drawn now and then",
        "> 0", ParamValidators.gt(0));
    correlationThreshold = CheckedParams.number(uid, "correlationThreshold", "with the dependency check, the"
        + " largest absolute correlation a candidate may have with a coefficient already scheduled in its round",
        "in [0, 1]", ParamValidators.inRange(0, 1));
    scheduler = CheckedParams.choice(uid, "scheduler", "how a round's coefficients are picked",
        ScheduledLassoParams.SCHEDULERS);
    maxIter = CheckedParams.atLeast(uid, "maxIter", "the most rounds (a round updates the coefficients the"
        + " scheduler picks together; with the dependency check one pass over the data serves several)", 1);
    tol = CheckedParams.number(uid, "tol", "training stops when the objective changed by less than this, relative,"
        + " over the last sweep (the rounds that update as many coefficients as there are features); 0 runs all"
        + " maxIter rounds", ">= 0", ParamValidators.gtEq(0));
    refreshInterval = CheckedParams.atLeast(uid, "refreshInterval",
        "passes over the data between recomputing the cached"
        + " residuals from the coefficients (cuts their lineage, and the rounding the rounds' updates add up)", 1);
    fitIntercept = new BooleanParam(uid, "fitIntercept", "whether to fit an intercept term");
    standardization = new BooleanParam(uid, "standardization", "whether the penalty applies to the coefficients"
        + " of the standardized features (glmnet's and MLlib's default); the coefficients are reported in the"
        + " original scale either way");
    seed = new LongParam(uid, "seed", "the seed of the scheduler's draws");
  }

  @Override
  public void setDefaults(Params owner) {
    owner.setDefault(regParam, ScheduledLassoParams.DEFAULT_REG_PARAM);
    owner.setDefault(elasticNetParam, ScheduledLassoParams.DEFAULT_ELASTIC_NET_PARAM);
    owner.setDefault(scheduleSize, ScheduledLassoParams.DEFAULT_SCHEDULE_SIZE);
    owner.setDefault(candidateFactor, ScheduledLassoParams.DEFAULT_CANDIDATE_FACTOR);
    owner.setDefault(priorityFloor, ScheduledLassoParams.DEFAULT_PRIORITY_FLOOR);
    owner.setDefault(correlationThreshold, ScheduledLassoParams.DEFAULT_CORRELATION_THRESHOLD);
    owner.setDefault(scheduler, ScheduledLassoParams.SCHEDULERS.get(0));
    owner.setDefault(maxIter, ScheduledLassoParams.DEFAULT_MAX_ITER);
    owner.setDefault(tol, ScheduledLassoParams.DEFAULT_TOL);
    owner.setDefault(refreshInterval, ScheduledLassoParams.DEFAULT_REFRESH_INTERVAL);
    owner.setDefault(fitIntercept, true);
    owner.setDefault(standardization, true);
    owner.setDefault(seed, ReadOptions.SEED_DEFAULT);
  }
}
