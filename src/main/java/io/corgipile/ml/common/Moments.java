package io.corgipile.ml.common;

import java.io.Serializable;

/**
 * One partition's moments of a set of rows, or a merge of several, over coordinates {@code [from,
 * from + mean.length)}.
 *
 * @param weight the rows' weight sum
 * @param rows the rows of positive weight
 * @param nonZeros the non-zero values those rows hold, over all their features
 * @param m2 the weighted sum of squared deviations from the mean
 */
public record Moments(
    int partition,
    int numFeatures,
    int from,
    double weight,
    long rows,
    long nonZeros,
    double[] mean,
    double[] m2)
    implements Serializable {

  public Moments slice(int start, int end) {
    double[] sliceMean = new double[end - start];
    double[] sliceM2 = new double[end - start];
    System.arraycopy(mean, start - from, sliceMean, 0, sliceMean.length);
    System.arraycopy(m2, start - from, sliceM2, 0, sliceM2.length);
    return new Moments(partition, numFeatures, start, weight, rows, nonZeros, sliceMean, sliceM2);
  }

  /** Chan et al.'s merge of two disjoint sets of rows over the same coordinates. */
  public Moments merge(Moments other) {
    double total = weight + other.weight;
    double[] m = new double[mean.length];
    double[] s = new double[mean.length];
    for (int j = 0; j < m.length; j++) {
      double delta = other.mean[j] - mean[j];
      m[j] = mean[j] + delta * (other.weight / total);
      s[j] = m2[j] + other.m2[j] + delta * delta * (weight * other.weight / total);
    }
    return new Moments(
        -1, numFeatures, from, total, rows + other.rows, nonZeros + other.nonZeros, m, s);
  }
}
