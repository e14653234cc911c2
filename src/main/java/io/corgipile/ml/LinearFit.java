package io.corgipile.ml;

import java.io.Serializable;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;

/** What training made, held by both SGD models: the coefficients, the intercept, and how training went. */
final class LinearFit implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Vector coefficients;
  private final double intercept;
  /** In memory only: not saved, and not shipped to executors with the model. */
  private final transient SGDTrainingSummary summary;

  private LinearFit(Vector coefficients, double intercept, SGDTrainingSummary summary) {
    this.coefficients = coefficients;
    this.intercept = intercept;
    this.summary = summary;
  }

  /** What training made: dense coefficients, with the summary of how it went. */
  static LinearFit trained(double[] coefficients, double intercept, SGDTrainingSummary summary) {
    return new LinearFit(Vectors.dense(coefficients), intercept, summary);
  }

  /** A model made or loaded from its coefficients, without a training summary. */
  static LinearFit of(Vector coefficients, double intercept) {
    return new LinearFit(coefficients, intercept, null);
  }

  Vector coefficients() {
    return coefficients;
  }

  double intercept() {
    return intercept;
  }

  int numFeatures() {
    return coefficients.size();
  }

  boolean hasSummary() {
    return summary != null;
  }

  SGDTrainingSummary summary(String uid) {
    if (summary == null) {
      throw new IllegalStateException("Cannot get the training summary of " + uid
          + ": only a model returned by fit has one; a loaded or created model does not");
    }
    return summary;
  }

  /** {@code w.x + b}. */
  double margin(Vector features, String uid) {
    if (features.size() != coefficients.size()) {
      throw new IllegalArgumentException("Cannot predict with " + uid + ": the features have size "
          + features.size() + " but the model was trained on " + coefficients.size() + " features");
    }
    return coefficients.dot(features) + intercept;
  }
}
