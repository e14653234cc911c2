package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.LogCapture;
import io.corgipile.SharedSpark;
import java.time.Duration;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

class TaskResultMeterTest {
  private static final int RESULT = 100_000;

  /**
   * What a task result holds besides its value: {@code resultSize} measures the whole serialized
   * {@code DirectTaskResult}, with the task's accumulator updates (its metrics), about 1.5 KB here.
   */
  private static final long FRAMING = 2_000;

  private final SparkContext sc = SharedSpark.get().sparkContext();
  private final JavaSparkContext jsc = JavaSparkContext.fromSparkContext(sc);

  /** A job of 4 tasks, each returning a byte array of {@link #RESULT} bytes. */
  private void fourResults() {
    Function<Integer, byte[]> result = i -> new byte[RESULT];
    List<byte[]> results = jsc.parallelize(List.of(1, 2, 3, 4), 4).map(result).collect();
    assertThat(results).hasSize(4);
  }

  @Test
  void countsTheResultBytesOfTheRunsRounds() {
    try (TaskResultMeter meter = TaskResultMeter.start(sc, "run-a")) {
      meter.beginRound("a-1");
      fourResults();
      RoundTraffic traffic = meter.awaitRound("a-1");
      assertThat(traffic.complete()).isTrue();
      assertThat(traffic.jobs()).isEqualTo(1);
      assertThat(traffic.tasks()).isEqualTo(4);
      assertThat(traffic.failedAttempts()).isZero();
      assertThat(traffic.resultBytes()).isBetween(4L * RESULT, 4 * (RESULT + FRAMING));
      assertThat(traffic.shuffleBytesWritten()).isZero();
      assertThat(traffic.jobMillis()).isNotNegative();

      meter.beginRound("a-2");
      fourResults();
      fourResults();
      RoundTraffic two = meter.awaitRound("a-2");
      assertThat(two.jobs()).isEqualTo(2);
      assertThat(two.tasks()).isEqualTo(8);
      assertThat(two.resultBytes()).isBetween(8L * RESULT, 8 * (RESULT + FRAMING));
    }
  }

  @Test
  void jobsOfOtherRunsOrNoneAreNotCounted() {
    try (TaskResultMeter meter = TaskResultMeter.start(sc, "run-b")) {
      sc.setLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY, "someone-else");
      sc.setLocalProperty(TaskResultMeter.ROUND_PROPERTY, "b-1");
      fourResults();
      sc.setLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY, null);
      fourResults();
      sc.setLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY, "run-b");
      jsc.parallelize(List.of(1, 2), 2).map(i -> new byte[10]).collect();
      RoundTraffic traffic = meter.awaitRound("b-1");
      assertThat(traffic.jobs()).isEqualTo(1);
      assertThat(traffic.tasks()).isEqualTo(2);
      assertThat(traffic.resultBytes()).isLessThan(2 * FRAMING);
    }
  }

  @Test
  void countsFailedAttemptsAndShuffleWrites() {
    try (TaskResultMeter meter = TaskResultMeter.start(sc, "run-c")) {
      meter.beginRound("c-1");
      JavaRDD<Integer> numbers =
          jsc.parallelize(List.of(1, 2, 3, 4), 2)
              .map(
                  i -> {
                    if (TaskContext.get().attemptNumber() == 0
                        && TaskContext.get().partitionId() == 0) {
                      throw new IllegalStateException("a first attempt that fails, on purpose");
                    }
                    return i;
                  });
      List<Tuple2<Integer, Integer>> sums =
          numbers.mapToPair(i -> new Tuple2<>(i % 2, i)).reduceByKey(Integer::sum, 2).collect();
      assertThat(sums).hasSize(2);
      RoundTraffic traffic = meter.awaitRound("c-1");
      assertThat(traffic.failedAttempts()).isEqualTo(1);
      assertThat(traffic.tasks()).isEqualTo(4); // 2 shuffle map tasks, 2 result tasks
      assertThat(traffic.shuffleBytesWritten()).isPositive();
    }
  }

  @Test
  void waitingForARoundThatNeverRanTimesOutWithAWarning() {
    try (TaskResultMeter meter = TaskResultMeter.start(sc, "run-d");
        LogCapture log = new LogCapture(TaskResultMeter.class)) {
      RoundTraffic traffic = meter.awaitRound("d-never", Duration.ofMillis(200));
      assertThat(traffic).isEqualTo(new RoundTraffic(0, 0, 0, 0, 0, 0, false));
      assertThat(log.messages(Level.WARN))
          .containsExactly(
              "Cannot count all bytes of round d-never of training run run-d: Spark's listener bus"
                  + " did not report the end of its jobs within 200 ms (0 seen start); its traffic"
                  + " counts what arrived");
    }
  }

  @Test
  void closingRestoresTheThreadsProperties() {
    sc.setLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY, "outer");
    try (TaskResultMeter meter = TaskResultMeter.start(sc, "run-e")) {
      meter.beginRound("e-1");
      assertThat(sc.getLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY)).isEqualTo("run-e");
      assertThat(sc.getLocalProperty(TaskResultMeter.ROUND_PROPERTY)).isEqualTo("e-1");
    } finally {
      assertThat(sc.getLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY)).isEqualTo("outer");
      assertThat(sc.getLocalProperty(TaskResultMeter.ROUND_PROPERTY)).isNull();
      sc.setLocalProperty(TaskResultMeter.TRAINING_RUN_PROPERTY, null);
    }
  }

  @Test
  void theConfiguredSerializerWritesADoubleArrayInAbout8BytesAValue() {
    SharedSpark.get();
    int n = 100_000;
    assertThat(SerializedSize.of(new double[n])).isBetween(8L * n, 8L * n + 100);
  }
}
