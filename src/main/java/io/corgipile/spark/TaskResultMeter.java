package io.corgipile.spark;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The bytes a training run's rounds send back to the driver, from Spark's listener events: for
 * every job whose local properties name this run ({@link #TRAINING_RUN_PROPERTY}), the task results
 * and shuffle writes of its successful task attempts, its failed attempts and its duration, summed
 * per round ({@link #ROUND_PROPERTY}).
 *
 * <p>Use: {@link #start} on the driver thread that runs the jobs, {@link #beginRound} before a
 * round's job(s), {@link #awaitRound} after they return, {@link #close} at the end (try with
 * resources), which unregisters the listener and restores the two local properties. Listener events
 * arrive asynchronously, after the job has returned; {@link #awaitRound} waits for them. A round id
 * should be new for every round: the jobs of a round are summed, and awaiting returns once every
 * job of the round seen so far has ended.
 */
public final class TaskResultMeter extends SparkListener implements AutoCloseable {
  /** The local property naming the training run a job belongs to. */
  public static final String TRAINING_RUN_PROPERTY = "corgipile.trainingRun";

  /** The local property naming the round a job belongs to. */
  public static final String ROUND_PROPERTY = "corgipile.meteredRound";

  /** How long {@link #awaitRound(String)} waits for the listener bus. */
  static final Duration AWAIT = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(TaskResultMeter.class);

  private final SparkContext sc;
  private final String run;
  private final String previousRun;
  private final String previousRound;
  // all guarded by this
  private final Map<String, Round> rounds = new HashMap<>();
  private final Map<Integer, Job> jobs = new HashMap<>();
  private final Map<Integer, Round> roundOfStage = new HashMap<>();

  /** A round's totals so far. */
  private static final class Round {
    int jobs;
    int jobsEnded;
    long resultBytes;
    long shuffleBytesWritten;
    int tasks;
    int failedAttempts;
    long jobMillis;

    RoundTraffic traffic() {
      return new RoundTraffic(
          jobs,
          resultBytes,
          shuffleBytesWritten,
          tasks,
          failedAttempts,
          jobMillis,
          jobs > 0 && jobsEnded == jobs);
    }
  }

  private record Job(Round round, long submitted, List<Object> stageIds) {}

  private TaskResultMeter(SparkContext sc, String run) {
    this.sc = sc;
    this.run = run;
    this.previousRun = sc.getLocalProperty(TRAINING_RUN_PROPERTY);
    this.previousRound = sc.getLocalProperty(ROUND_PROPERTY);
  }

  /**
   * Registers a meter for {@code run} on {@code sc} and names the run in the calling thread's local
   * properties, so the jobs it starts are metered.
   */
  public static TaskResultMeter start(SparkContext sc, String run) {
    TaskResultMeter meter = new TaskResultMeter(sc, run);
    sc.setLocalProperty(TRAINING_RUN_PROPERTY, run);
    sc.addSparkListener(meter);
    return meter;
  }

  /** Meters the jobs the calling thread starts from now on as round {@code round}. */
  public void beginRound(String round) {
    sc.setLocalProperty(ROUND_PROPERTY, round);
  }

  /**
   * The totals of {@code round}, once the listener has seen every job of it that started end: call
   * after the round's jobs returned. Waits at most 10 s; then logs a warning and returns what it
   * has, not {@link RoundTraffic#complete()}. Forgets the round.
   */
  public RoundTraffic awaitRound(String round) {
    return awaitRound(round, AWAIT);
  }

  synchronized RoundTraffic awaitRound(String round, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      for (long left = timeout.toNanos();
          !traffic(round).complete() && left > 0;
          left = deadline - System.nanoTime()) {
        wait(Math.max(1, left / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    RoundTraffic traffic = traffic(round);
    rounds.remove(round);
    if (!traffic.complete()) {
      LOG.warn(
          "Cannot count all bytes of round {} of training run {}: Spark's listener bus did not"
              + " report the end of its jobs within {} ms ({} seen start); its traffic counts what"
              + " arrived",
          round,
          run,
          timeout.toMillis(),
          traffic.jobs());
    }
    return traffic;
  }

  private RoundTraffic traffic(String round) {
    Round r = rounds.get(round);
    return r == null ? new Round().traffic() : r.traffic();
  }

  /** Unregisters the listener and restores the calling thread's run and round properties. */
  @Override
  public void close() {
    sc.removeSparkListener(this);
    sc.setLocalProperty(TRAINING_RUN_PROPERTY, previousRun);
    sc.setLocalProperty(ROUND_PROPERTY, previousRound);
  }

  @Override
  public synchronized void onJobStart(SparkListenerJobStart start) {
    Properties properties = start.properties();
    String round = properties == null ? null : properties.getProperty(ROUND_PROPERTY);
    if (round == null || !run.equals(properties.getProperty(TRAINING_RUN_PROPERTY))) {
      return;
    }
    Round r = rounds.computeIfAbsent(round, k -> new Round());
    r.jobs++;
    List<Object> stageIds = CollectionConverters.asJava(start.stageIds());
    for (Object stage : stageIds) {
      roundOfStage.put((Integer) stage, r);
    }
    jobs.put(start.jobId(), new Job(r, start.time(), stageIds));
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    Round r = roundOfStage.get(end.stageId());
    if (r == null) {
      return;
    }
    TaskMetrics metrics = end.taskMetrics();
    if (end.taskInfo().successful() && metrics != null) {
      r.tasks++;
      r.resultBytes += metrics.resultSize();
      r.shuffleBytesWritten += metrics.shuffleWriteMetrics().bytesWritten();
    } else {
      r.failedAttempts++;
    }
  }

  @Override
  public synchronized void onJobEnd(SparkListenerJobEnd end) {
    Job job = jobs.remove(end.jobId());
    if (job == null) {
      return;
    }
    job.stageIds().forEach(roundOfStage::remove);
    job.round().jobsEnded++;
    job.round().jobMillis += end.time() - job.submitted();
    notifyAll();
  }
}
