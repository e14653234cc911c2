package io.corgipile.ml.sgd;

/**
 * The multinomial logistic loss over K classes, labels 0..K-1: {@code log(sum_k exp(m_k)) - m_y},
 * whose derivative in {@code m_k} is {@code p_k - [k = y]}, {@code p = softmax(m)}. Computed with
 * the largest margin subtracted first, so it neither overflows nor loses the small probabilities.
 *
 * @param numClasses K, at least 2
 */
public record Softmax(int numClasses) implements MarginsLoss {

  @Override
  public int numMargins() {
    return numClasses;
  }

  @Override
  public double lossAndDerivatives(double[] margins, double label, double[] derivatives) {
    int y = (int) label;
    double sum = probabilities(margins, derivatives);
    derivatives[y] -= 1;
    return Math.log(sum) - (margins[y] - max(margins));
  }

  /**
   * Writes {@code softmax(margins)} to {@code out} (which may be {@code margins} itself).
   *
   * @return {@code sum_k exp(m_k - max_k m_k)}, the normalizer
   */
  public static double probabilities(double[] margins, double[] out) {
    double max = max(margins);
    double sum = 0;
    for (int k = 0; k < margins.length; k++) {
      out[k] = Math.exp(margins[k] - max);
      sum += out[k];
    }
    for (int k = 0; k < margins.length; k++) {
      out[k] /= sum;
    }
    return sum;
  }

  private static double max(double[] margins) {
    double max = Double.NEGATIVE_INFINITY;
    for (double m : margins) {
      max = Math.max(max, m);
    }
    return max;
  }
}
