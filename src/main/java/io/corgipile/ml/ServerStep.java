package io.corgipile.ml;

/**
 * The driver's step between rounds: the averaged change of the partition models, treated as a
 * pseudo-gradient (as local-SGD and slow-momentum methods do), is scaled by {@code syncStepSize}
 * and carried with momentum {@code syncMomentum}: {@code u = momentum * u + (mean - start)}, {@code
 * next = start + stepSize * u}. With step 1 and momentum 0 the next model is the mean itself, bit for
 * bit. It steps only between the rounds of an epoch that has several; the velocity carries over
 * from one such epoch to the next, as slow momentum keeps its buffer over all outer steps.
 */
final class ServerStep {
  private final double stepSize;
  private final double momentum;
  private double[] velocity;
  private double interceptVelocity;

  ServerStep(double stepSize, double momentum) {
    this.stepSize = stepSize;
    this.momentum = momentum;
  }

  /**
   * @param start the round's starting model; null coefficients (before any round) count as zeros
   * @param mean the partitions' models averaged
   * @return the coefficients, then the intercept, of the next round's model
   */
  double[] next(double[] start, double startIntercept, double[] mean, double meanIntercept) {
    double[] next = new double[mean.length + 1];
    if (stepSize == 1 && momentum == 0) {
      System.arraycopy(mean, 0, next, 0, mean.length);
      next[mean.length] = meanIntercept;
      return next;
    }
    if (velocity == null || velocity.length != mean.length) {
      velocity = new double[mean.length];
    }
    for (int j = 0; j < mean.length; j++) {
      double from = start == null ? 0 : start[j];
      velocity[j] = momentum * velocity[j] + (mean[j] - from);
      next[j] = from + stepSize * velocity[j];
    }
    interceptVelocity = momentum * interceptVelocity + (meanIntercept - startIntercept);
    next[mean.length] = startIntercept + stepSize * interceptVelocity;
    return next;
  }
}
