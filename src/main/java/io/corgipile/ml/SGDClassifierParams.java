package io.corgipile.ml;

import org.apache.spark.ml.param.DoubleParam;

/** The params of {@link SGDClassifier} and {@link SGDClassificationModel}. */
public interface SGDClassifierParams extends SGDParams {
  /** Default of {@link #stepSize()} for the classifier: its losses' derivatives are bounded by 1. */
  double DEFAULT_STEP_SIZE = 0.1;
  /** Default of {@link #threshold()}. */
  double DEFAULT_THRESHOLD = 0.5;

  /** Predict 1 when the probability of 1 exceeds this (default {@value #DEFAULT_THRESHOLD}). */
  default DoubleParam threshold() {
    return sgdParams().threshold;
  }

  default double getThreshold() {
    return (Double) $(threshold());
  }
}
