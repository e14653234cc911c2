package io.corgipile.ml;

import java.io.Serializable;
import java.util.Arrays;

/** How training went, epoch by epoch. Kept with the model in memory; not saved with it. */
public final class SGDTrainingSummary implements Serializable {
  private static final long serialVersionUID = 1L;

  private final double[] objectiveHistory;
  private final long[] rows;
  private final double[] seconds;
  private final long skippedRows;

  SGDTrainingSummary(double[] objectiveHistory, long[] rows, double[] seconds, long skippedRows) {
    this.objectiveHistory = objectiveHistory;
    this.rows = rows;
    this.seconds = seconds;
    this.skippedRows = skippedRows;
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

  /** Per epoch: wall-clock seconds of its Spark job. */
  public double[] secondsPerEpoch() {
    return seconds.clone();
  }

  /** Per epoch: rows per second. */
  public double[] rowsPerSecond() {
    double[] rate = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      rate[i] = rows[i] / seconds[i];
    }
    return rate;
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
