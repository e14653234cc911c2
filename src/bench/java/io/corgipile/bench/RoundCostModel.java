package io.corgipile.bench;

import java.util.List;

/**
 * LambdaML's analytic model of a round, for Spark: an epoch costs a fixed part (the rows' reading
 * and training, which P splits but the cores bound), a part per task (opening a partition's slice,
 * scheduling, returning a result), a part per round (a job, a broadcast, the driver's merge) and a
 * part per byte sent. Fitted by least squares to the epochs of pilot runs, it predicts the epoch
 * time of other partition counts, rounds and compressions.
 */
final class RoundCostModel {
  /** Seconds: fixed, per task, per round, per MiB. */
  private final double[] coefficients;

  private RoundCostModel(double[] coefficients) {
    this.coefficients = coefficients;
  }

  /** One epoch as the model sees it. */
  record Observation(int tasks, int rounds, double mebibytes, double seconds) {}

  /**
   * Least squares over {@code pilot}, no cost negative: a term the pilot does not vary, or whose
   * fitted cost comes out below zero (the pilot cannot tell it from the others, as bytes that grow
   * with tasks), is left out and the rest fitted again.
   */
  static RoundCostModel fit(List<Observation> pilot) {
    boolean[] used = {true, true, true, true};
    // a term the pilot does not vary is the fixed part again: left out
    for (int i = 1; i < used.length; i++) {
      int term = i;
      used[i] = pilot.stream().mapToDouble(o -> features(o.tasks(), o.rounds(), o.mebibytes())[term]).distinct()
          .count() > 1;
    }
    while (true) {
      double[] c = fit(pilot, used);
      int negative = -1;
      for (int i = 1; i < c.length; i++) {
        if (used[i] && c[i] < 0 && (negative < 0 || c[i] < c[negative])) {
          negative = i;
        }
      }
      if (negative < 0) {
        return new RoundCostModel(c);
      }
      used[negative] = false;
    }
  }

  private static double[] fit(List<Observation> pilot, boolean[] used) {
    int k = used.length;
    double[][] normal = new double[k][k + 1];
    for (Observation o : pilot) {
      double[] x = features(o.tasks(), o.rounds(), o.mebibytes());
      for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) {
          normal[i][j] += used[i] && used[j] ? x[i] * x[j] : 0;
        }
        normal[i][i] += used[i] ? 0 : 1; // a left-out term: coefficient 0
        normal[i][k] += used[i] ? x[i] * o.seconds() : 0;
      }
    }
    return solve(normal);
  }

  double predict(int tasks, int rounds, double mebibytes) {
    double[] x = features(tasks, rounds, mebibytes);
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      sum += coefficients[i] * x[i];
    }
    return sum;
  }

  String describe() {
    return String.format(java.util.Locale.ROOT, "%.3f s + %.4f s per task + %.4f s per round + %.4f s per MiB",
        coefficients[0], coefficients[1], coefficients[2], coefficients[3]);
  }

  private static double[] features(int tasks, int rounds, double mebibytes) {
    return new double[] {1, tasks, rounds, mebibytes};
  }

  /** Gaussian elimination with partial pivoting; a singular system (the pilot does not vary) gives NaN. */
  private static double[] solve(double[][] a) {
    int n = a.length;
    for (int c = 0; c < n; c++) {
      int pivot = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
          pivot = r;
        }
      }
      double[] t = a[c];
      a[c] = a[pivot];
      a[pivot] = t;
      for (int r = 0; r < n; r++) {
        if (r != c && a[c][c] != 0) {
          double f = a[r][c] / a[c][c];
          for (int j = c; j <= n; j++) {
            a[r][j] -= f * a[c][j];
          }
        }
      }
    }
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = a[i][n] / a[i][i];
    }
    return x;
  }
}
