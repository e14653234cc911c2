package io.corgipile.ml.sgd;

import io.corgipile.ml.SGDParams;
import io.corgipile.spark.FeatureVector;

/**
 * A linear model under AdaGrad updates in one partition ({@code stepSchedule=adagrad}): coordinate
 * j moves by {@code stepSize / sqrt(G_j)} times its batch gradient, {@code G_j} the sum of its
 * squared batch gradients so far. The sums travel with the model from round to round (the driver
 * keeps the mean of the partitions'), so the rates keep falling over the whole fit; features that
 * are rare or small keep large steps while frequent ones settle.
 *
 * <p>An update costs O(non-zeros): a coordinate's rate changes only when it has a gradient, so what
 * the regularization does to it between two of its updates is applied in one go when it is next
 * read ({@link #catchUp}): L2 as {@code (1 - rate * l2)^k}, L1 by the cumulative penalty of
 * Tsuruoka et al. (2009), as {@link LinearSGD}, each coordinate owed {@code rate * l1} per update
 * at its own rate (exact zeros), and with averaging the sum of its iterates over those updates is
 * added in closed form (exact without L1; with L1 the clipped updates count at the value they end
 * on). Under centering the gradient is dense ({@code d * (s_j x_j - m_j)}), so every coordinate is
 * updated every time: O(n) per update on rows that are at least half non-zero.
 */
public final class AdaGradSGD implements PartitionSGD {
  private final SGDConfig config;
  private final double[] w;
  private final double[] squares;

  /** The update after which {@code w[j]} (and {@code sum[j]}) are current. */
  private final long[] current;

  private double intercept;
  private double interceptSquares;

  // L1: the penalty each coordinate is owed so far, and what it has received
  private final double[] l1Total;
  private final double[] l1Received;

  private final double[] inverseStd;
  private final double[] scaledMean;

  private final GradientBatch batch;

  /** fitIntercept, read on every update. */
  private final boolean fitIntercept;

  private long updates;

  // the iterates' sums, up to each coordinate's current update; null when averaging is off
  private final double[] sum;
  private double interceptSum;

  /**
   * @param coefficients the starting weights, owned from now on
   * @param squaredGradients the sums so far, the intercept's last; null for none yet
   * @param averageIterates whether {@link #coefficients()} is the mean of the iterates rather than
   *     the last
   * @param scaling the scaling the coefficients are in, or null for none
   */
  AdaGradSGD(
      double[] coefficients,
      double intercept,
      double[] squaredGradients,
      SGDConfig config,
      boolean averageIterates,
      FeatureScaling scaling) {
    int n = coefficients.length;
    this.config = config;
    this.w = coefficients;
    this.intercept = intercept;
    this.squares = new double[n];
    if (squaredGradients != null) {
      System.arraycopy(squaredGradients, 0, squares, 0, n);
      this.interceptSquares = squaredGradients[n];
    }
    this.current = new long[n];
    this.l1Total = config.l1() > 0 ? new double[n] : null;
    this.l1Received = config.l1() > 0 ? new double[n] : null;
    this.inverseStd = scaling == null ? null : scaling.inverseStd();
    this.scaledMean = scaling == null ? null : scaling.scaledMean();
    this.batch = new GradientBatch(n, config.get(SGDParams.BATCH_SIZE));
    this.fitIntercept = config.get(SGDParams.FIT_INTERCEPT);
    this.sum = averageIterates ? new double[n] : null;
  }

  @Override
  public int numFeatures() {
    return w.length;
  }

  @Override
  public long updates() {
    return updates;
  }

  /** Coordinate j's rate now; 0 before its first gradient, when nothing has moved it. */
  private double rate(double squaredSum) {
    return squaredSum > 0 ? config.stepSize() / Math.sqrt(squaredSum) : 0;
  }

  /** Feature j's {@code value} as training sees it, without the centering. */
  private double scaled(double value, int j) {
    return inverseStd == null ? value : value * inverseStd[j];
  }

  @Override
  public double margin(FeatureVector x) {
    double dot = 0;
    double[] dense = x.denseValues();
    if (dense
        != null) { // the sparse loop's sum, kept apart: over a plain array, without an index per
      // value
      for (int j = 0; j < dense.length; j++) {
        catchUp(j, updates);
        dot += w[j] * scaled(dense[j], j);
      }
    } else {
      for (int k = 0, n = x.numStored(); k < n; k++) {
        int j = x.index(k);
        catchUp(j, updates);
        dot += w[j] * scaled(x.value(k), j);
      }
    }
    if (scaledMean != null) {
      for (int j = 0; j < w.length; j++) {
        dot -= w[j] * scaledMean[j]; // every coordinate is current under centering
      }
    }
    return dot + intercept;
  }

  @Override
  public void accumulate(FeatureVector x, double derivative) {
    batch.add(x, derivative, inverseStd);
  }

  @Override
  public boolean batchFull() {
    return batch.full();
  }

  @Override
  public void update() {
    int rows = batch.rows();
    if (rows == 0) {
      return;
    }
    updates++;
    if (scaledMean != null) { // the centered gradient moves every coordinate
      for (int j = 0; j < w.length; j++) {
        step(j, (batch.sum(j) - batch.interceptSum() * scaledMean[j]) / rows);
      }
    } else {
      for (int i = 0; i < batch.numTouched(); i++) {
        int j = batch.touched(i);
        step(j, batch.sum(j) / rows);
      }
    }
    if (fitIntercept) {
      double g = batch.interceptSum() / rows;
      interceptSquares += g * g;
      intercept -= rate(interceptSquares) * g;
    }
    batch.clear();
    if (sum != null) {
      interceptSum += intercept;
    }
  }

  /** This update of coordinate j with mean gradient {@code g}, after the updates it missed. */
  private void step(int j, double g) {
    catchUp(j, updates - 1);
    squares[j] += g * g;
    double rate = rate(squares[j]);
    w[j] -= rate * g;
    regularize(j, rate, 1);
    current[j] = updates;
    if (sum != null) {
      sum[j] += w[j];
    }
  }

  /**
   * Coordinate j after {@code k} updates' regularization at {@code rate}: L2's shrink, then L1's
   * clip.
   */
  private void regularize(int j, double rate, long k) {
    if (config.l2() > 0) {
      w[j] *= Math.pow(Math.max(0, 1 - rate * config.l2()), k);
    }
    if (l1Total != null) {
      l1Total[j] += k * rate * config.l1();
      double before = w[j];
      double after =
          before > 0
              ? Math.max(0, before - (l1Total[j] + l1Received[j]))
              : before < 0 ? Math.min(0, before + (l1Total[j] - l1Received[j])) : 0;
      l1Received[j] += after - before;
      w[j] = after;
    }
  }

  /**
   * Brings coordinate j to update {@code to}: the regularization of the updates it had no gradient
   * in.
   */
  private void catchUp(int j, long to) {
    long k = to - current[j];
    if (k <= 0) {
      return;
    }
    current[j] = to;
    double before = w[j];
    double rate = rate(squares[j]);
    if (rate == 0 || config.l1() == 0 && config.l2() == 0) {
      if (sum != null) {
        sum[j] += k * before; // unchanged through the k updates
      }
      return;
    }
    regularize(j, rate, k);
    if (sum != null) {
      double f = Math.max(0, 1 - rate * config.l2());
      sum[j] +=
          config.l1() > 0
              ? k * w[j] // the clipped updates, at the value they end on
              : f == 1
                  ? k * before
                  : before * f * (1 - Math.pow(f, k)) / (1 - f); // L2's geometric series
    }
  }

  @Override
  public double[] coefficients() {
    double[] out = new double[w.length];
    for (int j = 0; j < w.length; j++) {
      catchUp(j, updates);
      boolean heldAtZero = config.l1() > 0 && w[j] == 0;
      out[j] = sum == null || updates == 0 ? w[j] : heldAtZero ? 0 : sum[j] / updates;
    }
    return out;
  }

  @Override
  public double intercept() {
    return sum == null || updates == 0 ? intercept : interceptSum / updates;
  }

  @Override
  public double[] squaredGradients() {
    double[] out = new double[w.length + 1];
    System.arraycopy(squares, 0, out, 0, w.length);
    out[w.length] = interceptSquares;
    return out;
  }
}
