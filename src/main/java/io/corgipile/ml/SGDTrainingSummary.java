package io.corgipile.ml;

import java.io.Serializable;
import java.util.Arrays;
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
  private final double[] intercepts;
  private final double[][] roundSeconds;

  SGDTrainingSummary(double[] objectiveHistory, long[] rows, double[] seconds, long skippedRows,
      double[][] coefficients, double[] intercepts, double[][] roundSeconds) {
    this.roundSeconds = roundSeconds;
    this.objectiveHistory = objectiveHistory;
    this.rows = rows;
    this.seconds = seconds;
    this.skippedRows = skippedRows;
    this.coefficients = coefficients;
    this.intercepts = intercepts;
  }

  /** Per epoch: the mean weighted loss of its rows, each taken before its update, plus the penalty of the epoch's model. */
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
   * Per epoch: the rounds it ran, each one Spark job after which the partition models were
   * averaged (see the {@code syncInterval} param).
   */
  public int[] roundsPerEpoch() {
    return Arrays.stream(roundSeconds).mapToInt(r -> r.length).toArray();
  }

  /** Per epoch, per round: wall-clock seconds of the round's Spark job. */
  public double[][] secondsPerRound() {
    return Arrays.stream(roundSeconds).map(double[]::clone).toArray(double[][]::new);
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
   * example test accuracy per epoch) without training again. The last is the model's own.
   */
  public Vector[] coefficientsHistory() {
    return Arrays.stream(coefficients).map(Vectors::dense).toArray(Vector[]::new);
  }

  /** Per epoch: the model's intercept after it. */
  public double[] interceptHistory() {
    return intercepts.clone();
  }

  /** Invalid rows left out per epoch with {@code handleInvalid=skip}. */
  public long skippedRows() {
    return skippedRows;
  }

  @Override
  public String toString() {
    return "SGDTrainingSummary(epochs=" + totalIterations() + ", objectiveHistory="
        + Arrays.toString(objectiveHistory) + ")";
  }
}
