package io.corgipile.ml.sgd;

import io.corgipile.spark.FeatureVector;

/**
 * The running batch of one linear model's SGD: its rows' gradient sums, kept only for the features
 * they touched, so adding a row and clearing the batch cost O(non-zeros).
 */
public final class GradientBatch {
  private final int batchSize;
  private final double[] sums;
  private final int[] touched;
  private final boolean[] isTouched;
  private int numTouched;
  private double interceptSum;
  private int rows;

  GradientBatch(int numFeatures, int batchSize) {
    this.batchSize = batchSize;
    this.sums = new double[numFeatures];
    this.touched = new int[numFeatures];
    this.isTouched = new boolean[numFeatures];
  }

  /**
   * Adds one row's gradient, {@code derivative * x} (each value times {@code inverseStd}, when not
   * null); a dense zero counts as an absent feature, so dense and sparse rows train alike.
   */
  void add(FeatureVector x, double derivative, double[] inverseStd) {
    double[] dense = x.denseValues();
    if (dense != null) { // a plain array loop: no index or row read per value
      for (int j = 0; j < dense.length; j++) {
        add(j, dense[j], derivative, inverseStd);
      }
    } else {
      for (int k = 0, n = x.numStored(); k < n; k++) {
        add(x.index(k), x.value(k), derivative, inverseStd);
      }
    }
    interceptSum += derivative;
    rows++;
  }

  /** Adds stored value {@code value} of feature j. */
  private void add(int j, double value, double derivative, double[] inverseStd) {
    if (value == 0) {
      return;
    }
    sums[j] += derivative * (inverseStd == null ? value : value * inverseStd[j]);
    if (!isTouched[j]) {
      isTouched[j] = true;
      touched[numTouched++] = j;
    }
  }

  int rows() {
    return rows;
  }

  boolean full() {
    return rows >= batchSize;
  }

  /** The features the batch's rows touched: {@code touched(0 .. numTouched() - 1)}. */
  int numTouched() {
    return numTouched;
  }

  int touched(int i) {
    return touched[i];
  }

  /** Coordinate j's gradient summed over the batch; 0 where no row touched it. */
  double sum(int j) {
    return sums[j];
  }

  /** The derivatives summed over the batch: the intercept's gradient. */
  double interceptSum() {
    return interceptSum;
  }

  /** Empties the batch for the next rows. */
  void clear() {
    for (int i = 0; i < numTouched; i++) {
      sums[touched[i]] = 0;
      isTouched[touched[i]] = false;
    }
    numTouched = 0;
    interceptSum = 0;
    rows = 0;
  }
}
