package io.corgipile.ml;

import io.corgipile.ml.lasso.CoordinateSchedule;
import io.corgipile.ml.param.LassoParamSet;
import io.corgipile.ml.param.PendingParams;
import java.util.List;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
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
  /** Default of {@link #scheduleSize()}. */
  int DEFAULT_SCHEDULE_SIZE = 32;
  /** Default of {@link #candidateFactor()}. */
  double DEFAULT_CANDIDATE_FACTOR = 2.0;
  /** Default of {@link #priorityFloor()}. */
  double DEFAULT_PRIORITY_FLOOR = 1e-3;
  /** Default of {@link #correlationThreshold()}. */
  double DEFAULT_CORRELATION_THRESHOLD = 0.1;
  /** Default of {@link #maxIter()}. */
  int DEFAULT_MAX_ITER = 1000;
  /** Default of {@link #tol()}. */
  double DEFAULT_TOL = 1e-6;
  /** Default of {@link #refreshInterval()}. */
  int DEFAULT_REFRESH_INTERVAL = 10;
  /** The values {@link #scheduler()} takes; the first is the default. */
  List<String> SCHEDULERS = CoordinateSchedule.texts();

  /** The holder of this instance's param objects. */
  LassoParamSet lassoParams();

  /** The uid, kept with the param objects: see {@link PendingParams} for why not in a field of the stage. */
  @Override
  default String uid() {
    return lassoParams().uid;
  }

  /**
   * The penalty's strength lambda (default {@value #DEFAULT_REG_PARAM}, as MLlib's {@code LinearRegression}: set it).
   */
  default DoubleParam regParam() {
    return lassoParams().regParam;
  }

  default double getRegParam() {
    return (Double) $(regParam());
  }

  /** The L1 share alpha of the penalty (default {@value #DEFAULT_ELASTIC_NET_PARAM}: the lasso). */
  default DoubleParam elasticNetParam() {
    return lassoParams().elasticNetParam;
  }

  default double getElasticNetParam() {
    return (Double) $(elasticNetParam());
  }

  /** Coefficients updated together in a round, L (default {@value #DEFAULT_SCHEDULE_SIZE}, as STRADS). */
  default IntParam scheduleSize() {
    return lassoParams().scheduleSize;
  }

  default int getScheduleSize() {
    return (Integer) $(scheduleSize());
  }

  /**
   * With the dependency check, candidates drawn per coefficient scheduled, L'/L (default {@value
   * #DEFAULT_CANDIDATE_FACTOR}).
   */
  default DoubleParam candidateFactor() {
    return lassoParams().candidateFactor;
  }

  default double getCandidateFactor() {
    return (Double) $(candidateFactor());
  }

  /**
   * Added to every coefficient's priority, a change in root mean squares of the label (default {@value
   * #DEFAULT_PRIORITY_FLOOR}; STRADS' 1e-4 is of raw coefficients; {@code scripts/bench lasso --floors}
   * compares others).
   */
  default DoubleParam priorityFloor() {
    return lassoParams().priorityFloor;
  }

  default double getPriorityFloor() {
    return (Double) $(priorityFloor());
  }

  /**
   * The largest absolute correlation between two coefficients of a round under the dependency check (default {@value
   * #DEFAULT_CORRELATION_THRESHOLD}, as STRADS).
   */
  default DoubleParam correlationThreshold() {
    return lassoParams().correlationThreshold;
  }

  default double getCorrelationThreshold() {
    return (Double) $(correlationThreshold());
  }

  /** One of {@link #SCHEDULERS}; the first is the default. */
  default Param<String> scheduler() {
    return lassoParams().scheduler;
  }

  default String getScheduler() {
    return $(scheduler());
  }

  /** The most rounds (default {@value #DEFAULT_MAX_ITER}). */
  default IntParam maxIter() {
    return lassoParams().maxIter;
  }

  default int getMaxIter() {
    return (Integer) $(maxIter());
  }

  /** The relative change of the objective over a sweep below which training stops (default {@value #DEFAULT_TOL}). */
  default DoubleParam tol() {
    return lassoParams().tol;
  }

  default double getTol() {
    return (Double) $(tol());
  }

  /**
   * Passes over the data between recomputing the cached residuals from the coefficients (default {@value
   * #DEFAULT_REFRESH_INTERVAL}).
   */
  default IntParam refreshInterval() {
    return lassoParams().refreshInterval;
  }

  default int getRefreshInterval() {
    return (Integer) $(refreshInterval());
  }

  /** Whether to fit an intercept (default true). */
  default BooleanParam fitIntercept() {
    return lassoParams().fitIntercept;
  }

  default boolean getFitIntercept() {
    return (Boolean) $(fitIntercept());
  }

  /** Whether the penalty applies in the standardized features' scale (default true). */
  default BooleanParam standardization() {
    return lassoParams().standardization;
  }

  default boolean getStandardization() {
    return (Boolean) $(standardization());
  }

  /** The seed of the scheduler's draws. */
  default LongParam seed() {
    return lassoParams().seed;
  }

  default long getSeed() {
    return (Long) $(seed());
  }
}
