package io.corgipile;

import org.apache.spark.sql.SparkSession;

/** The one SparkSession of a test JVM. */
public final class SharedSpark {
  private static SparkSession session;

  private SharedSpark() {}

  /**
   * {@code local[2,2]}: two cores, and a failed task is retried once, as on a cluster, so tests can
   * check what a retried task emits.
   */
  public static synchronized SparkSession get() {
    if (session == null) {
      session =
          SparkSession.builder()
              .master("local[2,2]")
              .appName("corgipile-tests")
              .config("spark.ui.enabled", "false")
              .config("spark.sql.shuffle.partitions", "4")
              .config("spark.driver.bindAddress", "127.0.0.1")
              .config("spark.driver.host", "127.0.0.1")
              .getOrCreate();
    }
    return session;
  }
}
