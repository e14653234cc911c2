package io.corgipile.ml;

import org.apache.spark.ml.param.DoubleParam;

/** The params of {@link SGDClassifier} and {@link SGDClassificationModel}. */
public interface SGDClassifierParams extends SGDParams {
  /** Predict 1 when the probability of 1 exceeds this (default 0.5). */
  default DoubleParam threshold() {
    return sgdParams().threshold;
  }

  default double getThreshold() {
    return (Double) $(threshold());
  }
}
