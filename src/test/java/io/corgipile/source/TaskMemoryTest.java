package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/** A task's share of an executor's memory, from the configuration, and auto's part of it. */
class TaskMemoryTest {
  private static final long MIB = 1L << 20;

  @Test
  void theShareIsTheHeapLessSparksReservedMemoryOverTheTasksAtOnce() {
    TaskMemory m =
        TaskMemory.ofExecutors(
            new SparkConf()
                .set("spark.executor.memory", "812m")
                .set("spark.executor.cores", "4")
                .set("spark.task.cpus", "2"));
    assertThat(m.heapBytes()).isEqualTo(812 * MIB);
    assertThat(m.slots()).isEqualTo(2);
    assertThat(m.taskBytes()).isEqualTo(256 * MIB);
    // a quarter of the share for the task's buffers: two with prefetch, one without
    assertThat(m.autoBufferBytes(2)).isEqualTo(32 * MIB);
    assertThat(m.autoBufferBytes(1)).isEqualTo(64 * MIB);
    assertThat(m.describe())
        .isEqualTo(
            "256.0 MiB (spark.executor.memory 812m, spark.executor.cores 4, "
                + "spark.task.cpus 2; less Spark's reserved 300.0 MiB, over 2 tasks at once)");
  }

  @Test
  void sparksDefaultsWhenNothingIsConfigured() {
    TaskMemory m = TaskMemory.ofExecutors(new SparkConf());
    assertThat(m.heapBytes()).isEqualTo(1024 * MIB);
    assertThat(m.slots()).isEqualTo(1);
    assertThat(m.taskBytes()).isEqualTo(724 * MIB);
  }

  @Test
  void aHeapNoLargerThanTheReservedMemoryLeavesAutoOneByte() {
    TaskMemory m = new TaskMemory(200 * MIB, 1, "test", TaskMemory.EXECUTOR_MEMORY);
    assertThat(m.taskBytes()).isZero();
    assertThat(m.autoBufferBytes(2)).isEqualTo(1);
  }

  @Test
  void localModeTakesTheDriversHeapAndThreads() {
    TaskMemory m = TaskMemory.of(TestTables.spark().sparkContext());
    assertThat(m.heapBytes()).isEqualTo(Runtime.getRuntime().maxMemory());
    assertThat(m.slots()).isEqualTo(2);
    assertThat(m.source()).startsWith("local mode: the driver's heap");
    // the tasks run in the driver: more heap for them is the driver's setting
    assertThat(m.heapSetting()).isEqualTo("spark.driver.memory");
    assertThat(TaskMemory.ofExecutors(new SparkConf()).heapSetting())
        .isEqualTo("spark.executor.memory");
  }
}
