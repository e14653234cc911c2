package io.corgipile.ml.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.TrainingData;
import io.corgipile.source.ReadScope;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Every Spark job of a fit, of either solver, carries the fit's own tag (so a stopped fit cancels
 * exactly its jobs) and a description naming the estimator; afterwards the thread's tags, job
 * description and read scope are as they were.
 */
class FitJobsTest {
  private static final String TAGS = "spark.job.tags"; // SparkContext.SPARK_JOB_TAGS
  private static final String DESCRIPTION = "spark.job.description";

  @Test
  void everyJobOfALassoFitIsTaggedAndNamed() throws Exception {
    Dataset<Row> data = TrainingData.linear(2_000, 5, 11, 2);
    assertFitJobs(
        "ScheduledLasso", () -> new ScheduledLasso().setRegParam(0.05).setMaxIter(20).fit(data));
  }

  @Test
  void everyJobOfAnSgdFitIsTaggedAndNamed() throws Exception {
    Dataset<Row> data = TrainingData.logistic(2_000, 5, 12, 2);
    assertFitJobs(
        "SGDClassifier",
        () -> new SGDClassifier().setMaxIter(2).setFamily("multinomial").fit(data));
  }

  private static void assertFitJobs(String estimator, Runnable fit) throws Exception {
    SparkContext sc = TrainingData.spark().sparkContext();
    List<Properties> jobs = new CopyOnWriteArrayList<>();
    SparkListener listener =
        new SparkListener() {
          @Override
          public void onJobStart(SparkListenerJobStart job) {
            jobs.add(job.properties());
          }
        };
    sc.setLocalProperty(DESCRIPTION, "the caller's job");
    sc.setLocalProperty(ReadScope.EPOCH, "7");
    sc.addSparkListener(listener);
    try {
      fit.run();
      sc.listenerBus().waitUntilEmpty(); // job starts reach listeners asynchronously
      assertThat(jobs).as("jobs of the fit").hasSizeGreaterThan(2);
      String tag = fitTag(jobs.get(0));
      assertThat(jobs)
          .allSatisfy(
              properties -> {
                assertThat(fitTag(properties)).as("the fit's tag").isEqualTo(tag);
                assertThat(properties.getProperty(DESCRIPTION)).startsWith(estimator + " ");
              });
      assertThat(JavaSparkContext.fromSparkContext(sc).getJobTags())
          .noneMatch(t -> t.startsWith(FitJobs.JOB_TAG_PREFIX));
      assertThat(sc.getLocalProperty(DESCRIPTION)).isEqualTo("the caller's job");
      assertThat(sc.getLocalProperty(ReadScope.EPOCH)).isEqualTo("7");
    } finally {
      sc.removeSparkListener(listener);
      sc.setLocalProperty(DESCRIPTION, null);
      sc.setLocalProperty(ReadScope.EPOCH, null);
    }
  }

  /** The one tag of a fit among a job's tags. */
  private static String fitTag(Properties job) {
    String tags = job.getProperty(TAGS, "");
    List<String> fit =
        List.of(tags.split(",")).stream()
            .filter(t -> t.startsWith(FitJobs.JOB_TAG_PREFIX))
            .toList();
    assertThat(fit).as("fit tags in '%s'", tags).hasSize(1);
    return fit.get(0);
  }
}
