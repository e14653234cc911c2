package io.corgipile.cli;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * An application that knows nothing of this package but its SQL name: the submit tests ship it in a
 * jar of its own, so it runs only if spark-submit put the package on the class path.
 */
public final class SqlViewApp {
  private SqlViewApp() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().appName("sql-view-app").getOrCreate();
    try {
      spark.sql(
          "CREATE TEMPORARY VIEW t USING corgipile OPTIONS (path '"
              + args[0].replace("'", "\\'")
              + "', bufferSize '10%')");
      Row r = spark.sql("SELECT count(*), count(DISTINCT id), avg(label) FROM t").first();
      System.out.println(
          "rows=" + r.getLong(0) + " distinct=" + r.getLong(1) + " positives=" + r.getDouble(2));
    } finally {
      spark.stop();
    }
  }
}
