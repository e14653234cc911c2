package io.corgipile.ml;

import io.corgipile.spark.FeatureVector;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The layout of a row as training reads it, {@code (features, label, weight?)}, and what makes one
 * unusable: one home for the checks both the feature summary and the SGD pass apply.
 */
final class TrainingRow {
  static final int FEATURES = 0;
  static final int LABEL = 1;
  static final int WEIGHT = 2;

  private TrainingRow() {}

  /** What makes the row unusable, or null. Features are checked for finiteness by {@link #nonFiniteFeature}. */
  static String problem(SGDConfig config, InternalRow row) {
    if (row.isNullAt(FEATURES)) {
      return "a row has null features in column '" + config.featuresCol() + "'";
    }
    if (row.isNullAt(LABEL)) {
      return "a row has a null label in column '" + config.labelCol() + "'";
    }
    double label = row.getDouble(LABEL);
    if (config.task() == SGDTask.CLASSIFICATION ? !isClass(label, config.numClasses()) : !Double.isFinite(label)) {
      return "a row has label " + label + " in column '" + config.labelCol() + "'; "
          + (config.task() == SGDTask.CLASSIFICATION ? allowedLabels(config.numClasses()) : "labels must be finite");
    }
    if (config.weighted()) {
      if (row.isNullAt(WEIGHT)) {
        return "a row has a null weight in column '" + config.weightCol() + "'";
      }
      double weight = row.getDouble(WEIGHT);
      if (!(weight >= 0) || Double.isInfinite(weight)) {
        return "a row has weight " + weight + " in column '" + config.weightCol()
            + "'; weights must be finite and >= 0";
      }
    }
    return null;
  }

  /** Whether {@code label} is one of the integers 0..numClasses-1. */
  static boolean isClass(double label, int numClasses) {
    return label >= 0 && label < numClasses && label == Math.rint(label);
  }

  /** What a classifier's labels may be, for messages: "allowed labels are 0 and 1". */
  static String allowedLabels(int numClasses) {
    return numClasses == 2 ? "allowed labels are 0 and 1" : "allowed labels are the integers 0 to " + (numClasses - 1);
  }

  /** The row's weight: 1 without a weight column. */
  static double weight(SGDConfig config, InternalRow row) {
    return config.weighted() ? row.getDouble(WEIGHT) : 1.0;
  }

  /** A feature that is NaN or infinite, as a problem, or null. */
  static String nonFiniteFeature(SGDConfig config, FeatureVector x) {
    for (int k = 0, n = x.numStored(); k < n; k++) {
      if (!Double.isFinite(x.value(k))) {
        return "a row has feature " + x.index(k) + " = " + x.value(k) + " in column '" + config.featuresCol() + "'";
      }
    }
    return null;
  }

  /** The error for an unusable row when {@code handleInvalid} is {@code error}. */
  static InvalidTrainingDataException invalid(SGDConfig config, String problem) {
    return new InvalidTrainingDataException(config.cannotTrain() + problem
        + "; set handleInvalid to 'skip' to leave such rows out");
  }
}
