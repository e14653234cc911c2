package io.corgipile.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.columnar.InMemoryRelation;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.exchange.Exchange;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A training {@code Dataset}'s internals: its internal rows, whether its plan reads cached data,
 * and the one scan its partitions come from.
 */
public final class DatasetInternals {
  private DatasetInternals() {}

  /**
   * The rows of {@code dataset} as Spark's internal rows: no {@code Row} object per row, and when
   * its plan only picks columns of one columnar scan (and adds double constants), read straight
   * from the scan's column batches ({@link ScanProjection}); the same rows in the same order either
   * way.
   */
  public static RDD<InternalRow> internalRows(Dataset<?> dataset) {
    QueryExecution execution = classic(dataset).queryExecution();
    return ScanProjection.of(execution.executedPlan())
        .map(ScanProjection::rows)
        .orElseGet(execution::toRdd);
  }

  /**
   * Whether executing {@code dataset} reads data cached with {@code cache()} or {@code persist()}.
   */
  public static boolean readsCachedData(Dataset<?> dataset) {
    LogicalPlan plan = classic(dataset).queryExecution().withCachedData();
    return plan.exists(node -> node instanceof InMemoryRelation);
  }

  private static org.apache.spark.sql.classic.Dataset<?> classic(Dataset<?> dataset) {
    return (org.apache.spark.sql.classic.Dataset<?>) dataset;
  }

  /**
   * The data source scan whose partitions are the partitions of {@code dataset}: present when the
   * physical plan reads exactly one V2 scan and moves no row between partitions (no exchange, so
   * also no adaptive plan), so partition i of the result holds exactly the rows scan partition i
   * produced, in its order.
   */
  public static Optional<Scan> onlyScanWithoutExchange(Dataset<?> dataset) {
    SparkPlan plan = classic(dataset).queryExecution().executedPlan();
    List<SparkPlan> nodes = new ArrayList<>();
    collect(plan, nodes);
    List<Scan> scans = new ArrayList<>();
    for (SparkPlan node : nodes) {
      if (node instanceof Exchange || node instanceof AdaptiveSparkPlanExec) {
        return Optional.empty();
      }
      if (node instanceof BatchScanExec scan) {
        scans.add(scan.scan());
      } else if (node.children().isEmpty()) {
        return Optional.empty(); // another leaf: a cached relation, a local table, a V1 file scan
      }
    }
    return scans.size() == 1 ? Optional.of(scans.get(0)) : Optional.empty();
  }

  private static void collect(SparkPlan node, List<SparkPlan> into) {
    into.add(node);
    for (SparkPlan child : CollectionConverters.asJava(node.children())) {
      collect(child, into);
    }
  }
}
