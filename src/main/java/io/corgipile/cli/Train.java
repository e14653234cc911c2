package io.corgipile.cli;

import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.spark.SubmittedHadoopConf;
import java.io.PrintStream;
import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The training job for spark-submit: reads Parquet through {@code corgipile}, trains {@code
 * SGDClassifier}, {@code SGDRegressor} or ({@code --task lasso}) {@code ScheduledLasso} in a
 * pipeline with the feature assembly, evaluates it on test data, saves the {@code PipelineModel}
 * and writes the metrics as JSON. {@code --help} lists the arguments. Exit status: 0 done, 1
 * training failed, 2 bad arguments.
 *
 * <p>Without a master (plain {@code java}, not spark-submit) it runs on {@code local[*]}.
 */
public final class Train {
  private Train() {}

  public static void main(String[] args) {
    SparkSession[] created = new SparkSession[1];
    int status = run(args, () -> created[0] = newSession(), System.out, System.err);
    if (created[0] != null) {
      created[0].stop();
    }
    System.exit(status);
  }

  private static SparkSession newSession() {
    SparkSession.Builder builder = SparkSession.builder().appName("corgipile-train");
    if (!new SparkConf().contains("spark.master")) {
      builder.master("local[*]");
    }
    return builder.getOrCreate();
  }

  /**
   * Runs the job; the session is asked for only once the arguments and the data and paths they name
   * pass the checks that need no Spark ({@link Preflight}).
   *
   * @return the exit status
   */
  static int run(String[] args, Supplier<SparkSession> session, PrintStream out, PrintStream err) {
    if (TrainArguments.wantsHelp(args)) {
      out.print(TrainArguments.usage());
      return 0;
    }
    try {
      TrainArguments parsed = TrainArguments.parse(args);
      Preflight.check(parsed, SubmittedHadoopConf.read());
      // the progress line per epoch is this job's contract, whatever the log configuration says
      Configurator.setLevel(SGDTrainingSummary.PROGRESS_LOGGER, Level.INFO);
      TrainingMetrics metrics = new TrainingJob(session.get(), parsed).run();
      out.println(metrics.resultLine());
      return 0;
    } catch (UsageException e) {
      err.println(e.getMessage());
      err.println("Run with --help for the arguments.");
      return 2;
    } catch (Exception e) {
      err.println("Cannot train: " + causes(e));
      return 1;
    }
  }

  /** The message of {@code e} and, if it says something else, of its root cause. */
  static String causes(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(e.getMessage());
    String rootMessage = root.getClass().getSimpleName() + ": " + root.getMessage();
    return root == e || message.contains(String.valueOf(root.getMessage()))
        ? message
        : message + "\nCaused by " + rootMessage;
  }
}
