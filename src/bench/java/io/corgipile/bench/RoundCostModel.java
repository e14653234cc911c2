package io.corgipile.bench;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * LambdaML's analytic model of a round, for Spark: an epoch costs a fixed part (the rows' reading
 * and training, which P splits but the cores bound), a part per task (opening a partition's slice,
 * scheduling, returning a result), a part per round (a job, a broadcast, the driver's merge) and a
 * part per byte sent. Fitted by least squares to the epochs of pilot runs, it predicts the epoch
 * time of other partition counts, rounds and compressions.
 */
final class RoundCostModel {
  /** The terms: fixed, per task, per round, per MiB, in the order they are tried. */
  private static final int TERMS = 4;

  /**
   * The share of a term's variance over the pilot that the terms before it may leave unexplained,
   * and it is left out.
   */
  private static final double EXPLAINED = 0.01;

  /** Seconds: fixed, per task, per round, per MiB. */
  private final double[] coefficients;

  private RoundCostModel(double[] coefficients) {
    this.coefficients = coefficients;
  }

  /** One epoch as the model sees it. */
  record Observation(int tasks, int rounds, double mebibytes, double seconds) {}

  /**
   * Least squares over {@code pilot}, no cost negative. A term the pilot cannot tell from the terms
   * before it (it does not vary, or, as bytes that grow with tasks, it is nearly a linear function
   * of them) is left out, its cost then carried by the terms it follows; so is a term whose fitted
   * cost comes out below zero, and the rest fitted again.
   */
  static RoundCostModel fit(List<Observation> pilot) {
    boolean[] used = new boolean[TERMS];
    used[0] = true;
    for (int i = 1; i < TERMS; i++) {
      used[i] = !explained(pilot, used, i);
    }
    while (true) {
      double[] c = fit(pilot, used, Observation::seconds);
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

  /**
   * Whether term {@code term} is, over the pilot, within {@link #EXPLAINED} of its variance a
   * linear function of the {@code used} terms before it.
   */
  private static boolean explained(List<Observation> pilot, boolean[] used, int term) {
    boolean[] before = new boolean[TERMS];
    for (int i = 0; i < term; i++) {
      before[i] = used[i];
    }
    ToDoubleFunction<Observation> x = o -> features(o)[term];
    double[] c = fit(pilot, before, x);
    double mean = pilot.stream().mapToDouble(x).average().orElse(0);
    double residual = 0;
    double total = 0;
    for (Observation o : pilot) {
      double[] f = features(o);
      residual += Math.pow(f[term] - dot(c, f), 2);
      total += Math.pow(f[term] - mean, 2);
    }
    return residual <= EXPLAINED * total || total == 0;
  }

  /** Least squares of {@code y} on the {@code used} terms; a left-out term's coefficient is 0. */
  private static double[] fit(
      List<Observation> pilot, boolean[] used, ToDoubleFunction<Observation> y) {
    double[][] normal = new double[TERMS][TERMS + 1];
    for (Observation o : pilot) {
      double[] x = features(o);
      for (int i = 0; i < TERMS; i++) {
        for (int j = 0; j < TERMS; j++) {
          normal[i][j] += used[i] && used[j] ? x[i] * x[j] : 0;
        }
        normal[i][i] += used[i] ? 0 : 1;
        normal[i][TERMS] += used[i] ? x[i] * y.applyAsDouble(o) : 0;
      }
    }
    return solve(normal);
  }

  double predict(int tasks, int rounds, double mebibytes) {
    return dot(coefficients, features(new Observation(tasks, rounds, mebibytes, 0)));
  }

  /** The seconds {@code c} puts on the terms {@code x}. */
  private static double dot(double[] c, double[] x) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      sum += c[i] * x[i];
    }
    return sum;
  }

  String describe() {
    return String.format(
        java.util.Locale.ROOT,
        "%.3f s + %.4f s per task + %.4f s per round + %.4f s per MiB",
        coefficients[0],
        coefficients[1],
        coefficients[2],
        coefficients[3]);
  }

  private static double[] features(Observation o) {
    return new double[] {1, o.tasks(), o.rounds(), o.mebibytes()};
  }

  /**
   * Gaussian elimination with partial pivoting; a singular system (the pilot does not vary) gives
   * NaN.
   */
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
