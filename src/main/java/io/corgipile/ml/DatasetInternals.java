package io.corgipile.ml;

import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.columnar.InMemoryRelation;

/**
 * The training side's only use of Spark-internal APIs ({@code org.apache.spark.sql.execution}):
 * a Spark upgrade that moves them touches this file alone.
 */
final class DatasetInternals {
  private DatasetInternals() {}

  /** The rows of {@code dataset} as Spark's internal rows: no {@code Row} object per row. */
  static RDD<InternalRow> internalRows(Dataset<?> dataset) {
    return ((org.apache.spark.sql.classic.Dataset<?>) dataset).queryExecution().toRdd();
  }

  /** Whether executing {@code dataset} reads data cached with {@code cache()} or {@code persist()}. */
  static boolean readsCachedData(Dataset<?> dataset) {
    LogicalPlan plan = ((org.apache.spark.sql.classic.Dataset<?>) dataset).queryExecution().withCachedData();
    return plan.exists(node -> node instanceof InMemoryRelation);
  }
}
