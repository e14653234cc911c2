package io.corgipile.source;

import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * What one reading task may hold: its share of an executor's heap, from the cluster's
 * configuration.
 *
 * <p>Taken on the driver from the configured figures (in local mode, the driver's own heap, where
 * the tasks run), never from a running executor's heap: the buffer size of {@code auto} follows
 * from it, and with it the order, which must be the same for every task and retried task of a scan.
 *
 * @param heapBytes an executor's heap
 * @param slots the tasks an executor runs at once
 * @param source where the two figures come from, for messages
 * @param heapSetting the setting that gives the tasks more heap: the driver's in local mode, where
 *     the tasks run in the driver, else the executors'
 */
record TaskMemory(long heapBytes, int slots, String source, String heapSetting) {
  static final String DRIVER_MEMORY = "spark.driver.memory";
  static final String EXECUTOR_MEMORY = "spark.executor.memory";

  /**
   * Spark's reserved memory, taken off every heap before its own regions (UnifiedMemoryManager).
   */
  static final long RESERVED_BYTES = 300L << 20;

  /**
   * {@code auto}'s buffers take at most this share of {@link #taskBytes}: Spark leaves 40% of it to
   * user data structures (1 - spark.memory.fraction) and its execution and storage memory can fill
   * the rest; a quarter leaves room within that 40% for decoding the block being read (Parquet
   * holds its pages: at most a row group's column chunks, up to parquet.block.size) and for a
   * finished fill's garbage.
   */
  static final int AUTO_SHARE = 4;

  /** The executors' figures as the configuration of {@code sc} states them. */
  static TaskMemory of(SparkContext sc) {
    if (sc.isLocal()) {
      int slots = Math.max(1, sc.defaultParallelism());
      return new TaskMemory(
          Runtime.getRuntime().maxMemory(),
          slots,
          "local mode: the driver's heap, " + mib(Runtime.getRuntime().maxMemory()),
          DRIVER_MEMORY);
    }
    return ofExecutors(sc.getConf());
  }

  /**
   * The figures of executors configured by {@code conf}, with Spark's defaults. Standalone gives an
   * executor all of a worker's cores when spark.executor.cores is unset; this then counts 1 task.
   */
  static TaskMemory ofExecutors(SparkConf conf) {
    String memory = conf.get(EXECUTOR_MEMORY, "1g");
    int cores = conf.getInt("spark.executor.cores", 1);
    int cpus = conf.getInt("spark.task.cpus", 1);
    return new TaskMemory(
        conf.getSizeAsBytes(EXECUTOR_MEMORY, "1g"),
        Math.max(1, cores / cpus),
        EXECUTOR_MEMORY
            + " "
            + memory
            + ", spark.executor.cores "
            + cores
            + ", spark.task.cpus "
            + cpus,
        EXECUTOR_MEMORY);
  }

  /** The task's share: the heap less Spark's reserved memory, over the tasks that run at once. */
  long taskBytes() {
    return Math.max(0, heapBytes - RESERVED_BYTES) / slots;
  }

  /** The most one of a task's {@code buffers} buffers may take under {@code bufferSize=auto}. */
  long autoBufferBytes(int buffers) {
    return Math.max(1, taskBytes() / ((long) AUTO_SHARE * buffers));
  }

  /** The task's share and where it comes from, for messages. */
  String describe() {
    return mib(taskBytes())
        + " ("
        + source
        + "; less Spark's reserved "
        + mib(RESERVED_BYTES)
        + ", over "
        + slots
        + (slots == 1 ? " task" : " tasks")
        + " at once)";
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
  }
}
