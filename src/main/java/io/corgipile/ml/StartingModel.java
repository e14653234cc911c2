package io.corgipile.ml;

import java.io.Serializable;

/**
 * The model every partition starts an epoch from, broadcast by the driver.
 *
 * @param coefficients null before the first epoch, when the number of features is not yet known
 * @param updatesPerPartition the mean number of updates a partition made in earlier epochs
 */
record StartingModel(double[] coefficients, double intercept, long updatesPerPartition) implements Serializable {}
