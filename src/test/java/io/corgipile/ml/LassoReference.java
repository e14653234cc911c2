package io.corgipile.ml;

/**
 * Single-machine cyclic coordinate descent for the objective of {@link ScheduledLasso}, as plain as
 * it can be written (every update recomputes its feature's product with the residuals), to check
 * the distributed solver's coefficients against.
 */
final class LassoReference {
  final double[] coefficients;
  final double intercept;

  LassoReference(
      double[][] x,
      double[] y,
      double lambda,
      double alpha,
      boolean fitIntercept,
      boolean standardization) {
    int n = y.length;
    int p = x[0].length;
    double[] center = new double[p];
    double[] scale = new double[p];
    double[] curvature = new double[p];
    double labelMean = 0;
    for (double v : y) {
      labelMean += v / n;
    }
    for (int j = 0; j < p; j++) {
      double mean = 0;
      for (double[] row : x) {
        mean += row[j] / n;
      }
      double ss = 0;
      double squares = 0;
      for (double[] row : x) {
        ss += (row[j] - mean) * (row[j] - mean);
        squares += row[j] * row[j];
      }
      center[j] = fitIntercept ? mean : 0;
      scale[j] = standardization ? Math.sqrt(ss / (n - 1)) : 1;
      curvature[j] = fitIntercept ? ss / n : squares / n;
    }
    double yCenter = fitIntercept ? labelMean : 0;
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = y[i] - yCenter;
    }
    double[] b = new double[p];
    for (int sweep = 0; sweep < 100_000; sweep++) {
      double largest = 0;
      for (int j = 0; j < p; j++) {
        if (curvature[j] == 0 || scale[j] == 0) {
          continue;
        }
        double rho = 0;
        for (int i = 0; i < n; i++) {
          rho += (x[i][j] - center[j]) * r[i];
        }
        rho = rho / n + curvature[j] * b[j];
        double next =
            Math.signum(rho)
                * Math.max(Math.abs(rho) - lambda * alpha * scale[j], 0)
                / (curvature[j] + lambda * (1 - alpha) * scale[j] * scale[j]);
        double delta = next - b[j];
        if (delta != 0) {
          for (int i = 0; i < n; i++) {
            r[i] -= delta * (x[i][j] - center[j]);
          }
          b[j] = next;
          largest = Math.max(largest, Math.abs(delta));
        }
      }
      if (largest < 1e-14) {
        break;
      }
    }
    coefficients = b;
    double c = yCenter;
    for (int j = 0; j < p; j++) {
      c -= center[j] * b[j];
    }
    intercept = c;
  }
}
