package io.corgipile.ml.common;

import io.corgipile.source.ReadScope;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;

/**
 * The Spark jobs of one fit, for every estimator: each tagged with the fit's own tag, so a fit that
 * stops (its thread interrupted, its code failing) cancels its jobs and only those, since an
 * interrupted thread stops waiting for its job but Spark lets the job run on; named in the Spark
 * UI; and the data's problems its tasks find reported as the driver's own exceptions ({@link
 * FitFailures}). The thread's {@link ReadScope} and job description are as they were after the fit.
 */
public final class FitJobs {
  /** Tags every job of a fit, followed by an id of the fit. */
  static final String JOB_TAG_PREFIX = "corgipile-fit-";

  /** The local property that names a job in the Spark UI. */
  private static final String JOB_DESCRIPTION = "spark.job.description";

  private FitJobs() {}

  /** Runs {@code fit}, whose jobs read {@code dataset}, as one fit of {@code estimatorName}. */
  public static <T> T run(Dataset<?> dataset, String estimatorName, Supplier<T> fit) {
    SparkContext sc = dataset.sparkSession().sparkContext();
    String tag = JOB_TAG_PREFIX + UUID.randomUUID();
    String description = sc.getLocalProperty(JOB_DESCRIPTION);
    sc.addJobTag(tag);
    try (ReadScope.Saved scope = ReadScope.save(sc)) {
      return FitFailures.reportingDataErrors(fit);
    } catch (Throwable t) {
      // After any failure but an interrupt no job of the fit is left, and this does nothing.
      sc.cancelJobsWithTag(tag, estimatorName + " stopped: " + t);
      throw t;
    } finally {
      sc.removeJobTag(tag);
      sc.setLocalProperty(JOB_DESCRIPTION, description);
    }
  }

  /** Names the thread's next jobs in the Spark UI: {@code "<estimatorName> <what>"}. */
  public static void describe(SparkContext sc, String estimatorName, String what) {
    sc.setLocalProperty(JOB_DESCRIPTION, estimatorName + " " + what);
  }
}
