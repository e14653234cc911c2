package io.corgipile.ml.sync;

import io.corgipile.ml.sgd.StartingModel;

/**
 * The driver's step between rounds: the averaged change of the partition models, treated as a
 * pseudo-gradient (as local-SGD and slow-momentum methods do), is scaled by {@code syncStepSize}
 * and carried with momentum {@code syncMomentum}: {@code u = momentum * u + (mean - start)}, {@code
 * next = start + stepSize * u}. With step 1 and momentum 0 the next model is the mean itself, bit
 * for bit. It steps only between the rounds of an epoch that has several; the velocity carries over
 * from one such epoch to the next, as slow momentum keeps its buffer over all outer steps.
 */
public final class ServerStep {
  private final double stepSize;
  private final double momentum;
  private double[] velocity;
  private double[] interceptVelocity;

  ServerStep(double stepSize, double momentum) {
    this.stepSize = stepSize;
    this.momentum = momentum;
  }

  /**
   * @param start the round's starting model; null coefficients (before any round) count as zeros
   * @param mean the partitions' models averaged
   * @return the next round's starting model
   */
  StartingModel next(StartingModel start, RoundJob.Result mean) {
    if (stepSize == 1 && momentum == 0) {
      return mean.model();
    }
    double[] to = mean.coefficients();
    if (velocity == null || velocity.length != to.length) {
      velocity = new double[to.length];
    }
    double[] next = new double[to.length];
    for (int j = 0; j < to.length; j++) {
      double from = start.coefficients() == null ? 0 : start.coefficients()[j];
      velocity[j] = momentum * velocity[j] + (to[j] - from);
      next[j] = from + stepSize * velocity[j];
    }
    double[] b = mean.intercepts();
    if (interceptVelocity == null) {
      interceptVelocity = new double[b.length];
    }
    double[] nextIntercepts = new double[b.length];
    for (int k = 0; k < b.length; k++) {
      interceptVelocity[k] = momentum * interceptVelocity[k] + (b[k] - start.intercepts()[k]);
      nextIntercepts[k] = start.intercepts()[k] + stepSize * interceptVelocity[k];
    }
    return new StartingModel(
        next, nextIntercepts, mean.updatesPerPartition(), mean.squaredGradients());
  }
}
