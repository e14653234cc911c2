package io.corgipile.ml;

import java.io.Serializable;
import java.util.List;

/**
 * Means and sums of squared deviations of every feature and of the label, of one partition or of
 * several merged by Chan et al.'s formula (exact where a plain sum of squares would cancel).
 */
record FeatureMoments(int partition, long rows, int numFeatures, double[] mean, double[] m2, double labelMean,
    double labelM2) implements Serializable {

  /** The partitions' moments merged in partition order, so the result is the same bit for bit on every run. */
  static FeatureMoments mergeInOrder(List<FeatureMoments> parts) {
    FeatureMoments total = null;
    for (FeatureMoments m : parts.stream().sorted(java.util.Comparator.comparingInt(FeatureMoments::partition))
        .toList()) {
      if (m.rows == 0) {
        continue;
      }
      total = total == null ? m : total.merge(m);
    }
    return total;
  }

  private FeatureMoments merge(FeatureMoments other) {
    double n = rows + other.rows;
    double wa = rows / n;
    double wb = other.rows / n;
    double[] mu = new double[mean.length];
    double[] ss = new double[mean.length];
    for (int j = 0; j < mu.length; j++) {
      double delta = other.mean[j] - mean[j];
      mu[j] = mean[j] + delta * wb;
      ss[j] = m2[j] + other.m2[j] + delta * delta * rows * wb;
    }
    double labelDelta = other.labelMean - labelMean;
    return new FeatureMoments(-1, rows + other.rows, numFeatures, mu, ss, labelMean + labelDelta * wb,
        labelM2 + other.labelM2 + labelDelta * labelDelta * rows * wb);
  }

  /** The sample standard deviation of feature j, as MLlib's summarizer gives it. */
  double std(int j) {
    return rows > 1 ? Math.sqrt(m2[j] / (rows - 1)) : 0.0;
  }

  /** The mean of the squares of feature j. */
  double meanSquare(int j) {
    return m2[j] / rows + mean[j] * mean[j];
  }
}
