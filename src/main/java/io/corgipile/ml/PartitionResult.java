package io.corgipile.ml;

import java.io.Serializable;

/**
 * What one partition's SGD pass returns to the driver.
 *
 * @param coefficients the partition's model after its pass; null when it saw no valid row
 * @param intercept the partition's intercept
 * @param weightSum the sum of the weights of its valid rows
 * @param lossSum the weighted loss summed over its valid rows, each taken before its update
 * @param rows valid rows trained on
 * @param skipped invalid rows skipped ({@code handleInvalid=skip})
 * @param updates SGD updates made
 */
record PartitionResult(double[] coefficients, double intercept, double weightSum, double lossSum, long rows,
    long skipped, long updates) implements Serializable {}
