package io.corgipile.ml.sync;

import java.io.Serializable;

/**
 * Partition models averaged coordinate by coordinate, each over the partitions that moved it in the
 * round, by their weight sums. A plain mean would divide a sparse feature's update by every
 * partition, though only the few whose rows hold it moved it: with 128 partitions and features each
 * in a few rows, such a model hardly moves from its start. Where every partition moves every
 * coordinate (dense features) it is the plain weighted mean, bit for bit, summed in the order
 * added.
 */
public final class CoordinateMean implements Serializable {
  private static final long serialVersionUID = 1L;

  private final double[] sum;
  private final double[] weight;

  CoordinateMean(int size) {
    this.sum = new double[size];
    this.weight = new double[size];
  }

  int size() {
    return sum.length;
  }

  /**
   * Adds coordinates {@code [from, from + values.length)} of one partition's model, where it moved.
   *
   * @param moved bit i set where {@code values[i]} differs from the round's start
   */
  void add(double[] values, long[] moved, double w, int from) {
    for (int i = 0; i < values.length; i++) {
      if ((moved[i >>> 6] & (1L << i)) != 0) {
        sum[from + i] += w * values[i];
        weight[from + i] += w;
      }
    }
  }

  /**
   * Bit i set where {@code model[from + i]} differs from {@code start} (null: zeros), for i below
   * {@code length}.
   */
  static long[] moved(double[] model, double[] start, int from, int length) {
    long[] bits = new long[(length + 63) >>> 6];
    for (int i = 0; i < length; i++) {
      double s = start == null ? 0 : start[from + i];
      if (Double.doubleToRawLongBits(model[from + i]) != Double.doubleToRawLongBits(s)) {
        bits[i >>> 6] |= 1L << i;
      }
    }
    return bits;
  }

  /** Copies coordinates {@code [from, from + other.size())} of {@code other} into this one. */
  void put(CoordinateMean other, int from) {
    System.arraycopy(other.sum, 0, sum, from, other.sum.length);
    System.arraycopy(other.weight, 0, weight, from, other.weight.length);
  }

  /** The mean; the start (null: zeros) where no partition moved a coordinate. */
  double[] mean(double[] start) {
    double[] mean = new double[sum.length];
    for (int j = 0; j < mean.length; j++) {
      mean[j] = weight[j] > 0 ? sum[j] / weight[j] : start == null ? 0 : start[j];
    }
    return mean;
  }
}
