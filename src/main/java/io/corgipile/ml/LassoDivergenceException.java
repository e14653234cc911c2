package io.corgipile.ml;

/**
 * {@link ScheduledLasso}'s rounds diverged: updates of correlated coefficients computed from the
 * same residuals overshot together (as naive parallel coordinate descent can). The summary has the
 * rounds up to the divergence.
 */
public final class LassoDivergenceException extends IllegalStateException {
  private static final long serialVersionUID = 1L;
  private final ScheduledLassoSummary summary;

  public LassoDivergenceException(String message, ScheduledLassoSummary summary) {
    super(message);
    this.summary = summary;
  }

  /** The rounds run, the last one the one that diverged. */
  public ScheduledLassoSummary summary() {
    return summary;
  }
}
