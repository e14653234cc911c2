package io.corgipile.ml.sgd;

import io.corgipile.ml.SGDParams;
import io.corgipile.spark.FeatureVector;

/**
 * A linear model under SGD updates in one partition, each update costing O(non-zeros) of its batch.
 * The weights are kept as {@code scale * v}, so L2 shrinks all of them by changing {@code scale}
 * alone; L1 uses the cumulative penalty of Tsuruoka et al. (2009): a weight is clipped at zero by
 * the penalty it has not yet received, which gives exact zeros and touches only the features in the
 * batch.
 *
 * <p>When asked to, it also keeps the mean of its iterates over its pass (Polyak-Ruppert), as
 * {@code (sum + sumScale * v) / iterates}: a change to {@code v_j} moves {@code sum_j} the other
 * way, so the mean too costs O(non-zeros) per update. The mean does not follow the drift a buffer's
 * mix of labels gives the last iterates.
 *
 * <p>Under {@link FeatureScaling} it trains on {@code z = (x - mu) * s}, {@code s = 1 / sigma},
 * without building {@code z}: the scale enters each read of {@code x_j}; the centering makes the
 * gradient {@code d * (s_j x_j - m_j)} ({@code m = mu * s}) dense, so the weights are kept as
 * {@code scale * (v + c * m)} and the dense part moves the scalar {@code c} alone. The margin needs
 * {@code sum_j w_j m_j}, kept as {@code scale * (vm + c * |m|^2)} with {@code vm = sum_j v_j m_j}
 * updated with every move of a {@code v_j}. Centering is never combined with L1 (the driver's
 * {@code FeatureSummary}), whose exact zeros it would move.
 */
public final class LinearSGD implements PartitionSGD {
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

  // standardization: 1 / sigma, or null to train on x as it is; mu / sigma, or null when not
  // centered
  private final double[] inverseStd;
  private final double[] scaledMean;
  private final double scaledMeanNorm2;
  private double c;
  private double vm;

  private final GradientBatch batch;

  /** fitIntercept, read on every update. */
  private final boolean fitIntercept;

  // L1: total penalty per weight so far, and the penalty each weight has received
  private double l1Total;
  private final double[] l1Received;

  private long updates;
  private final long previousUpdates;
  private final int averaged;

  // the iterates' sum, as sum + sumScale * v + cSum * m; null when averaging is off
  private final double[] sum;
  private double sumScale;
  private double cSum;
  private double interceptSum;

  /**
   * @param coefficients the starting weights, owned from now on
   * @param previousUpdates the updates a partition made in earlier passes, for {@code invsqrt}
   * @param averaged the partitions the driver averages every round, for the rate ({@link
   *     StepSchedule#rate})
   * @param averageIterates whether {@link #coefficients()} is the mean of the iterates rather than
   *     the last
   * @param scaling the scaling the coefficients are in, or null for none
   */
  LinearSGD(
      double[] coefficients,
      double intercept,
      SGDConfig config,
      int epoch,
      long previousUpdates,
      int averaged,
      boolean averageIterates,
      FeatureScaling scaling) {
    this.config = config;
    this.epochRate =
        config.schedule().epochRate(config.stepSize(), config.get(SGDParams.DECAY_RATE), epoch);
    this.v = coefficients;
    this.intercept = intercept;
    this.previousUpdates = previousUpdates;
    this.averaged = averaged;
    int n = coefficients.length;
    this.batch = new GradientBatch(n, config.get(SGDParams.BATCH_SIZE));
    this.fitIntercept = config.get(SGDParams.FIT_INTERCEPT);
    this.l1Received = config.l1() > 0 ? new double[n] : null;
    this.sum = averageIterates ? new double[n] : null;
    this.inverseStd = scaling == null ? null : scaling.inverseStd();
    this.scaledMean = scaling == null ? null : scaling.scaledMean();
    this.scaledMeanNorm2 = scaledMean == null ? 0 : dot(scaledMean, scaledMean);
    this.vm = scaledMean == null ? 0 : dot(v, scaledMean);
  }

  private static double dot(double[] a, double[] b) {
    double dot = 0;
    for (int j = 0; j < a.length; j++) {
      dot += a[j] * b[j];
    }
    return dot;
  }

  @Override
  public int numFeatures() {
    return v.length;
  }

  @Override
  public long updates() {
    return updates;
  }

  @Override
  public double margin(FeatureVector x) {
    double[] dense = x.denseValues();
    if (dense != null) {
      return margin(dense);
    }
    double dot = 0;
    if (inverseStd == null) {
      for (int k = 0, n = x.numStored(); k < n; k++) {
        dot += v[x.index(k)] * x.value(k);
      }
      return dot * scale + intercept;
    }
    if (scaledMean == null) {
      for (int k = 0, n = x.numStored(); k < n; k++) {
        int j = x.index(k);
        dot += v[j] * (x.value(k) * inverseStd[j]);
      }
      return dot * scale + intercept;
    }
    double alongMean = 0;
    for (int k = 0, n = x.numStored(); k < n; k++) {
      int j = x.index(k);
      double z = x.value(k) * inverseStd[j];
      dot += v[j] * z;
      alongMean += scaledMean[j] * z;
    }
    return centeredMargin(dot, alongMean);
  }

  /**
   * {@link #margin(FeatureVector)} of a dense row, the same sums in the same order over plain
   * arrays: its loops are the sparse ones', kept apart so the JIT compiles them without an index
   * per value.
   */
  private double margin(double[] x) {
    double dot = 0;
    if (inverseStd == null) {
      for (int j = 0; j < x.length; j++) {
        dot += v[j] * x[j];
      }
      return dot * scale + intercept;
    }
    if (scaledMean == null) {
      for (int j = 0; j < x.length; j++) {
        dot += v[j] * (x[j] * inverseStd[j]);
      }
      return dot * scale + intercept;
    }
    double alongMean = 0;
    for (int j = 0; j < x.length; j++) {
      double z = x[j] * inverseStd[j];
      dot += v[j] * z;
      alongMean += scaledMean[j] * z;
    }
    return centeredMargin(dot, alongMean);
  }

  /** The margin from the centered loops' sums, {@code sum_j v_j z_j} and {@code sum_j m_j z_j}. */
  private double centeredMargin(double dot, double alongMean) {
    return (dot + c * alongMean - (vm + c * scaledMeanNorm2)) * scale + intercept;
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
    if (batch.rows() == 0) {
      return;
    }
    updates++;
    double rate = config.schedule().rate(epochRate, previousUpdates + updates, averaged);
    if (config.l2() > 0) {
      shrink(1 - rate * config.l2());
    }
    double step = rate / batch.rows();
    double movedVm = vm;
    for (int i = 0; i < batch.numTouched(); i++) {
      int j = batch.touched(i);
      movedVm = move(j, -step * batch.sum(j) / scale, movedVm);
    }
    vm = movedVm;
    if (scaledMean
        != null) { // the dense part of the centered gradient, -d * m, summed over the batch
      c += step * batch.interceptSum() / scale;
    }
    if (fitIntercept) {
      intercept -= step * batch.interceptSum();
    }
    if (l1Received != null) {
      l1Total += rate * config.l1();
      for (int i = 0; i < batch.numTouched(); i++) {
        clipL1(batch.touched(i));
      }
    }
    batch.clear();
    if (sum != null) { // add this iterate, scale * (v + c * m), to the sum
      sumScale += scale;
      cSum += scale * c;
      interceptSum += intercept;
    }
    if (scaledMean != null && updates % Math.max(1, v.length) == 0) {
      vm = dot(v, scaledMean); // the rounding vm's increments gather, cleared at O(1) per update
      // amortized
    }
  }

  /**
   * {@code v_j += delta}, keeping the iterates' sum as it was; returns {@code vm} (passed in) after
   * the move. A loop of moves keeps {@code vm} in a local: adding to the field itself chains a
   * store and a load into every step (measured).
   */
  private double move(int j, double delta, double vm) {
    v[j] += delta;
    if (sum != null) {
      sum[j] -= sumScale * delta;
    }
    return scaledMean == null ? vm : vm + delta * scaledMean[j];
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
    c *= scale;
    vm = scaledMean == null ? 0 : dot(v, scaledMean);
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
    vm = move(j, after / scale - v[j], vm);
  }

  /**
   * Under averaging, zero wherever L1 holds the last iterate at zero: a mean of iterates is never
   * exactly zero.
   */
  @Override
  public double[] coefficients() {
    double[] w = new double[v.length];
    for (int j = 0; j < v.length; j++) {
      boolean heldAtZero = l1Received != null && v[j] == 0;
      if (scaledMean != null) {
        w[j] =
            averaged()
                ? (sum[j] + sumScale * v[j] + cSum * scaledMean[j]) / updates
                : scale * (v[j] + c * scaledMean[j]);
      } else {
        w[j] = !averaged() ? scale * v[j] : heldAtZero ? 0 : (sum[j] + sumScale * v[j]) / updates;
      }
    }
    return w;
  }

  @Override
  public double intercept() {
    return averaged() ? interceptSum / updates : intercept;
  }

  @Override
  public double[] squaredGradients() {
    return null;
  }

  private boolean averaged() {
    return sum != null && updates > 0;
  }
}
