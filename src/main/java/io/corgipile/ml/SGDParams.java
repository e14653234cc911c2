package io.corgipile.ml;

import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;

/** The params shared by the SGD estimators and their models. */
public interface SGDParams extends Params {
  /** The holder of this instance's param objects. */
  SGDParamSet sgdParams();

  /** The uid, kept with the param objects: see {@link PendingParams} for why not in a field of the stage. */
  @Override
  default String uid() {
    return sgdParams().uid;
  }

  /** {@code logistic} or {@code hinge} for the classifier, {@code squared} or {@code huber} for the regressor. */
  default Param<String> loss() {
    return sgdParams().loss;
  }

  default String getLoss() {
    return $(loss());
  }

  /** The maximum number of epochs (default 10). */
  default IntParam maxIter() {
    return sgdParams().maxIter;
  }

  default int getMaxIter() {
    return (Integer) $(maxIter());
  }

  /** Stop when the epoch objective improves by less than this, relatively (default 1e-4; 0 disables). */
  default DoubleParam tol() {
    return sgdParams().tol;
  }

  default double getTol() {
    return (Double) $(tol());
  }

  /** The initial learning rate (default 0.1 for the classifier, 0.01 for the regressor). */
  default DoubleParam stepSize() {
    return sgdParams().stepSize;
  }

  default double getStepSize() {
    return (Double) $(stepSize());
  }

  /** {@code constant}, {@code decay} (stepSize * decayRate^epoch) or {@code invsqrt} (default: stepSize / sqrt(t)). */
  default Param<String> stepSchedule() {
    return sgdParams().stepSchedule;
  }

  default String getStepSchedule() {
    return $(stepSchedule());
  }

  /** The factor per epoch of the {@code decay} schedule (default 0.95). */
  default DoubleParam decayRate() {
    return sgdParams().decayRate;
  }

  default double getDecayRate() {
    return (Double) $(decayRate());
  }

  /** Tuples per update within a partition (default 1). */
  default IntParam batchSize() {
    return sgdParams().batchSize;
  }

  default int getBatchSize() {
    return (Integer) $(batchSize());
  }

  /** The regularization strength (default 0). */
  default DoubleParam regParam() {
    return sgdParams().regParam;
  }

  default double getRegParam() {
    return (Double) $(regParam());
  }

  /** The L1 share of the regularization: 0 is L2 (default), 1 is L1. */
  default DoubleParam elasticNetParam() {
    return sgdParams().elasticNetParam;
  }

  default double getElasticNetParam() {
    return (Double) $(elasticNetParam());
  }

  /** Whether to fit an intercept (default true). */
  default BooleanParam fitIntercept() {
    return sgdParams().fitIntercept;
  }

  default boolean getFitIntercept() {
    return (Boolean) $(fitIntercept());
  }

  /**
   * Whether, from the second epoch on, each partition returns the mean of its iterates over the
   * epoch rather than its last iterate (default true). The mean weighs every buffer of the epoch
   * alike, so it does not lean toward the label mix of the last buffers. With L1, a coefficient the
   * last iterate holds at zero stays zero.
   */
  default BooleanParam averaging() {
    return sgdParams().averaging;
  }

  default boolean getAveraging() {
    return (Boolean) $(averaging());
  }

  /** The column of row weights; empty (default): every row weighs 1. */
  default Param<String> weightCol() {
    return sgdParams().weightCol;
  }

  default String getWeightCol() {
    return $(weightCol());
  }

  /** The seed of the CorgiPile order; when set it overrides the corgipile source's {@code seed} option. */
  default LongParam seed() {
    return sgdParams().seed;
  }

  default long getSeed() {
    return (Long) $(seed());
  }

  /** {@code error} (default) or {@code skip} for invalid rows. */
  default Param<String> handleInvalid() {
    return sgdParams().handleInvalid;
  }

  default String getHandleInvalid() {
    return $(handleInvalid());
  }
}
