package io.corgipile.ml.sync;

/**
 * When training stops. An epoch improves when its objective is below the best so far by at least
 * {@code tol}, relatively; training stops after {@code nIterNoChange} epochs in a row without
 * improvement (scikit-learn's {@code n_iter_no_change}), as one epoch's objective is too noisy to
 * stop on.
 *
 * <p>Training returns the last epoch's model, not the one of the lowest objective: the objective is
 * progressive (each row's loss before its update), and on clustered data an early epoch's larger
 * steps follow each buffer's label mix, which lowers it while the model is worse (test accuracy
 * 0.843 against 0.862 in {@code StandardizationTest}'s unscaled set, had the lowest epoch been
 * kept).
 */
public final class EarlyStopping {
  private final double tol;
  private final int patience;
  private double best;
  private boolean started;
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
    boolean improved =
        !started || objective < best - tol * Math.max(Math.abs(best), Double.MIN_NORMAL);
    best = started ? Math.min(best, objective) : objective;
    started = true;
    withoutImprovement = improved ? 0 : withoutImprovement + 1;
    return tol > 0 && withoutImprovement >= patience;
  }
}
