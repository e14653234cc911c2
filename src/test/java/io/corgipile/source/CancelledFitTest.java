package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fit stopped mid-epoch, by cancelling its job group or by interrupting the thread that runs it,
 * leaves no reader thread (prefetch, fill ahead) running and no buffer filled ahead on the
 * executor, and the next fit in the session gives what it gives alone.
 */
class CancelledFitTest {
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = TestTables.labelSorted(TestTables.tempDir("cancelled-fit"), 10_000, 500);
  }

  private static SGDClassifier classifier(int epochs) {
    return new SGDClassifier()
        .setSeed(3)
        .setMaxIter(epochs)
        .setTol(0)
        .setFeaturesCols(new String[] {"x"});
  }

  private static Dataset<Row> read() {
    return TestTables.corgipile("partitions", "2").load(table);
  }

  @ParameterizedTest
  @ValueSource(strings = {"cancelled job group", "interrupted thread"})
  void leavesNothingRunningAndTheNextFitWorks(String how) throws Exception {
    double[] solo = classifier(2).fit(read()).coefficients().toArray();
    SparkContext sc = TestTables.spark().sparkContext();
    String group = "cancelled-fit-" + how.replace(' ', '-') + "-" + System.nanoTime();
    AtomicReference<Thread> fitter = new AtomicReference<>();
    CompletableFuture<SGDClassificationModel> fit =
        CompletableFuture.supplyAsync(
            () -> {
              fitter.set(Thread.currentThread());
              sc.setJobGroup(group, "a fit to stop", true);
              try {
                return classifier(1_000).fit(read()); // far more epochs than the test waits for
              } finally {
                sc.clearJobGroup();
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (sc.statusTracker().getJobIdsForGroup(group).length < 6 && System.nanoTime() < deadline) {
      Thread.sleep(20); // a few epochs in: rounds running, buffers filled ahead
    }
    assertThat(sc.statusTracker().getJobIdsForGroup(group).length)
        .as("jobs of the fit so far")
        .isGreaterThan(5);
    if (how.equals("interrupted thread")) {
      fitter.get().interrupt();
    } else {
      // Not cancelJobGroup: it cancels only the jobs running at that moment, and a fit between two
      // of its jobs would go on with the next one.
      sc.cancelJobGroupAndFutureJobs(group);
    }
    assertThat(catchFailure(fit)).as("the fit fails").isNotNull();

    // Fills ahead that a task finished before the stop wait for their round until they expire; and
    // the end of a job cancelled by its tag reaches the status tracker through the listener bus.
    deadline =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RoundLookahead.UNCLAIMED_MILLIS + 15_000);
    while ((!TestTables.readerThreads().isEmpty()
            || RoundLookahead.EXECUTOR.size() > 0
            || sc.statusTracker().getActiveJobIds().length > 0)
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(TestTables.readerThreads()).as("reader threads left running").isEmpty();
    assertThat(RoundLookahead.EXECUTOR.size()).as("buffers filled ahead and held").isZero();
    assertThat(sc.statusTracker().getActiveJobIds()).as("jobs still running").isEmpty();
    assertThat(classifier(2).fit(read()).coefficients().toArray()).containsExactly(solo);
  }

  private static Throwable catchFailure(CompletableFuture<?> future) throws Exception {
    try {
      future.get(2, TimeUnit.MINUTES);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }
}
