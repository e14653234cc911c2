package io.corgipile.ml.lasso;

import java.util.Arrays;

/**
 * The products sum x_j x_k of feature pairs computed so far, kept on the driver: they do not change
 * during training, and a priority schedule draws the same few coefficients round after round, so
 * after a while a round's Gram block is mostly known and the tasks compute only the new pairs. An
 * open-addressing map of primitive keys and values, at most {@link #MAX_ENTRIES} pairs (then it
 * stops taking new ones), so its memory is bounded whatever the number of features.
 */
public final class GramCache {
  /**
   * The most pairs kept: 3 x 2^20, in at most 2^22 slots (a load of 3/4): 64 MiB of keys and
   * values.
   */
  static final int MAX_ENTRIES = 3 << 20;

  private static final long EMPTY = -1;

  private long[] keys = new long[1 << 10];
  private double[] values = new double[1 << 10];
  private int size;

  GramCache() {
    Arrays.fill(keys, EMPTY);
  }

  /** The product of features j and k (either order), or NaN when not known. */
  double get(int j, int k) {
    long key = key(j, k);
    for (int at = slot(key, keys.length); ; at = (at + 1) & (keys.length - 1)) {
      if (keys[at] == key) {
        return values[at];
      }
      if (keys[at] == EMPTY) {
        return Double.NaN;
      }
    }
  }

  void put(int j, int k, double product) {
    if (size >= MAX_ENTRIES) {
      return;
    }
    if (4L * (size + 1) > 3L * keys.length) {
      grow();
    }
    insert(key(j, k), product);
  }

  int size() {
    return size;
  }

  private void insert(long key, double value) {
    for (int at = slot(key, keys.length); ; at = (at + 1) & (keys.length - 1)) {
      if (keys[at] == EMPTY) {
        keys[at] = key;
        values[at] = value;
        size++;
        return;
      }
      if (keys[at] == key) {
        values[at] = value;
        return;
      }
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    double[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new double[oldKeys.length * 2];
    Arrays.fill(keys, EMPTY);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        insert(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static long key(int j, int k) {
    return j > k ? ((long) j << 32) | k : ((long) k << 32) | j;
  }

  private static int slot(long key, int length) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h >>> 40) & (length - 1);
  }
}
