package io.corgipile.ml.sgd;

import java.io.Serializable;

/**
 * How training sees the features under {@code standardization}: {@code z_j = (x_j - mu_j) /
 * sigma_j}, or {@code x_j / sigma_j} when not centered. SGD then runs on {@code z} (the penalty
 * too, as in MLlib's {@code LogisticRegression}), without ever building {@code z}: {@link
 * LinearSGD} folds the scale into its reads of {@code x} and the centering into one scalar (see
 * there), so an update still costs O(non-zeros). A feature of deviation 0 is left out (its
 * coefficient stays 0), as MLlib does.
 *
 * @param inverseStd {@code 1 / sigma_j}, or 0 where {@code sigma_j} is 0
 * @param scaledMean {@code mu_j / sigma_j} (0 where {@code sigma_j} is 0), or null when not
 *     centered
 */
public record FeatureScaling(double[] inverseStd, double[] scaledMean) implements Serializable {

  public boolean centered() {
    return scaledMean != null;
  }

  /**
   * The coefficients on the original features of a model trained on the scaled ones: one or more
   * margins' coefficients one after the other, each scaled alike.
   */
  public double[] originalCoefficients(double[] scaled) {
    int n = inverseStd.length;
    double[] w = new double[scaled.length];
    for (int j = 0; j < w.length; j++) {
      w[j] = scaled[j] * inverseStd[j % n];
    }
    return w;
  }

  /**
   * The intercepts on the original features, one per margin: {@code b_k - sum_j w_kj mu_j /
   * sigma_j} when centered.
   */
  public double[] originalIntercepts(double[] scaled, double[] intercepts) {
    if (scaledMean == null) {
      return intercepts;
    }
    int n = scaledMean.length;
    double[] b = intercepts.clone();
    for (int k = 0; k < b.length; k++) {
      double shift = 0;
      for (int j = 0; j < n; j++) {
        shift += scaled[k * n + j] * scaledMean[j];
      }
      b[k] -= shift;
    }
    return b;
  }
}
