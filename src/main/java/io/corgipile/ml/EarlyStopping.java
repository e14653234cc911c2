package io.corgipile.ml;

/**
 * When training stops, and which epoch's model it returns. An epoch improves when its objective is
 * below the best so far by at least {@code tol}, relatively; training stops after {@code
 * nIterNoChange} epochs in a row without improvement (scikit-learn's {@code n_iter_no_change}), as
 * one epoch's objective is too noisy to stop on. The model returned is the one of the epoch with the
 * lowest objective (the latest of equals): the last epoch's unless the objective got worse after it.
 */
final class EarlyStopping {
  private final double tol;
  private final int patience;
  private double best;
  private int bestEpoch = -1;
  private int epochs;
  private int withoutImprovement;

  /**
   * @param tol relative improvement that counts; 0 never stops
   * @param patience epochs in a row without improvement that stop training, at least 1
   */
  EarlyStopping(double tol, int patience) {
    this.tol = tol;
    this.patience = patience;
  }

  /** Records the next epoch's objective; whether training stops after it. */
  boolean stopsAfter(double objective) {
    boolean improved = bestEpoch < 0 || objective < best - tol * Math.max(Math.abs(best), Double.MIN_NORMAL);
    if (bestEpoch < 0 || objective <= best) {
      best = objective;
      bestEpoch = epochs;
    }
    withoutImprovement = improved ? 0 : withoutImprovement + 1;
    epochs++;
    return tol > 0 && withoutImprovement >= patience;
  }

  /** The epoch (from 0) of the lowest objective so far, whose model training returns. */
  int bestEpoch() {
    return bestEpoch;
  }
}
