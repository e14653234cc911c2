package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.source.ReadScope;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Several users of one SparkSession: two fits in two threads, each with its own seed and settings,
 * and a SQL query over a {@code corgipile} view in a third, each give exactly what they give alone.
 * What a fit sets for its jobs (seed, epoch, round) lives in its own thread's local properties.
 */
class ConcurrentFitsTest {
  private static final int FEATURES = 4;
  private static String table;

  @BeforeAll
  static void writeTable() throws Exception {
    table = Files.createTempDirectory("concurrent-fits").resolve("t").toString();
    TrainingData.logisticColumns(8_000, FEATURES, 21, 2)
        .orderBy("label")
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 500)
        .parquet(table);
  }

  private static Dataset<Row> read(String shuffle, String partitions) {
    return TrainingData.spark()
        .read()
        .format("corgipile")
        .option("shuffle", shuffle)
        .option("partitions", partitions)
        .load(table);
  }

  /** A classifier at the default rounds (a job per buffer, filled ahead on the executor). */
  private static double[] classifier() {
    SGDClassificationModel m =
        new SGDClassifier()
            .setSeed(7)
            .setMaxIter(3)
            .setFeaturesCols(TrainingData.featureNames(FEATURES))
            .fit(read("corgipile", "3"));
    return concat(m.coefficients().toArray(), m.intercept(), m.summary().objectiveHistory());
  }

  /** A regressor on the label, another seed and other options, a round per epoch. */
  private static double[] regressor() {
    SGDRegressionModel m =
        new SGDRegressor()
            .setSeed(11)
            .setMaxIter(3)
            .setSyncInterval("epoch")
            .setFeaturesCols(TrainingData.featureNames(FEATURES))
            .fit(read("window", "2"));
    return concat(m.coefficients().toArray(), m.intercept(), m.summary().objectiveHistory());
  }

  /**
   * The ids in the order a SQL query over a corgipile view emits them, one list per epoch asked.
   */
  private static List<List<Long>> query() {
    SparkSession spark = TrainingData.spark();
    List<List<Long>> epochs = new ArrayList<>();
    for (int epoch = 0; epoch < 2; epoch++) {
      ReadScope.setEpoch(spark.sparkContext(), epoch);
      try {
        epochs.add(
            spark
                .sql("SELECT id FROM concurrent_fits_view")
                .as(org.apache.spark.sql.Encoders.LONG())
                .collectAsList());
      } finally {
        ReadScope.setEpoch(spark.sparkContext(), null);
      }
    }
    return epochs;
  }

  private static double[] concat(double[] coefficients, double intercept, double[] history) {
    double[] out = new double[coefficients.length + 1 + history.length];
    System.arraycopy(coefficients, 0, out, 0, coefficients.length);
    out[coefficients.length] = intercept;
    System.arraycopy(history, 0, out, coefficients.length + 1, history.length);
    return out;
  }

  @Test
  void twoFitsAndAQueryInThreadsGiveTheirSoloResults() throws Exception {
    TrainingData.spark()
        .read()
        .format("corgipile")
        .option("seed", 5)
        .option("partitions", 3)
        .load(table)
        .createOrReplaceTempView("concurrent_fits_view");
    double[] soloClassifier = classifier();
    double[] soloRegressor = regressor();
    List<List<Long>> soloQuery = query();
    assertThat(soloQuery.get(0)).hasSize(8_000).isNotEqualTo(soloQuery.get(1));

    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      CyclicBarrier start = new CyclicBarrier(3);
      Future<double[]> c = pool.submit(started(start, ConcurrentFitsTest::classifier));
      Future<double[]> r = pool.submit(started(start, ConcurrentFitsTest::regressor));
      Future<List<List<Long>>> q = pool.submit(started(start, ConcurrentFitsTest::query));
      assertThat(c.get(5, TimeUnit.MINUTES)).as("classifier").containsExactly(soloClassifier);
      assertThat(r.get(5, TimeUnit.MINUTES)).as("regressor").containsExactly(soloRegressor);
      assertThat(q.get(5, TimeUnit.MINUTES)).as("query").isEqualTo(soloQuery);
    } finally {
      pool.shutdownNow();
    }
  }

  private static <T> Callable<T> started(CyclicBarrier barrier, Callable<T> work) {
    return () -> {
      barrier.await(1, TimeUnit.MINUTES);
      return work.call();
    };
  }
}
