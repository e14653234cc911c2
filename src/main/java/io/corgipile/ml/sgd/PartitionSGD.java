package io.corgipile.ml.sgd;

import io.corgipile.spark.FeatureVector;

/**
 * One linear model under SGD updates in one partition's pass, as {@link PartitionTrainer} drives
 * it: a margin per row, its gradient added to the batch, an update when the batch is full. {@link
 * LinearSGD} follows a global rate ({@code constant}, {@code decay}, {@code invsqrt}); {@link
 * AdaGradSGD} a rate per coordinate ({@code adagrad}).
 */
public sealed interface PartitionSGD permits LinearSGD, AdaGradSGD {

  /**
   * @param coefficients the starting weights, owned from now on
   * @param squaredGradients with {@code adagrad}, the squared gradients summed so far, one per
   *     coefficient and then one for the intercept, owned from now on; null otherwise (or, for
   *     {@code adagrad}, before any)
   * @param previousUpdates the updates a partition made in earlier passes, for {@code invsqrt}
   * @param averaged the partitions the driver averages every round, for the rate ({@link
   *     StepSchedule#rate})
   * @param averageIterates whether {@link #coefficients()} is the mean of the iterates rather than
   *     the last
   * @param scaling the scaling the coefficients are in, or null for none
   */
  static PartitionSGD create(
      double[] coefficients,
      double intercept,
      double[] squaredGradients,
      SGDConfig config,
      int epoch,
      long previousUpdates,
      int averaged,
      boolean averageIterates,
      FeatureScaling scaling) {
    if (config.schedule() == StepSchedule.ADAGRAD) {
      return new AdaGradSGD(
          coefficients, intercept, squaredGradients, config, averageIterates, scaling);
    }
    return new LinearSGD(
        coefficients,
        intercept,
        config,
        epoch,
        previousUpdates,
        averaged,
        averageIterates,
        scaling);
  }

  /** The coefficients of {@code models}, one per margin, one margin's after the other. */
  static double[] coefficients(PartitionSGD[] models) {
    int n = models[0].numFeatures();
    double[] w = new double[n * models.length];
    for (int k = 0; k < models.length; k++) {
      System.arraycopy(models[k].coefficients(), 0, w, k * n, n);
    }
    return w;
  }

  int numFeatures();

  long updates();

  /** {@code w.x + b}, on the scaled features under a scaling. */
  double margin(FeatureVector x);

  /** Adds one row's gradient, {@code derivative * x}, to the batch. */
  void accumulate(FeatureVector x, double derivative);

  boolean batchFull();

  /** Applies the batch's mean gradient and the regularization, and starts a new batch. */
  void update();

  /**
   * The weights as plain coefficients (in the scaled features' space, under a scaling): with
   * averaging, the mean of the iterates so far, zero wherever L1 holds the last iterate at zero.
   */
  double[] coefficients();

  double intercept();

  /**
   * With {@code adagrad}: the squared gradients summed so far, the coefficients' then the
   * intercept's; else null.
   */
  double[] squaredGradients();
}
