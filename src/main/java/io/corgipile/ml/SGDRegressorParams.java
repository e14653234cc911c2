package io.corgipile.ml;

import org.apache.spark.ml.param.DoubleParam;

/** The params of {@link SGDRegressor} and {@link SGDRegressionModel}. */
public interface SGDRegressorParams extends SGDParams {
  /** Where the {@code huber} loss turns from squared to linear, in label units (default 1.35). */
  default DoubleParam epsilon() {
    return sgdParams().epsilon;
  }

  default double getEpsilon() {
    return (Double) $(epsilon());
  }
}
