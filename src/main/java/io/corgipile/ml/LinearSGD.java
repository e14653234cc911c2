package io.corgipile.ml;

/**
 * A linear model under SGD updates in one partition, each update costing O(non-zeros) of its
 * batch. The weights are kept as {@code scale * v}, so L2 shrinks all of them by changing {@code
 * scale} alone; L1 uses the cumulative penalty of Tsuruoka et al. (2009): a weight is clipped at
 * zero by the penalty it has not yet received, which gives exact zeros and touches only the
 * features in the batch.
 */
final class LinearSGD {
  /** Below this, {@code scale} is folded into {@code v} to keep precision. */
  private static final double MIN_SCALE = 1e-9;

  private final SGDConfig config;
  private final int epoch;
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

  /**
   * @param coefficients the starting weights, owned from now on
   * @param previousUpdates the updates a partition made in earlier epochs, for {@code invsqrt}
   */
  LinearSGD(double[] coefficients, double intercept, SGDConfig config, int epoch, long previousUpdates) {
    this.config = config;
    this.epoch = epoch;
    this.v = coefficients;
    this.intercept = intercept;
    this.previousUpdates = previousUpdates;
    int n = coefficients.length;
    this.gradient = new double[n];
    this.touched = new int[n];
    this.isTouched = new boolean[n];
    this.l1Received = config.l1() > 0 ? new double[n] : null;
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
    double rate = config.schedule().rate(config.stepSize(), config.decayRate(), epoch, previousUpdates + updates);
    if (config.l2() > 0) {
      shrink(1 - rate * config.l2());
    }
    double step = rate / batchRows;
    for (int i = 0; i < numTouched; i++) {
      int j = touched[i];
      v[j] -= step * gradient[j] / scale;
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
  }

  private void shrink(double factor) {
    if (factor <= MIN_SCALE) {
      java.util.Arrays.fill(v, 0); // the step wipes the weights out entirely
      scale = 1.0;
      return;
    }
    scale *= factor;
    if (scale < MIN_SCALE) {
      for (int j = 0; j < v.length; j++) {
        v[j] *= scale;
      }
      scale = 1.0;
    }
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
    v[j] = after / scale;
  }

  /** The weights as plain coefficients. */
  double[] coefficients() {
    double[] w = new double[v.length];
    for (int j = 0; j < v.length; j++) {
      w[j] = scale * v[j];
    }
    return w;
  }

  double intercept() {
    return intercept;
  }
}
