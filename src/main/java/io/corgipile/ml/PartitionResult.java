package io.corgipile.ml;

import java.io.Serializable;

/**
 * What one partition's SGD pass in a round returns to the driver.
 *
 * @param partition the partition's index
 * @param coefficients the partition's model after its pass; null when it saw no valid row, or
 *     once the model travels separately ({@link #withoutCoefficients})
 * @param numFeatures the size of the model; 0 when it saw no valid row
 * @param intercept the partition's intercept
 * @param weightSum the sum of the weights of its valid rows
 * @param lossSum the weighted loss summed over its valid rows, each taken before its update
 * @param rows valid rows trained on; 0 when it has no model
 * @param skipped invalid rows skipped ({@code handleInvalid=skip})
 * @param updates SGD updates made
 */
record PartitionResult(int partition, double[] coefficients, int numFeatures, double intercept, double weightSum,
    double lossSum, long rows, long skipped, long updates) implements Serializable {

  static PartitionResult empty(int partition, long skipped) {
    return new PartitionResult(partition, null, 0, 0, 0, 0, 0, skipped, 0);
  }

  PartitionResult withoutCoefficients() {
    return new PartitionResult(partition, null, numFeatures, intercept, weightSum, lossSum, rows, skipped, updates);
  }

  boolean trained() {
    return rows > 0;
  }
}
