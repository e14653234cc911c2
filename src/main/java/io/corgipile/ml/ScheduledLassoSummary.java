package io.corgipile.ml;

import java.io.Serializable;

/**
 * How {@link ScheduledLasso}'s training went, round by round. Kept with the model in memory; not
 * saved with it.
 */
public final class ScheduledLassoSummary implements Serializable {
  private static final long serialVersionUID = 1L;

  private final double[] objectiveHistory;
  private final long[] updates;
  private final int[] rejected;
  private final double[] seconds;
  private final int[] passes;
  private final long rows;

  public ScheduledLassoSummary(
      double[] objectiveHistory,
      long[] updates,
      int[] rejected,
      double[] seconds,
      int[] passes,
      long rows) {
    this.passes = passes;
    this.objectiveHistory = objectiveHistory;
    this.updates = updates;
    this.rejected = rejected;
    this.seconds = seconds;
    this.rows = rows;
  }

  /**
   * The objective, (1/2n)|y - Xb - c|^2 plus the penalty: at index 0 of the zero coefficients (and
   * the best intercept for them), at index t after round t.
   */
  public double[] objectiveHistory() {
    return objectiveHistory.clone();
  }

  /** Rounds run: {@code maxIter}, or fewer when {@code tol} stopped training. */
  public int totalIterations() {
    return objectiveHistory.length - 1;
  }

  /**
   * Per round: coefficient updates so far (index 0: none), whether or not an update changed its
   * coefficient.
   */
  public long[] updatesHistory() {
    return updates.clone();
  }

  /**
   * Per round (index 0: none): candidates the dependency check turned away from it; they stay
   * candidates for the next rounds of the same pass over the data.
   */
  public int[] rejectedPerRound() {
    return rejected.clone();
  }

  /**
   * Seconds since training started (index 0: the pass that reads and summarizes the data), per
   * round.
   */
  public double[] secondsHistory() {
    return seconds.clone();
  }

  /**
   * Per round: passes over the data so far (Spark jobs; index 0: none). With the dependency check a
   * pass serves several rounds: the candidates turned away by one are scheduled in the next.
   */
  public int[] passesHistory() {
    return passes.clone();
  }

  /** The training rows. */
  public long numRows() {
    return rows;
  }
}
