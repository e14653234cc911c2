package io.corgipile.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDParams;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.sql.SparkSession;

/**
 * The training job on a two-worker standalone cluster ({@code scripts/local-cluster}), once
 * undisturbed and then with an executor JVM, or a whole worker process, killed with SIGKILL during
 * an epoch chosen at random (seeded): Spark reschedules the lost tasks, and each run's model and
 * scores must equal the undisturbed run's (the AUC to 1e-5, see Outcome). A worker's kill takes its
 * executor with it; the cluster is started again after it. The job's {@code deltaCompression} is an
 * option ({@code int8}: error feedback's residuals must survive the kills too). Writes {@code
 * runs.csv} and {@code summary.md}.
 */
public final class FaultRuns {
  /** One kill: what, after which epoch's line, how long after it, and what came of it. */
  public record Run(
      int number,
      String kind,
      int afterEpoch,
      long delayMillis,
      long killedPid,
      int exitStatus,
      boolean identical,
      double seconds,
      String difference) {}

  private static final Pattern EPOCH_LINE = Pattern.compile("epoch (\\d+)/(\\d+):");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final int epochs;
  private final String deltaCompression;
  private final Map<String, String> clusterEnv;
  private final String master;
  private final Path train;
  private final Path test;

  /**
   * A cluster and its data in {@code dir}: {@code rows} training rows, jobs of {@code epochs}
   * epochs, training with {@code deltaCompression}.
   */
  public FaultRuns(Path dir, int rows, int epochs, String deltaCompression) throws IOException {
    this.dir = dir;
    this.epochs = epochs;
    this.deltaCompression = deltaCompression;
    String port = Integer.toString(freePort());
    this.clusterEnv =
        Map.of(
            "CORGIPILE_CLUSTER_DIR",
            dir.resolve("cluster").toString(),
            "CORGIPILE_MASTER_PORT",
            port,
            "CORGIPILE_MASTER_WEBUI_PORT",
            Integer.toString(freePort()),
            "CORGIPILE_WORKER_MEMORY",
            "1g");
    this.master = "spark://127.0.0.1:" + port;
    this.train = dir.resolve("train");
    this.test = dir.resolve("test");
    // This JVM's own session writes the data and reads the runs' models back.
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("corgipile-fault-runs")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    HiggsShapedData.generate(spark, rows, 1, 2)
        .orderBy("label", "id")
        .coalesce(1)
        .write()
        .mode("overwrite")
        .option("parquet.block.row.count.limit", Math.max(250, rows / 80))
        .parquet(train.toString());
    HiggsShapedData.generate(spark, Math.max(1000, rows / 4), 2, 2)
        .write()
        .mode("overwrite")
        .parquet(test.toString());
  }

  public static void main(String[] argv) throws Exception {
    int executorKills = 10;
    int workerKills = 3;
    long seed = 1;
    int rows = 200_000;
    int epochs = 8;
    String deltaCompression = SGDParams.DEFAULT_DELTA_COMPRESSION;
    Path out = BenchReport.RESULTS.resolve("faults");
    for (int i = 0; i < argv.length; i += 2) {
      String value = i + 1 < argv.length ? argv[i + 1] : null;
      if (value == null) {
        usage("option " + argv[i] + " needs a value");
      }
      switch (argv[i]) {
        case "--executor-kills" -> executorKills = Integer.parseInt(value);
        case "--worker-kills" -> workerKills = Integer.parseInt(value);
        case "--seed" -> seed = Long.parseLong(value);
        case "--rows" -> rows = Integer.parseInt(value);
        case "--epochs" -> epochs = Integer.parseInt(value);
        case "--delta-compression" -> deltaCompression = value;
        case "--out" -> out = Path.of(value);
        default -> usage("unknown option " + argv[i]);
      }
    }
    Files.createDirectories(out);
    Path work = Files.createDirectories(Path.of("target/fault-runs"));
    FaultRuns runs = new FaultRuns(work, rows, epochs, deltaCompression);
    List<Run> done = runs.campaign(executorKills, workerKills, seed, System.out::println);
    String command =
        System.getenv()
            .getOrDefault("BENCH_COMMAND", "scripts/fault-runs " + String.join(" ", argv));
    runs.write(out, done, command, rows, seed);
    SparkSession.active().stop();
    System.exit(done.stream().allMatch(r -> r.exitStatus == 0 && r.identical) ? 0 : 1);
  }

  private static void usage(String problem) {
    System.err.println("fault-runs: " + problem + " (see scripts/fault-runs --help)");
    System.exit(2);
  }

  /** The undisturbed run, then the kills, executors first, each at a seeded random point. */
  public List<Run> campaign(
      int executorKills, int workerKills, long seed, java.util.function.Consumer<String> log)
      throws Exception {
    Random random = new Random(seed);
    List<Run> runs = new ArrayList<>();
    cluster("start");
    try {
      Path baseline = dir.resolve("run-0");
      Job undisturbed = submit(baseline);
      int status = undisturbed.waitFor();
      if (status != 0) {
        throw new IllegalStateException(
            "Cannot measure kills: the undisturbed run failed:\n" + undisturbed.output());
      }
      Outcome expected = Outcome.of(baseline);
      log.accept("undisturbed run: " + expected.summary());
      for (int i = 1; i <= executorKills + workerKills; i++) {
        String kind = i <= executorKills ? "executor" : "worker";
        int afterEpoch =
            1 + random.nextInt(Math.max(1, epochs - 2)); // a kill during epoch afterEpoch + 1
        long delay = random.nextInt(500);
        Path runDir = dir.resolve("run-" + i);
        long began = System.nanoTime();
        Job job = submit(runDir);
        job.awaitEpoch(afterEpoch);
        Thread.sleep(delay);
        long pid = kind.equals("executor") ? kill(executorPid()) : kill(workerPid("worker-1"));
        int exit = job.waitFor();
        double seconds = (System.nanoTime() - began) / 1e9;
        String difference =
            exit == 0
                ? Outcome.of(runDir).differenceFrom(expected)
                : "the job failed:\n" + job.output();
        runs.add(
            new Run(
                i, kind, afterEpoch, delay, pid, exit, difference == null, seconds, difference));
        log.accept(
            String.format(
                Locale.ROOT,
                "run %d: %s pid %d killed %d ms after epoch %d's line: exit %d, %s",
                i,
                kind,
                pid,
                delay,
                afterEpoch,
                exit,
                difference == null ? "model and scores identical" : difference));
        if (kind.equals("worker")) {
          cluster("stop");
          cluster("start");
        }
      }
    } finally {
      cluster("stop");
    }
    return runs;
  }

  /** The model's coefficients and intercept, and the run's figures that do not depend on timing. */
  record Outcome(
      double[] coefficients, double intercept, JsonNode objectiveHistory, JsonNode test) {
    static Outcome of(Path run) throws IOException {
      SGDClassificationModel model =
          (SGDClassificationModel) PipelineModel.load(run.resolve("model").toString()).stages()[0];
      JsonNode metrics = JSON.readTree(run.resolve("metrics.json").toFile());
      ((com.fasterxml.jackson.databind.node.ObjectNode) metrics.get("test")).remove("path");
      return new Outcome(
          model.coefficients().toArray(),
          model.intercept(),
          metrics.get("training").get("objectiveHistory"),
          metrics.get("test"));
    }

    String differenceFrom(Outcome expected) {
      if (!Arrays.equals(coefficients, expected.coefficients) || intercept != expected.intercept) {
        return "the model differs";
      }
      if (!objectiveHistory.equals(expected.objectiveHistory)) {
        return "the objective history differs: "
            + objectiveHistory
            + " against "
            + expected.objectiveHistory;
      }
      com.fasterxml.jackson.databind.node.ObjectNode scores = test.deepCopy();
      com.fasterxml.jackson.databind.node.ObjectNode expectedScores = expected.test.deepCopy();
      // The AUC is summed per partition of a sort whose sample is seeded by RDD ids, so it may
      // differ in
      // its last digits between runs of one model (binned, as MLlib's default, it moved in the 6th
      // digit; the CLI computes it unbinned): compared to 1e-5 only.
      double auc = scores.path("areaUnderROC").asDouble(0);
      double expectedAuc = expectedScores.path("areaUnderROC").asDouble(0);
      scores.remove("areaUnderROC");
      expectedScores.remove("areaUnderROC");
      if (!scores.equals(expectedScores) || Math.abs(auc - expectedAuc) > 1e-5) {
        return "the test scores differ: " + test + " against " + expected.test;
      }
      return null;
    }

    String summary() {
      return "objective " + objectiveHistory + ", test " + test;
    }
  }

  /** A training job running on the cluster, its output going to a file. */
  final class Job {
    private final Process process;
    private final Path log;

    Job(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    String output() throws IOException {
      return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Waits for the line that reports the end of epoch {@code epoch}. */
    void awaitEpoch(int epoch) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (System.nanoTime() < deadline) {
        Matcher m = EPOCH_LINE.matcher(output());
        while (m.find()) {
          if (Integer.parseInt(m.group(1)) >= epoch) {
            return;
          }
        }
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "Cannot kill during the job: it ended before epoch " + epoch + ":\n" + output());
        }
        Thread.sleep(20);
      }
      throw new IllegalStateException(
          "Cannot kill during the job: no line for epoch " + epoch + " in 5 min");
    }

    int waitFor() throws Exception {
      if (!process.waitFor(15, TimeUnit.MINUTES)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new IllegalStateException(
            "Cannot finish the job: still running after 15 min:\n" + output());
      }
      return process.exitValue();
    }
  }

  private Job submit(Path run) throws IOException {
    Files.createDirectories(run);
    Path log = run.resolve("job.log");
    List<String> command =
        List.of(
            "scripts/corgipile-submit",
            "--master",
            master,
            "--executor-memory",
            "512m",
            "--total-executor-cores",
            "2",
            "--conf",
            "spark.task.maxFailures=8",
            "--input",
            train.toString(),
            "--features",
            String.join(",", HiggsShapedData.featureNames()),
            "--partitions",
            "4",
            "--epochs",
            Integer.toString(epochs),
            "--delta-compression",
            deltaCompression,
            "--test",
            test.toString(),
            "--model",
            run.resolve("model").toString(),
            "--metrics",
            run.resolve("metrics.json").toString(),
            "--overwrite");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().remove("SPARK_HOME");
    return new Job(builder.start(), log);
  }

  private void cluster(String command) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder("scripts/local-cluster", command).redirectErrorStream(true);
    builder.environment().putAll(clusterEnv);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = builder.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(3, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("Cannot " + command + " the local cluster:\n" + output);
    }
  }

  /** An executor JVM of this cluster's workers (their work folder is in its command line). */
  private long executorPid() {
    String work = dir.resolve("cluster").toAbsolutePath().toString();
    Optional<ProcessHandle> executor =
        ProcessHandle.allProcesses()
            .filter(
                p ->
                    p.info()
                        .commandLine()
                        .map(c -> c.contains("CoarseGrainedExecutorBackend") && c.contains(work))
                        .orElse(false))
            .findFirst();
    return executor
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Cannot kill an executor: none of " + work + " is running"))
        .pid();
  }

  private long workerPid(String worker) throws IOException {
    return Long.parseLong(Files.readString(dir.resolve("cluster/pids/" + worker + ".pid")).trim());
  }

  private static long kill(long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("Cannot kill " + pid);
    }
    return pid;
  }

  private void write(Path out, List<Run> runs, String command, int rows, long seed)
      throws IOException {
    StringBuilder csv =
        new StringBuilder(
            "run,kind,after_epoch,delay_ms,killed_pid,exit_status,identical,seconds\n");
    for (Run r : runs) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%d,%d,%d,%d,%s,%.1f%n",
              r.number,
              r.kind,
              r.afterEpoch,
              r.delayMillis,
              r.killedPid,
              r.exitStatus,
              r.identical,
              r.seconds));
    }
    Files.writeString(out.resolve("runs.csv"), csv);
    long executors = runs.stream().filter(r -> r.kind.equals("executor")).count();
    long workers = runs.size() - executors;
    long executorsIdentical =
        runs.stream().filter(r -> r.kind.equals("executor") && r.identical).count();
    long workersIdentical =
        runs.stream().filter(r -> r.kind.equals("worker") && r.identical).count();
    String md =
        "# Kills during training on a two-worker cluster\n\n"
            + "`"
            + command
            + "`, code "
            + System.getenv().getOrDefault("BENCH_CODE", "?")
            + ": the training job"
            + " (scripts/corgipile-submit, "
            + String.format(Locale.ROOT, "%,d", rows)
            + " label-sorted HIGGS-shaped rows,"
            + " 4 partitions, "
            + epochs
            + " epochs, deltaCompression "
            + deltaCompression
            + ", corgipile at its defaults) on scripts/local-cluster (2 workers of 1 core),"
            + " one executor JVM or one worker process killed with SIGKILL during an epoch drawn"
            + " with seed "
            + seed
            + ".\n\n"
            + "| kills | runs | finished with the undisturbed run's model, objective per epoch and"
            + " test scores |\n"
            + "|---|---:|---:|\n"
            + "| executor | "
            + executors
            + " | "
            + executorsIdentical
            + " |\n"
            + "| worker (and its executor) | "
            + workers
            + " | "
            + workersIdentical
            + " |\n\n"
            + "Model (coefficients, intercept), objective per epoch, test accuracy and log loss:"
            + " bit for bit; the test AUC within 1e-5 (it is summed by partitions of a sampled"
            + " sort).\n\n"
            + "Every run: [runs.csv](runs.csv).\n";
    Files.writeString(out.resolve("summary.md"), md);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
