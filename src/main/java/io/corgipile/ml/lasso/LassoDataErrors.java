package io.corgipile.ml.lasso;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.common.FitFailures;
import java.io.Serializable;

/**
 * The errors of training rows {@link ScheduledLasso} cannot use, naming the column; executors raise
 * them.
 */
public record LassoDataErrors(String labelCol, String featuresCol) implements Serializable {
  public static final String ESTIMATOR = "ScheduledLasso";
  static final String CANNOT_TRAIN = "Cannot train " + ESTIMATOR + ": ";

  InvalidTrainingDataException nullLabel() {
    return new InvalidTrainingDataException(
        CANNOT_TRAIN + "a row has a null label in column '" + labelCol + "'");
  }

  InvalidTrainingDataException nullFeatures() {
    return new InvalidTrainingDataException(
        CANNOT_TRAIN + "a row has null features in column '" + featuresCol + "'");
  }

  InvalidTrainingDataException label(double value) {
    return new InvalidTrainingDataException(
        CANNOT_TRAIN
            + "a row has label "
            + value
            + " in column '"
            + labelCol
            + "'; labels must be finite numbers");
  }

  InvalidTrainingDataException feature(int index, double value) {
    return new InvalidTrainingDataException(
        CANNOT_TRAIN
            + "a row has feature "
            + index
            + " = "
            + value
            + " in column '"
            + featuresCol
            + "'; features must be finite numbers");
  }

  InvalidTrainingDataException sizes(int size, int otherSize) {
    return FitFailures.featureSizeMismatch(CANNOT_TRAIN, featuresCol, size, otherSize);
  }
}
