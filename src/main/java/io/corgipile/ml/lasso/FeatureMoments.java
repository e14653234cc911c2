package io.corgipile.ml.lasso;

import io.corgipile.ml.common.Moments;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;

/**
 * Means and sums of squared deviations of every feature and of the label, of one partition or of
 * several merged: {@link Moments} over the features with the label as one more coordinate, so the
 * lasso merges by the same formula (Chan et al.'s) as the SGD estimators' scaling.
 */
public record FeatureMoments(Moments all) implements Serializable {

  /**
   * @param mean per feature, then the label's
   * @param m2 per feature, then the label's
   */
  static FeatureMoments of(int partition, long rows, double[] mean, double[] m2) {
    return new FeatureMoments(new Moments(partition, mean.length, 0, rows, rows, 0, mean, m2));
  }

  /**
   * The partitions' moments merged in partition order, so the result is the same bit for bit on
   * every run.
   */
  static FeatureMoments mergeInOrder(List<FeatureMoments> parts) {
    Moments total = null;
    for (FeatureMoments m :
        parts.stream().sorted(Comparator.comparingInt(m -> m.all.partition())).toList()) {
      if (m.rows() == 0) {
        continue;
      }
      total = total == null ? m.all : total.merge(m.all);
    }
    return total == null ? null : new FeatureMoments(total);
  }

  long rows() {
    return all.rows();
  }

  int numFeatures() {
    return all.numFeatures() - 1;
  }

  double mean(int j) {
    return all.mean()[j];
  }

  double m2(int j) {
    return all.m2()[j];
  }

  double labelMean() {
    return all.mean()[numFeatures()];
  }

  double labelM2() {
    return all.m2()[numFeatures()];
  }

  /** The sample standard deviation of feature j, as MLlib's summarizer gives it. */
  double std(int j) {
    return rows() > 1 ? Math.sqrt(m2(j) / (rows() - 1)) : 0.0;
  }

  /** The mean of the squares of feature j. */
  double meanSquare(int j) {
    return m2(j) / rows() + mean(j) * mean(j);
  }
}
