package io.corgipile.spark;

import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.columnar.InMemoryRelation;

/** A training {@code Dataset}'s internals: its internal rows, and whether its plan reads cached data. */
public final class DatasetInternals {
  private DatasetInternals() {}

  /** The rows of {@code dataset} as Spark's internal rows: no {@code Row} object per row. */
  public static RDD<InternalRow> internalRows(Dataset<?> dataset) {
    return classic(dataset).queryExecution().toRdd();
  }

  /** Whether executing {@code dataset} reads data cached with {@code cache()} or {@code persist()}. */
  public static boolean readsCachedData(Dataset<?> dataset) {
    LogicalPlan plan = classic(dataset).queryExecution().withCachedData();
    return plan.exists(node -> node instanceof InMemoryRelation);
  }

  private static org.apache.spark.sql.classic.Dataset<?> classic(Dataset<?> dataset) {
    return (org.apache.spark.sql.classic.Dataset<?>) dataset;
  }
}
