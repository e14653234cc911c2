package io.corgipile.ml.sgd;

import io.corgipile.ml.SGDClassifierParams;
import io.corgipile.ml.SGDRegressorParams;
import java.util.List;

/** What an SGD estimator learns, and so which losses and labels it takes. */
public enum SGDTask {
  /**
   * The classification losses have derivatives bounded by 1, so a large first step cannot blow up;
   * the squared loss's grows with the error, so the regressor starts smaller.
   */
  CLASSIFICATION("SGDClassifier", List.of("logistic", "hinge"), SGDClassifierParams.DEFAULT_STEP_SIZE),
  REGRESSION("SGDRegressor", List.of("squared", "huber"), SGDRegressorParams.DEFAULT_STEP_SIZE);

  private final String estimatorName;
  private final List<String> losses;
  private final double defaultStepSize;

  SGDTask(String estimatorName, List<String> losses, double defaultStepSize) {
    this.estimatorName = estimatorName;
    this.losses = losses;
    this.defaultStepSize = defaultStepSize;
  }

  /** With the default {@code invsqrt} schedule, on standardized features. */
  public double defaultStepSize() {
    return defaultStepSize;
  }

  /** The estimator's class name, for messages. */
  public String estimatorName() {
    return estimatorName;
  }

  /** The allowed values of {@code loss}; the first is the default. */
  public List<String> losses() {
    return losses;
  }
}
