package io.corgipile.ml;

import io.corgipile.spark.FeatureVector;

/**
 * A linear model under SGD updates in one partition, each update costing O(non-zeros) of its
 * batch. The weights are kept as {@code scale * v}, so L2 shrinks all of them by changing {@code
 * scale} alone; L1 uses the cumulative penalty of Tsuruoka et al. (2009): a weight is clipped at
 * zero by the penalty it has not yet received, which gives exact zeros and touches only the
 * features in the batch.
 *
 * <p>When asked to, it also keeps the mean of its iterates over its pass (Polyak-Ruppert), as
 * {@code (sum + sumScale * v) / iterates}: a change to {@code v_j} moves {@code sum_j} the other
 * way, so the mean too costs O(non-zeros) per update. The mean does not follow the drift a
 * buffer's mix of labels gives the last iterates.
 */
final class LinearSGD {
  /**
   * Below this, {@code scale} is folded into {@code v}: {@code v} grows as {@code 1 / scale}, and
   * the sum of iterates is a difference of terms that grow with it, so this bounds the digits lost
   * to about three.
   */
  private static final double MIN_SCALE = 1e-3;

  private final SGDConfig config;
  /** The schedule's rate for the whole epoch, before invsqrt's per-update part. */
  private final double epochRate;
  private final double[] v;
  private double scale = 1.0;
  private double intercept;

  // the running batch: gradient sums over the features it touched
  private final double[] gradient;
  private final int[] touched;
  private final boolean[] isTouched;
  private int numTouched;
  private double interceptGradient;
  private int batchRows;

  // L1: total penalty per weight so far, and the penalty each weight has received
  private double l1Total;
  private final double[] l1Received;

  private long updates;
  private final long previousUpdates;
  private final int averaged;

  // the iterates' sum, as sum + sumScale * v; null when averaging is off
  private final double[] sum;
  private double sumScale;
  private double interceptSum;

  /**
   * @param coefficients the starting weights, owned from now on
   * @param previousUpdates the updates a partition made in earlier passes, for {@code invsqrt}
   * @param averaged the partitions the driver averages every round, for the rate ({@link StepSchedule#rate})
   * @param averageIterates whether {@link #coefficients()} is the mean of the iterates rather than the last
   */
  LinearSGD(double[] coefficients, double intercept, SGDConfig config, int epoch, long previousUpdates, int averaged,
      boolean averageIterates) {
    this.config = config;
    this.epochRate = config.schedule().epochRate(config.stepSize(), config.decayRate(), epoch);
    this.v = coefficients;
    this.intercept = intercept;
    this.previousUpdates = previousUpdates;
    this.averaged = averaged;
    int n = coefficients.length;
    this.gradient = new double[n];
    this.touched = new int[n];
    this.isTouched = new boolean[n];
    this.l1Received = config.l1() > 0 ? new double[n] : null;
    this.sum = averageIterates ? new double[n] : null;
  }

  int numFeatures() {
    return v.length;
  }

  long updates() {
    return updates;
  }

  double margin(FeatureVector x) {
    double dot = 0;
    for (int k = 0, n = x.numStored(); k < n; k++) {
      dot += v[x.index(k)] * x.value(k);
    }
    return dot * scale + intercept;
  }

  /** Adds one row's gradient, {@code derivative * x}, to the batch. */
  void accumulate(FeatureVector x, double derivative) {
    for (int k = 0, n = x.numStored(); k < n; k++) {
      double value = x.value(k);
      if (value == 0) {
        continue; // a dense zero is an absent feature, so dense and sparse rows train alike
      }
      int j = x.index(k);
      gradient[j] += derivative * value;
      if (!isTouched[j]) {
        isTouched[j] = true;
        touched[numTouched++] = j;
      }
    }
    interceptGradient += derivative;
    batchRows++;
  }

  boolean batchFull() {
    return batchRows >= config.batchSize();
  }

  /** Applies the batch's mean gradient and the regularization, and starts a new batch. */
  void update() {
    if (batchRows == 0) {
      return;
    }
    updates++;
    double rate = config.schedule().rate(epochRate, previousUpdates + updates, averaged);
    if (config.l2() > 0) {
      shrink(1 - rate * config.l2());
    }
    double step = rate / batchRows;
    for (int i = 0; i < numTouched; i++) {
      int j = touched[i];
      move(j, -step * gradient[j] / scale);
      gradient[j] = 0;
    }
    if (config.fitIntercept()) {
      intercept -= step * interceptGradient;
    }
    if (l1Received != null) {
      l1Total += rate * config.l1();
      for (int i = 0; i < numTouched; i++) {
        clipL1(touched[i]);
      }
    }
    for (int i = 0; i < numTouched; i++) {
      isTouched[touched[i]] = false;
    }
    numTouched = 0;
    interceptGradient = 0;
    batchRows = 0;
    if (sum != null) { // add this iterate, scale * v, to the sum
      sumScale += scale;
      interceptSum += intercept;
    }
  }

  /** {@code v_j += delta}, keeping the iterates' sum as it was. */
  private void move(int j, double delta) {
    v[j] += delta;
    if (sum != null) {
      sum[j] -= sumScale * delta;
    }
  }

  private void shrink(double factor) {
    scale *= Math.max(factor, 0); // a factor <= 0: the step wipes the weights out entirely
    if (scale < MIN_SCALE) {
      fold();
    }
  }

  /** Moves {@code scale} into {@code v}, and the iterates' sum into {@code sum}, exactly. */
  private void fold() {
    for (int j = 0; j < v.length; j++) {
      if (sum != null) {
        sum[j] += sumScale * v[j];
      }
      v[j] *= scale;
    }
    sumScale = 0;
    scale = 1.0;
  }

  private void clipL1(int j) {
    double before = scale * v[j];
    double after = before;
    if (before > 0) {
      after = Math.max(0, before - (l1Total + l1Received[j]));
    } else if (before < 0) {
      after = Math.min(0, before + (l1Total - l1Received[j]));
    }
    l1Received[j] += after - before;
    move(j, after / scale - v[j]);
  }

  /**
   * The weights as plain coefficients: with averaging, the mean of the iterates so far, zero
   * wherever L1 holds the last iterate at zero (a mean of iterates is never exactly zero).
   */
  double[] coefficients() {
    double[] w = new double[v.length];
    for (int j = 0; j < v.length; j++) {
      boolean heldAtZero = l1Received != null && v[j] == 0;
      w[j] = !averaged() ? scale * v[j] : heldAtZero ? 0 : (sum[j] + sumScale * v[j]) / updates;
    }
    return w;
  }

  double intercept() {
    return averaged() ? interceptSum / updates : intercept;
  }

  private boolean averaged() {
    return sum != null && updates > 0;
  }
}
