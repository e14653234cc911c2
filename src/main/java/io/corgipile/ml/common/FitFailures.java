package io.corgipile.ml.common;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.source.CorgiPileAnalysisException;
import io.corgipile.source.CorgiPileReadException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How a fit reports what its Spark jobs' tasks found wrong with the data: Spark wraps a task's
 * error in its job's failure, whose message carries the task's stack trace (a PySpark user sees a
 * {@code Py4JJavaError} of hundreds of lines). A row that cannot be used becomes the driver's own
 * {@link InvalidTrainingDataException}, a file of a {@code corgipile} table that cannot be read a
 * {@link CorgiPileAnalysisException}, each with the task's one-line message and the job's failure
 * as cause.
 */
public final class FitFailures {
  private FitFailures() {}

  /**
   * Rows (or partitions) whose feature vectors differ in size, found by a fit whose errors start
   * with {@code cannotTrain} ("Cannot train SGDClassifier: ").
   */
  public static InvalidTrainingDataException featureSizeMismatch(
      String cannotTrain, String featuresCol, int size, int otherSize) {
    return new InvalidTrainingDataException(
        cannotTrain
            + "features in column '"
            + featuresCol
            + "' have size "
            + size
            + " in one row and "
            + otherSize
            + " in another");
  }

  /** Runs a fit, reporting the data's problems found in its jobs as the driver's own exceptions. */
  static <T> T reportingDataErrors(Supplier<T> fit) {
    try {
      return fit.get();
    } catch (Exception e) { // a failed job throws SparkException, checked though undeclared
      Optional<InvalidTrainingDataException> data = inChain(e, InvalidTrainingDataException.class);
      if (data.isPresent()) {
        throw data.get() == e
            ? data.get()
            : new InvalidTrainingDataException(data.get().getMessage(), e);
      }
      Optional<CorgiPileReadException> read = inChain(e, CorgiPileReadException.class);
      if (read.isPresent()) {
        throw CorgiPileAnalysisException.raise(read.get().getMessage(), e);
      }
      throw e;
    }
  }

  /**
   * The first {@code type} in {@code failure}'s cause chain: a task's error arrives wrapped in its
   * job's failure.
   */
  private static <E extends Throwable> Optional<E> inChain(Throwable failure, Class<E> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return Optional.of(type.cast(t));
      }
    }
    return Optional.empty();
  }
}
