package io.corgipile.ml.sgd;

import java.util.List;

/** What an SGD estimator learns, and so which losses and labels it takes. */
public enum SGDTask {
  CLASSIFICATION("SGDClassifier", List.of("logistic", "hinge")),
  REGRESSION("SGDRegressor", List.of("squared", "huber"));

  private final String estimatorName;
  private final List<String> losses;

  SGDTask(String estimatorName, List<String> losses) {
    this.estimatorName = estimatorName;
    this.losses = losses;
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
