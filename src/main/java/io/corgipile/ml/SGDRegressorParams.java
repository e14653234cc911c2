package io.corgipile.ml;

import org.apache.spark.ml.param.DoubleParam;

/** The params of {@link SGDRegressor} and {@link SGDRegressionModel}. */
public interface SGDRegressorParams extends SGDParams {
  /** Default of {@link #stepSize()} for the regressor: the squared loss's derivative grows with the error. */
  double DEFAULT_STEP_SIZE = 0.01;
  /** Default of {@link #epsilon()}. */
  double DEFAULT_EPSILON = 1.35;

  /** Where the {@code huber} loss turns from squared to linear, in label units (default {@value #DEFAULT_EPSILON}). */
  default DoubleParam epsilon() {
    return sgdParams().epsilon;
  }

  default double getEpsilon() {
    return (Double) $(epsilon());
  }
}
