package io.corgipile.ml;

import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.sync.SGDOptimizer;
import java.io.Serializable;
import java.util.Arrays;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;

/** How training went, epoch by epoch. Kept with the model in memory; not saved with it. */
public final class SGDTrainingSummary implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * The logger of training, whose INFO line per epoch is the live view of this summary
   * ("SGDClassifier epoch 2/10: objective ..."): the name to configure it by.
   */
  public static final String PROGRESS_LOGGER = SGDOptimizer.class.getName();

  private final double[] objectiveHistory;
  private final long[] rows;
  private final double[] seconds;
  private final long skippedRows;
  private final double[][] coefficients;

  /** Per epoch, one intercept per margin: one, or one per class for a multinomial model. */
  private final double[][] intercepts;

  private final double[][] roundSeconds;
  private final long[] bytesToExecutors;
  private final long[] bytesFromExecutors;
  private final double stepSize;
  private final int numPartitions;

  public SGDTrainingSummary(
      double[] objectiveHistory,
      long[] rows,
      double[] seconds,
      long skippedRows,
      double[][] coefficients,
      double[][] intercepts,
      double[][] roundSeconds,
      long[] bytesToExecutors,
      long[] bytesFromExecutors,
      double stepSize,
      int numPartitions) {
    this.stepSize = stepSize;
    this.numPartitions = numPartitions;
    this.roundSeconds = roundSeconds;
    this.bytesToExecutors = bytesToExecutors;
    this.bytesFromExecutors = bytesFromExecutors;
    this.objectiveHistory = objectiveHistory;
    this.rows = rows;
    this.seconds = seconds;
    this.skippedRows = skippedRows;
    this.coefficients = coefficients;
    this.intercepts = intercepts;
  }

  /**
   * Per epoch: the mean weighted loss of its rows, each taken before its update, plus the penalty
   * of the epoch's model.
   */
  public double[] objectiveHistory() {
    return objectiveHistory.clone();
  }

  /** Epochs run: {@code maxIter}, or fewer when {@code tol} stopped training. */
  public int totalIterations() {
    return objectiveHistory.length;
  }

  /** Per epoch: the rows trained on. */
  public long[] rowsPerEpoch() {
    return rows.clone();
  }

  /** Per epoch: wall-clock seconds of its Spark jobs (one per round). */
  public double[] secondsPerEpoch() {
    return seconds.clone();
  }

  /**
   * Per epoch: the rounds it ran, each one Spark job after which the partition models were averaged
   * (see the {@code syncInterval} param).
   */
  public int[] roundsPerEpoch() {
    return Arrays.stream(roundSeconds).mapToInt(r -> r.length).toArray();
  }

  /** Per epoch, per round: wall-clock seconds of the round's Spark job. */
  public double[][] secondsPerRound() {
    return Arrays.stream(roundSeconds).map(double[]::clone).toArray(double[][]::new);
  }

  /**
   * Per epoch: bytes of the models broadcast to the executors, each round's serialized model times
   * the executors it reaches (in local mode, one), and with {@code deltaCompression=int8} and
   * {@code errorFeedback}, of the residuals sent to the tasks, each partition's to its own task.
   */
  public long[] bytesToExecutorsPerEpoch() {
    return bytesToExecutors.clone();
  }

  /**
   * Per epoch: bytes the executors sent back, from Spark's task metrics: the task results
   * (partition models, or their compressed deltas and with {@code errorFeedback} their residuals,
   * with the metrics Spark adds to every result) and, when the models are summed by slices, the
   * shuffle's bytes.
   */
  public long[] bytesFromExecutorsPerEpoch() {
    return bytesFromExecutors.clone();
  }

  /**
   * The initial step training used: {@code stepSize} when it was set, else the one the calibration
   * on a sample chose (logged at INFO with what each candidate scored).
   */
  public double stepSize() {
    return stepSize;
  }

  /**
   * The partitions training ran in, each training its own model between averages: the input's, or
   * fewer where they would hold less than {@code minPartitionRows} rows each.
   */
  public int numPartitions() {
    return numPartitions;
  }

  /** Per epoch: rows per second. */
  public double[] rowsPerSecond() {
    double[] rate = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      rate[i] = rows[i] / seconds[i];
    }
    return rate;
  }

  /**
   * Per epoch: the model's coefficients after it, so a model of any epoch can be evaluated (for
   * example test accuracy per epoch) without training again. The last is the model's own. Fails for
   * a multinomial model: see {@link #coefficientMatrixHistory()}.
   */
  public Vector[] coefficientsHistory() {
    requireOneMargin("coefficientsHistory", "coefficientMatrixHistory");
    return Arrays.stream(coefficients).map(Vectors::dense).toArray(Vector[]::new);
  }

  /**
   * Per epoch: the model's intercept after it. Fails for a multinomial model: see {@link
   * #interceptVectorHistory}.
   */
  public double[] interceptHistory() {
    requireOneMargin("interceptHistory", "interceptVectorHistory");
    return Arrays.stream(intercepts).mapToDouble(b -> b[0]).toArray();
  }

  /**
   * Per epoch: the model's coefficients after it as a matrix of one row per class (multinomial), or
   * of one row (binary, as {@code LogisticRegressionModel.coefficientMatrix}).
   */
  public Matrix[] coefficientMatrixHistory() {
    return Arrays.stream(coefficients)
        .map(w -> LinearFit.matrix(w, numMargins()))
        .toArray(Matrix[]::new);
  }

  /**
   * Per epoch: the model's intercepts after it, one per row of {@link #coefficientMatrixHistory()}.
   */
  public Vector[] interceptVectorHistory() {
    return Arrays.stream(intercepts).map(b -> Vectors.dense(b.clone())).toArray(Vector[]::new);
  }

  private int numMargins() {
    return intercepts.length == 0 ? 1 : intercepts[0].length;
  }

  private void requireOneMargin(String what, String instead) {
    if (numMargins() > 1) {
      throw new IllegalStateException(
          "Cannot get "
              + what
              + " of a multinomial model: it has "
              + numMargins()
              + " rows of coefficients; use "
              + instead);
    }
  }

  /** Invalid rows left out per epoch with {@code handleInvalid=skip}. */
  public long skippedRows() {
    return skippedRows;
  }

  @Override
  public String toString() {
    return "SGDTrainingSummary(epochs="
        + totalIterations()
        + ", objectiveHistory="
        + Arrays.toString(objectiveHistory)
        + ")";
  }
}
