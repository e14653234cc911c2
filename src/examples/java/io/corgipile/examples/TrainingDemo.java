package io.corgipile.examples;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.rand;

import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDTrainingSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The demo of the README and docs/getting-started.md: writes HIGGS-shaped training data sorted by
 * label (as data sorted by date, source or class is) and a fully shuffled copy of it, then trains
 * the same SGDClassifier on the 28 feature columns ({@code featuresCols}, standardized inside) over
 * storage order, over the {@code corgipile} source, and over the shuffled copy, and prints test
 * accuracy and seconds for each.
 *
 * <p>Usage: {@code TrainingDemo [rows] [dataDir]}. With no arguments: 500,000 rows under {@code
 * target/demo-data}, on local Spark.
 */
public final class TrainingDemo {
  private static final int PARTITIONS = 2;

  private TrainingDemo() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 500_000L;
    Path dir =
        Path.of(args.length > 1 ? args[1] : "target/demo-data").resolve("higgs-shaped-" + rows);
    SparkSession spark =
        SparkSession.builder()
            .appName("corgipile-demo")
            .master(System.getProperty("spark.master", "local[" + PARTITIONS + "]"))
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    try {
      String sorted = dir.resolve("train-sorted-by-label").toString();
      String shuffled = dir.resolve("train-shuffled").toString();
      String test = dir.resolve("test").toString();
      if (!Files.exists(Path.of(test, "_SUCCESS"))) {
        write(spark, rows, sorted, shuffled, test);
      }
      Dataset<Row> testSet = spark.read().parquet(test).cache();
      System.out.printf(
          Locale.ROOT,
          "%nTraining SGDClassifier on the 28 feature columns (featuresCols; defaults: logistic"
              + " loss, standardized, 10 epochs at most;%npartition models averaged once per epoch,"
              + " syncInterval=epoch, so the runs differ in their order alone)%non %,d rows sorted"
              + " by label; test accuracy on %,d other rows.%n",
          rows,
          testSet.count());
      System.out.printf(
          "%n%-44s %-24s %9s %7s %8s %9s%n",
          "training input", "step schedule", "accuracy", "epochs", "seconds", "s/epoch");
      for (String schedule : new String[] {"invsqrt", "decay"}) {
        String label = schedule.equals("invsqrt") ? "invsqrt (default)" : "decay (CorgiPile paper)";
        run(
            spark.read().format("corgipile").option("shuffle", "none").load(sorted),
            "storage order (corgipile, shuffle=none)",
            schedule,
            label,
            testSet);
        run(
            spark.read().format("corgipile").option("bufferSize", "10%").load(sorted),
            "corgipile (shuffle=corgipile, 10% buffer)",
            schedule,
            label,
            testSet);
        run(
            spark.read().parquet(shuffled),
            "fully shuffled copy (plain Parquet)",
            schedule,
            label,
            testSet);
      }
      System.out.printf(
          Locale.ROOT,
          "%nseconds: the whole fit (the feature summary for standardization and every"
              + " epoch);%ns/epoch: one SGD epoch. Training stops early after %d epochs in a row"
              + " that improve the%nbest objective by less than tol. The shuffled copy also cost a"
              + " full shuffle to write (orderBy(rand())),%nwhich CorgiPile never pays.%n",
          SGDParams.DEFAULT_N_ITER_NO_CHANGE);
    } finally {
      spark.stop();
    }
  }

  private static void write(
      SparkSession spark, long rows, String sorted, String shuffled, String test) {
    long testRows = Math.max(10_000, rows / 5);
    System.out.printf(
        Locale.ROOT,
        "Writing the data under %s (once: later runs reuse it):%n",
        Path.of(sorted).getParent());
    Dataset<Row> train = HiggsShapedData.generate(spark, rows, 1, PARTITIONS);
    // about 500 row groups, so a 10% buffer holds about 25 per partition
    long rowsPerGroup = Math.max(100, rows / 500);
    step(
        String.format(Locale.ROOT, "%,d training rows sorted by label", rows),
        () ->
            train
                .orderBy(col("label"), col("id"))
                .write()
                .mode("overwrite")
                .option("parquet.block.row.count.limit", rowsPerGroup)
                .parquet(sorted));
    step(
        "the same rows fully shuffled",
        () ->
            train
                .orderBy(rand(7))
                .write()
                .mode("overwrite")
                .option("parquet.block.row.count.limit", rowsPerGroup)
                .parquet(shuffled));
    step(
        String.format(Locale.ROOT, "%,d test rows", testRows),
        () ->
            HiggsShapedData.generate(spark, testRows, 2, PARTITIONS)
                .write()
                .mode("overwrite")
                .parquet(test));
  }

  /** Runs one long step between a line that says what it does and the seconds it took. */
  private static void step(String what, Runnable step) {
    System.out.printf("  %s ...", what);
    System.out.flush();
    long start = System.nanoTime();
    step.run();
    System.out.printf(Locale.ROOT, " %.0f s%n", (System.nanoTime() - start) / 1e9);
  }

  private static void run(
      Dataset<Row> train, String input, String schedule, String scheduleLabel, Dataset<Row> test) {
    // Averaging the two partitions' models every buffer would mix their label-sorted runs and hide
    // what the order alone does, which is what this demo shows.
    SGDClassifier classifier =
        new SGDClassifier()
            .setFeaturesCols(HiggsShapedData.featureNames())
            .setStepSchedule(schedule)
            .setStepSize(schedule.equals("invsqrt") ? 0.1 : 0.01)
            .setSyncInterval("epoch");
    long start = System.nanoTime();
    SGDClassificationModel model = classifier.fit(train);
    double seconds = (System.nanoTime() - start) / 1e9;
    double accuracy =
        new MulticlassClassificationEvaluator()
            .setMetricName("accuracy")
            .evaluate(model.transform(test));
    SGDTrainingSummary summary = model.summary();
    double epochSeconds =
        java.util.Arrays.stream(summary.secondsPerEpoch()).average().orElse(Double.NaN);
    System.out.printf(
        Locale.ROOT,
        "%-44s %-24s %9.4f %7d %8.1f %9.2f%n",
        input,
        scheduleLabel,
        accuracy,
        summary.totalIterations(),
        seconds,
        epochSeconds);
  }
}
