package io.corgipile.ml;

import io.corgipile.source.CorgiPileAnalysisException;
import io.corgipile.source.CorgiPileReadException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How a fit reports what its Spark jobs' tasks found wrong with the data: Spark wraps a task's error
 * in its job's failure, whose message carries the task's stack trace (a PySpark user sees a
 * {@code Py4JJavaError} of hundreds of lines). A row that cannot be used becomes the driver's own
 * {@link InvalidTrainingDataException}, a file of a {@code corgipile} table that cannot be read a
 * {@link CorgiPileAnalysisException}, each with the task's one-line message and the job's failure
 * as cause.
 */
final class FitFailures {
  private FitFailures() {}

  /** Runs a fit, reporting the data's problems found in its jobs as the driver's own exceptions. */
  static <T> T reportingDataErrors(Supplier<T> fit) {
    try {
      return fit.get();
    } catch (Exception e) { // a failed job throws SparkException, checked though undeclared
      InvalidTrainingDataException data = dataProblem(e);
      if (data != null) {
        throw data;
      }
      Optional<CorgiPileReadException> read = CorgiPileReadException.in(e);
      if (read.isPresent()) {
        throw CorgiPileAnalysisException.raise(read.get().getMessage(), e);
      }
      throw e;
    }
  }

  /** An executor's complaint about the data as the driver's own exception, or null for any other failure. */
  private static InvalidTrainingDataException dataProblem(Exception failure) {
    if (failure instanceof InvalidTrainingDataException driversOwn) {
      return driversOwn;
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof InvalidTrainingDataException data) {
        return new InvalidTrainingDataException(data.getMessage(), failure);
      }
    }
    return null;
  }
}
