package io.corgipile.ml;

import io.corgipile.ml.common.FitJobs;
import io.corgipile.ml.lasso.LassoDataErrors;
import io.corgipile.ml.lasso.LassoSolver;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import org.apache.spark.ml.Predictor;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;

/**
 * Least squares with an L1 penalty (and optionally L2: the elastic net) by scheduled parallel
 * coordinate descent, after STRADS (Lee et al., NIPS 2014; Kim et al., EuroSys 2016): each round
 * updates {@code scheduleSize} coefficients at once, drawn by priority (those that changed most
 * recently) and, with the default {@code priority+dependency} scheduler, none two of them on
 * features correlated beyond {@code correlationThreshold}, since two such updates computed from the
 * same residuals overshoot together (naive parallel coordinate descent, {@code random}, can
 * diverge).
 *
 * <p>It minimizes (1/2n) |y - Xb - c|^2 + regParam (elasticNetParam |s b|_1 + (1 -
 * elasticNetParam)/2 |s b|^2), s the features' standard deviations with {@code standardization},
 * else 1: for the lasso, the objective of MLlib's {@code LinearRegression} at the same regParam.
 * Rows are partitioned as they come (any DataFrame, the {@code corgipile} source included);
 * features are a vector column, dense or sparse. See {@link LassoSolver} for the rounds.
 */
public class ScheduledLasso extends Predictor<Vector, ScheduledLasso, ScheduledLassoModel>
    implements ScheduledLassoParams, DefaultParamsWritable {
  private static final long serialVersionUID = 1L;

  // See PendingParams for why the holder is made before super().
  private final StageParams lassoParams;

  public ScheduledLasso() {
    this(Identifiable$.MODULE$.randomUID("scheduledLasso"));
  }

  public ScheduledLasso(String uid) {
    this(PendingParams.enter(uid, SPECS));
  }

  private ScheduledLasso(StageParams params) {
    super();
    lassoParams = PendingParams.exit(params, this);
  }

  @Override
  public StageParams lassoParams() {
    return lassoParams != null ? lassoParams : PendingParams.current();
  }

  /**
   * The uid of {@link ScheduledLassoParams#uid()}, declared on the class too: py4j does not find
   * inherited defaults.
   */
  @Override
  public String uid() {
    return lassoParams().uid;
  }

  public ScheduledLasso setRegParam(double value) {
    set(regParam(), value);
    return this;
  }

  public ScheduledLasso setElasticNetParam(double value) {
    set(elasticNetParam(), value);
    return this;
  }

  public ScheduledLasso setScheduleSize(int value) {
    set(scheduleSize(), value);
    return this;
  }

  public ScheduledLasso setCandidateFactor(double value) {
    set(candidateFactor(), value);
    return this;
  }

  public ScheduledLasso setPriorityFloor(double value) {
    set(priorityFloor(), value);
    return this;
  }

  public ScheduledLasso setCorrelationThreshold(double value) {
    set(correlationThreshold(), value);
    return this;
  }

  public ScheduledLasso setScheduler(String value) {
    set(scheduler(), value);
    return this;
  }

  public ScheduledLasso setMaxIter(int value) {
    set(maxIter(), value);
    return this;
  }

  public ScheduledLasso setTol(double value) {
    set(tol(), value);
    return this;
  }

  public ScheduledLasso setRefreshInterval(int value) {
    set(refreshInterval(), value);
    return this;
  }

  public ScheduledLasso setFitIntercept(boolean value) {
    set(fitIntercept(), value);
    return this;
  }

  public ScheduledLasso setStandardization(boolean value) {
    set(standardization(), value);
    return this;
  }

  public ScheduledLasso setSeed(long value) {
    set(seed(), value);
    return this;
  }

  @Override
  public ScheduledLassoModel train(Dataset<?> dataset) {
    LassoSolver.Result result =
        FitJobs.run(
            dataset,
            LassoDataErrors.ESTIMATOR,
            () -> new LassoSolver(this, getLabelCol(), getFeaturesCol()).fit(dataset));
    return new ScheduledLassoModel(
        uid(), Vectors.dense(result.coefficients()), result.intercept(), result.summary());
  }

  @Override
  public ScheduledLasso copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  public static MLReader<ScheduledLasso> read() {
    return new DefaultParamsReader<>();
  }

  public static ScheduledLasso load(String path) {
    return read().load(path);
  }
}
