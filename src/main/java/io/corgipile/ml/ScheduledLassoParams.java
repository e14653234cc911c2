package io.corgipile.ml;

import io.corgipile.ml.lasso.CoordinateSchedule;
import io.corgipile.ml.param.ParamSpec;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
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
 * The params of {@link ScheduledLasso} and {@link ScheduledLassoModel}, and the one home of their
 * defaults and allowed values.
 */
public interface ScheduledLassoParams extends Params {
  /** Default of {@link #regParam()}. */
  double DEFAULT_REG_PARAM = 0.0;

  /** Default of {@link #elasticNetParam()}. */
  double DEFAULT_ELASTIC_NET_PARAM = 1.0;

  /**
   * The value of {@link #scheduleSize()} that chooses L from the data ({@link #scheduleSizeFor}).
   */
  int AUTO_SCHEDULE_SIZE = 0;

  /** Default of {@link #scheduleSize()}: automatic. */
  int DEFAULT_SCHEDULE_SIZE = AUTO_SCHEDULE_SIZE;

  /** The schedule size that {@link #AUTO_SCHEDULE_SIZE} means without the dependency check. */
  int AUTO_SCHEDULE_SIZE_UNCHECKED = 32;

  /** Default of {@link #candidateFactor()}. */
  double DEFAULT_CANDIDATE_FACTOR = 2.0;

  /** Default of {@link #priorityFloor()}. */
  double DEFAULT_PRIORITY_FLOOR = 1e-3;

  /** Default of {@link #correlationThreshold()}. */
  double DEFAULT_CORRELATION_THRESHOLD = 0.1;

  /** Default of {@link #maxIter()}. */
  int DEFAULT_MAX_ITER = 100_000;

  /** Default of {@link #tol()}. */
  double DEFAULT_TOL = 1e-6;

  /** Default of {@link #refreshInterval()}. */
  int DEFAULT_REFRESH_INTERVAL = 10;

  /** The values {@link #scheduler()} takes; the first is the default. */
  List<String> SCHEDULERS = CoordinateSchedule.texts();

  // The declarations: name, doc (the MLlib param's), allowed values and default.
  ParamSpec<Double> REG_PARAM =
      ParamSpec.nonNegative(
          "regParam",
          "the penalty's strength, lambda in (1/2n)|y - Xb - c|^2 + lambda (alpha |s b|_1 + (1 -"
              + " alpha)/2 |s b|^2), s the features' standard deviations with standardization, else"
              + " 1",
          DEFAULT_REG_PARAM);
  ParamSpec<Double> ELASTIC_NET_PARAM =
      ParamSpec.fraction(
          "elasticNetParam",
          "the L1 share alpha of the penalty: 1" + " is the lasso, 0 ridge",
          DEFAULT_ELASTIC_NET_PARAM);
  ParamSpec<Integer> SCHEDULE_SIZE =
      ParamSpec.atLeast(
          "scheduleSize",
          "coefficients updated together in a round (L); 0 chooses them from the data: with the"
              + " dependency check a round keeps every candidate it lets through and a pass's"
              + " candidates are the non-zero coefficients and as many more drawn by priority;"
              + " without it, 32",
          0,
          ", 0: automatic",
          DEFAULT_SCHEDULE_SIZE);
  ParamSpec<Double> CANDIDATE_FACTOR =
      ParamSpec.number(
          "candidateFactor",
          "with the dependency check, candidates" + " sampled per coefficient scheduled (L'/L)",
          ">= 1",
          ParamValidators.gtEq(1),
          DEFAULT_CANDIDATE_FACTOR);
  ParamSpec<Double> PRIORITY_FLOOR =
      ParamSpec.positive(
          "priorityFloor",
          "added to every coefficient's priority (the size of the last change of its contribution"
              + " x_j b_j, in root mean squares of the label), so a coefficient that stayed put is"
              + " still drawn now and then",
          DEFAULT_PRIORITY_FLOOR);
  ParamSpec<Double> CORRELATION_THRESHOLD =
      ParamSpec.fraction(
          "correlationThreshold",
          "with the dependency check, the largest absolute correlation a candidate may have with a"
              + " coefficient already scheduled in its round",
          DEFAULT_CORRELATION_THRESHOLD);
  ParamSpec<String> SCHEDULER =
      ParamSpec.choice(
          "scheduler", "how a round's coefficients are picked", SCHEDULERS, SCHEDULERS.get(0));
  ParamSpec<Integer> MAX_ITER =
      ParamSpec.atLeast(
          "maxIter",
          "the most rounds (a round updates the coefficients the scheduler picks together; with the"
              + " dependency check one pass over the data serves several)",
          1,
          DEFAULT_MAX_ITER);
  ParamSpec<Double> TOL =
      ParamSpec.nonNegative(
          "tol",
          "training stops when the objective changed by less than this, relative, over the last"
              + " sweep (the rounds that update as many coefficients as there are features); 0 runs"
              + " all maxIter rounds",
          DEFAULT_TOL);
  ParamSpec<Integer> REFRESH_INTERVAL =
      ParamSpec.atLeast(
          "refreshInterval",
          "passes over the data between recomputing the cached residuals from the coefficients"
              + " (cuts their lineage, and the rounding the rounds' updates add up)",
          1,
          DEFAULT_REFRESH_INTERVAL);
  ParamSpec<Boolean> FIT_INTERCEPT =
      ParamSpec.flag("fitIntercept", "whether to fit an intercept term", true);
  ParamSpec<Boolean> STANDARDIZATION =
      ParamSpec.flag(
          "standardization",
          "whether the penalty applies to the coefficients of the standardized features (glmnet's"
              + " and MLlib's default); the coefficients are reported in the original scale either"
              + " way",
          true);
  ParamSpec<Long> SEED =
      ParamSpec.seed("seed", "the seed of the scheduler's draws", ReadOptions.SEED_DEFAULT);

  /** The params of the lasso and its model. */
  List<ParamSpec<?>> SPECS =
      List.of(
          REG_PARAM,
          ELASTIC_NET_PARAM,
          SCHEDULE_SIZE,
          CANDIDATE_FACTOR,
          PRIORITY_FLOOR,
          CORRELATION_THRESHOLD,
          SCHEDULER,
          MAX_ITER,
          TOL,
          REFRESH_INTERVAL,
          FIT_INTERCEPT,
          STANDARDIZATION,
          SEED);

  /** The holder of this instance's param objects. */
  StageParams lassoParams();

  /**
   * The uid, kept with the param objects: see {@link PendingParams} for why not in a field of the
   * stage.
   */
  @Override
  default String uid() {
    return lassoParams().uid;
  }

  /**
   * The penalty's strength lambda (default {@value #DEFAULT_REG_PARAM}, as MLlib's {@code
   * LinearRegression}: set it).
   */
  default DoubleParam regParam() {
    return lassoParams().get(REG_PARAM);
  }

  default double getRegParam() {
    return (Double) $(regParam());
  }

  /** The L1 share alpha of the penalty (default {@value #DEFAULT_ELASTIC_NET_PARAM}: the lasso). */
  default DoubleParam elasticNetParam() {
    return lassoParams().get(ELASTIC_NET_PARAM);
  }

  default double getElasticNetParam() {
    return (Double) $(elasticNetParam());
  }

  /**
   * Coefficients updated together in a round, L (default {@value #DEFAULT_SCHEDULE_SIZE}:
   * automatic, see {@link #scheduleSizeFor}).
   */
  default IntParam scheduleSize() {
    return lassoParams().get(SCHEDULE_SIZE);
  }

  default int getScheduleSize() {
    return (Integer) $(scheduleSize());
  }

  /**
   * The schedule size a fit uses: {@code size} when set, else (0, automatic) 0 with the dependency
   * check (a round keeps every candidate the check lets through; the solver picks the candidates
   * from the support) and {@value #AUTO_SCHEDULE_SIZE_UNCHECKED} without it.
   */
  static int scheduleSizeFor(int size, String scheduler) {
    if (size != AUTO_SCHEDULE_SIZE) {
      return size;
    }
    return scheduler.equals(SCHEDULERS.get(0)) ? AUTO_SCHEDULE_SIZE : AUTO_SCHEDULE_SIZE_UNCHECKED;
  }

  /**
   * With the dependency check, candidates drawn per coefficient scheduled, L'/L (default {@value
   * #DEFAULT_CANDIDATE_FACTOR}).
   */
  default DoubleParam candidateFactor() {
    return lassoParams().get(CANDIDATE_FACTOR);
  }

  default double getCandidateFactor() {
    return (Double) $(candidateFactor());
  }

  /**
   * Added to every coefficient's priority, a change in root mean squares of the label (default
   * {@value #DEFAULT_PRIORITY_FLOOR}; STRADS' 1e-4 is of raw coefficients; {@code scripts/bench
   * lasso --floors} compares others).
   */
  default DoubleParam priorityFloor() {
    return lassoParams().get(PRIORITY_FLOOR);
  }

  default double getPriorityFloor() {
    return (Double) $(priorityFloor());
  }

  /**
   * The largest absolute correlation between two coefficients of a round under the dependency check
   * (default {@value #DEFAULT_CORRELATION_THRESHOLD}, as STRADS).
   */
  default DoubleParam correlationThreshold() {
    return lassoParams().get(CORRELATION_THRESHOLD);
  }

  default double getCorrelationThreshold() {
    return (Double) $(correlationThreshold());
  }

  /** One of {@link #SCHEDULERS}; the first is the default. */
  default Param<String> scheduler() {
    return lassoParams().get(SCHEDULER);
  }

  default String getScheduler() {
    return $(scheduler());
  }

  /** The most rounds (default {@value #DEFAULT_MAX_ITER}). */
  default IntParam maxIter() {
    return lassoParams().get(MAX_ITER);
  }

  default int getMaxIter() {
    return (Integer) $(maxIter());
  }

  /**
   * The relative change of the objective over a sweep below which training stops (default {@value
   * #DEFAULT_TOL}).
   */
  default DoubleParam tol() {
    return lassoParams().get(TOL);
  }

  default double getTol() {
    return (Double) $(tol());
  }

  /**
   * Passes over the data between recomputing the cached residuals from the coefficients (default
   * {@value #DEFAULT_REFRESH_INTERVAL}).
   */
  default IntParam refreshInterval() {
    return lassoParams().get(REFRESH_INTERVAL);
  }

  default int getRefreshInterval() {
    return (Integer) $(refreshInterval());
  }

  /** Whether to fit an intercept (default true). */
  default BooleanParam fitIntercept() {
    return lassoParams().get(FIT_INTERCEPT);
  }

  default boolean getFitIntercept() {
    return (Boolean) $(fitIntercept());
  }

  /** Whether the penalty applies in the standardized features' scale (default true). */
  default BooleanParam standardization() {
    return lassoParams().get(STANDARDIZATION);
  }

  default boolean getStandardization() {
    return (Boolean) $(standardization());
  }

  /** The seed of the scheduler's draws. */
  default LongParam seed() {
    return lassoParams().get(SEED);
  }

  default long getSeed() {
    return (Long) $(seed());
  }
}
