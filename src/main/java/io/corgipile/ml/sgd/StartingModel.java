package io.corgipile.ml.sgd;

import java.io.Serializable;

/**
 * The model every partition starts an epoch from, broadcast by the driver.
 *
 * @param coefficients null before the first epoch, when the number of features is not yet known;
 *     then {@link SGDConfig#numMargins()} models' coefficients, one after the other
 * @param intercepts one per model
 * @param updatesPerPartition the mean number of updates a partition made in earlier epochs
 * @param squaredGradients with {@code adagrad}, the squared gradients summed so far (the
 *     partitions' mean), laid out as the coefficients and then the intercepts; null otherwise, and
 *     before any
 */
public record StartingModel(
    double[] coefficients, double[] intercepts, long updatesPerPartition, double[] squaredGradients)
    implements Serializable {

  /** Before the first round: no coefficients yet, zero intercepts. */
  public static StartingModel initial(int numMargins) {
    return new StartingModel(null, new double[numMargins], 0, null);
  }

  /** The same model with other coefficients and intercepts (an epoch's mean of rounds). */
  public StartingModel with(double[] otherCoefficients, double[] otherIntercepts) {
    return new StartingModel(
        otherCoefficients, otherIntercepts, updatesPerPartition, squaredGradients);
  }
}
