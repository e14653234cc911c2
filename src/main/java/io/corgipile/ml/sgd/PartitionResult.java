package io.corgipile.ml.sgd;

import io.corgipile.ml.compress.QuantizedDelta;
import java.io.Serializable;

/**
 * What one partition's SGD pass in a round returns to the driver: its model, as coefficients or as
 * a compressed change from the round's starting model.
 *
 * @param partition the partition's index
 * @param coefficients the partition's model after its pass; null when it saw no valid row, when it
 *     sends a {@code delta} instead, or once the model travels separately ({@link #withoutModel})
 * @param delta the model's change from the round's start, compressed; null when it sends
 *     coefficients
 * @param numFeatures the size of the model, all its margins' coefficients; 0 when it saw no valid
 *     row
 * @param intercepts the partition's intercepts, one per margin; null when it saw no valid row
 * @param weightSum the sum of the weights of its valid rows
 * @param lossSum the weighted loss summed over its valid rows, each taken before its update
 * @param rows valid rows trained on; 0 when it has no model
 * @param skipped invalid rows skipped ({@code handleInvalid=skip})
 * @param updates SGD updates made
 * @param squaredGradients with {@code adagrad}, the partition's squared gradient sums after its
 *     pass, laid out as {@link StartingModel#squaredGradients()}; null otherwise
 * @param residual with error feedback, what compressing {@code delta} lost, for the driver to send
 *     with the partition's next round ({@link io.corgipile.ml.compress.ErrorFeedback}); null
 *     otherwise, and when it saw no valid row (the driver then keeps the partition's previous one)
 */
public record PartitionResult(
    int partition,
    double[] coefficients,
    QuantizedDelta delta,
    int numFeatures,
    double[] intercepts,
    double weightSum,
    double lossSum,
    long rows,
    long skipped,
    long updates,
    double[] squaredGradients,
    QuantizedDelta residual)
    implements Serializable {

  static PartitionResult empty(int partition, long skipped) {
    return new PartitionResult(partition, null, null, 0, null, 0, 0, 0, skipped, 0, null, null);
  }

  /**
   * Without its coefficients; with {@code adagrad}'s sums and the residual, which so reach the
   * driver with the statistics.
   */
  public PartitionResult withoutModel() {
    return new PartitionResult(
        partition,
        null,
        null,
        numFeatures,
        intercepts,
        weightSum,
        lossSum,
        rows,
        skipped,
        updates,
        squaredGradients,
        residual);
  }

  public boolean trained() {
    return rows > 0;
  }

  /**
   * The partition's coefficients: sent, or the round's start plus the decoded delta.
   *
   * @param start the round's starting coefficients; null for zeros
   */
  public double[] model(double[] start) {
    if (coefficients != null) {
      return coefficients;
    }
    double[] w = start == null ? new double[numFeatures] : start.clone();
    delta.requireSize(w.length);
    delta.addTo(w, 1.0);
    return w;
  }
}
