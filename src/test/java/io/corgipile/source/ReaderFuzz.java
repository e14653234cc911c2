package io.corgipile.source;

import io.corgipile.SharedSpark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * Reads damaged Parquet files ({@link FuzzFiles}) with {@code format("corgipile")} and with {@code
 * spark.read().parquet}, and judges each case: corgipile must return the rows Spark returns, or
 * fail with an error naming the file, within a time limit and without running out of memory.
 *
 * <p>{@code main} is {@code scripts/fuzz-reader}'s driver: it appends one line per case to a
 * results file and marks each case before reading it, so the script can tell which case a JVM that
 * died (Spark exits the JVM when a task runs out of memory) was reading, and go on after it.
 */
final class ReaderFuzz {
  /** What became of one damaged file. */
  enum Verdict {
    IDENTICAL,
    FAILED_NAMING_FILE,
    FAILED_WITHOUT_FILE,
    HANG,
    OOM,
    SILENT_DIFFERENCE
  }

  record Result(long seed, Verdict verdict, String detail) {
    String line() {
      return seed + " " + verdict + " " + detail.replace('\n', ' ');
    }
  }

  /** What one reader made of a file: its schema and canonical rows, or its error. */
  private record Read(StructType schema, List<String> rows, Throwable error, boolean hung) {}

  /** main's exit status when a case stopped the SparkContext, so that later cases cannot run. */
  private static final int CONTEXT_STOPPED = 3;

  /** Exit status of a JVM with a decoder thread still spinning: the script goes on in a new one. */
  private static final int SPINNING = 4;

  private static final AtomicLong JOB_GROUPS = new AtomicLong();

  private final FuzzFiles files;
  private final Path dir;
  private final long timeoutMillis;
  private final String[] readOptions;
  private ExecutorService reader = newReaderThread();

  /**
   * @param readOptions the {@code corgipile} reader's options as name, value pairs: every shuffle
   *     mode and the prefetch thread's absence take their own paths through the decoder
   */
  ReaderFuzz(Path dir, long timeoutMillis, boolean pageChecksums, String... readOptions) {
    if (readOptions.length % 2 != 0) {
      throw new IllegalArgumentException(
          "Cannot fuzz the reader: options come as name, value pairs, not "
              + String.join(", ", readOptions));
    }
    this.dir = dir;
    this.files = new FuzzFiles(dir.resolve("originals"), pageChecksums);
    this.timeoutMillis = timeoutMillis;
    this.readOptions = readOptions.clone();
  }

  /** Damages a file with {@code seed}, reads it both ways and judges the outcome. */
  Result run(long seed) {
    Path file = dir.resolve("case-" + seed + ".parquet");
    try {
      Files.write(file, files.damaged(seed));
      // Spark's reader only judges what corgipile returned: a failure naming the file is right
      // whatever Spark makes of the file, and Spark's reader can exhaust memory on some of them.
      Read corgi = read(() -> TestTables.corgipile(readOptions).load(file.toString()));
      Read spark =
          corgi.hung || corgi.error != null
              ? null
              : read(() -> SharedSpark.get().read().parquet(file.toString()));
      Verdict verdict = judge(file, corgi, spark);
      if (verdict == Verdict.IDENTICAL || verdict == Verdict.FAILED_NAMING_FILE) {
        Files.delete(file); // the files of the other cases are kept for a look
      }
      return new Result(seed, verdict, describe(corgi, spark));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads an undamaged original with the reader's options, so that an option the reader refuses
   * stops the run before its cases instead of failing every one of them.
   */
  void checkOptions() {
    String original = dir.resolve("originals").resolve("snappy").toString();
    Read corgi = read(() -> TestTables.corgipile(readOptions).load(original));
    if (corgi.hung || corgi.error != null) {
      throw new IllegalArgumentException(
          "Cannot fuzz the reader with options "
              + optionsText()
              + ": an undamaged file gave: "
              + outcome(corgi),
          corgi.error);
    }
  }

  private String optionsText() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < readOptions.length; i += 2) {
      text.append(i == 0 ? "" : ", ").append(readOptions[i]).append('=').append(readOptions[i + 1]);
    }
    return text.toString();
  }

  private static Verdict judge(Path file, Read corgi, Read spark) {
    if (corgi.hung) {
      return Verdict.HANG;
    }
    if (corgi.error != null) {
      if (causedBy(corgi.error, OutOfMemoryError.class)) {
        return Verdict.OOM;
      }
      return messages(corgi.error).contains(file.toAbsolutePath().toString())
          ? Verdict.FAILED_NAMING_FILE
          : Verdict.FAILED_WITHOUT_FILE;
    }
    if (spark.hung) {
      return Verdict.HANG;
    }
    if (spark.error != null
        || !corgi.schema.equals(spark.schema)
        || !corgi.rows.equals(spark.rows)) {
      return Verdict.SILENT_DIFFERENCE;
    }
    return Verdict.IDENTICAL;
  }

  private static String describe(Read corgi, Read spark) {
    return "corgipile: "
        + outcome(corgi)
        + " | spark: "
        + (spark == null ? "not run" : outcome(spark));
  }

  private static String outcome(Read read) {
    if (read.hung) {
      return "no answer within the time limit";
    }
    if (read.error != null) {
      return "failed: " + oneLine(messages(read.error), 600);
    }
    return read.rows.size() + " rows, schema " + read.schema.simpleString();
  }

  /**
   * Loads and collects canonical rows under a job group, on a reader thread: past the time limit
   * the group's jobs are cancelled and the thread is abandoned (a read stuck outside Spark's jobs
   * may never return it).
   */
  private Read read(Supplier<Dataset<Row>> load) {
    SparkContext sc = SharedSpark.get().sparkContext();
    String group = "reader-fuzz-" + JOB_GROUPS.incrementAndGet();
    Future<Read> future =
        reader.submit(
            () -> {
              sc.setJobGroup(group, group, true);
              StructType schema = null;
              try {
                Dataset<Row> df = load.get();
                schema = df.schema();
                return new Read(schema, TestTables.canonicalRows(df), null, false);
              } catch (
                  Throwable
                      t) { // Spark rethrows its checked SparkException undeclared; OOM is judged
                return new Read(schema, null, t, false);
              } finally {
                sc.clearJobGroup();
              }
            });
    try {
      return future.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      sc.cancelJobGroup(group);
      future.cancel(true);
      reader.shutdownNow();
      reader = newReaderThread();
      return new Read(null, null, null, true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot fuzz the reader: interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  private static ExecutorService newReaderThread() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, "reader-fuzz");
          t.setDaemon(true);
          return t;
        });
  }

  private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c) || String.valueOf(c.getMessage()).contains(type.getName())) {
        return true;
      }
    }
    return false;
  }

  /** Every message of a cause chain: Spark wraps a task's error in its own. */
  static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      all.append(all.length() == 0 ? "" : " <- ")
          .append(c.getClass().getName())
          .append(": ")
          .append(c.getMessage());
    }
    return all.toString();
  }

  /** Tasks failing on purpose, hundreds of them, would log pages of stack traces. */
  static void quietTaskFailures() {
    for (String logger :
        List.of(
            "org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager")) {
      Configurator.setLevel(logger, Level.OFF);
    }
  }

  private static String oneLine(String s, int max) {
    String line = s.replaceAll("\\s+", " ");
    return line.length() <= max ? line : line.substring(0, max) + "...";
  }

  /**
   * {@code scripts/fuzz-reader}'s driver. Arguments: FIRST_SEED LAST_SEED (exclusive) RESULTS_FILE
   * MARK_FILE TIMEOUT_SECONDS CASES_DIR (where damaged files are written; those of cases that
   * neither read like Spark nor failed naming the file stay there) checksums|no-checksums (whether
   * the files' pages carry CRCs), then the reader's options as NAME=VALUE. Case seeds are
   * consecutive.
   */
  public static void main(String[] args) throws IOException {
    long from = Long.parseLong(args[0]);
    long to = Long.parseLong(args[1]);
    Path results = Path.of(args[2]);
    Path mark = Path.of(args[3]);
    ReaderFuzz fuzz =
        new ReaderFuzz(
            Files.createDirectories(Path.of(args[5])),
            Long.parseLong(args[4]) * 1000,
            !args[6].equals("no-checksums"),
            Arrays.stream(args, 7, args.length)
                .flatMap(option -> Arrays.stream(option.split("=", 2)))
                .toArray(String[]::new));
    quietTaskFailures();
    try {
      fuzz.checkOptions();
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
    for (long seed = from; seed < to; seed++) {
      Files.writeString(mark, Long.toString(seed));
      Result result = fuzz.run(seed);
      if (SharedSpark.get().sparkContext().isStopped()) {
        System.exit(
            CONTEXT_STOPPED); // the script counts the case as a crash and goes on in a new JVM
      }
      Files.writeString(
          results, result.line() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      // A hung decoder, or one the prefetcher gave up on, keeps spinning on a core; the next cases
      // run in a new JVM without it.
      if ((result.verdict() == Verdict.HANG
              || result.detail().contains("the decoder made no progress"))
          && seed + 1 < to) {
        System.exit(SPINNING);
      }
      if ((seed - from + 1) % 100 == 0) {
        System.err.println("[fuzz-reader] " + (seed - from + 1) + " cases read");
      }
    }
    System.exit(0); // Spark's non-daemon threads would keep the JVM alive
  }
}
