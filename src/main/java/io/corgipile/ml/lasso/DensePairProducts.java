package io.corgipile.ml.lasso;

import java.util.Arrays;

/**
 * Products sum x_a x_b of pairs of dense columns, by chunks of rows. Two columns a and a' whose
 * pair lists share a second column b (consecutive candidates share all earlier ones) are multiplied
 * with four shared b's at once: each row loads 6 values for 8 products, where pair by pair it loads
 * 2 for 1, and the 8 sums run in parallel. The plan depends only on the pairs, so every partition
 * adds its rows in the same order, chunk after chunk.
 */
final class DensePairProducts {
  /**
   * Rows per chunk: a chunk of each of up to 1,024 candidate columns (2 KiB each) stays in a core's
   * cache while every pair reads it, where whole columns streamed from memory once per pair.
   */
  static final int CHUNK_ROWS = 256;

  /** Per block of 8 products: first columns a, a', second columns b0..b3, then 8 output slots. */
  private static final int BLOCK = 14;

  /** Blocks of 2 x 4 products. */
  private final int[] blocks;

  /** The other pairs: first column, second column, output slot. */
  private final int[] singles;

  private DensePairProducts(int[] blocks, int[] singles) {
    this.blocks = blocks;
    this.singles = singles;
  }

  /**
   * The plan for the pairs of columns {@code (features[first[i]], features[second[i]])} into slot
   * {@code slot[i]}: positions in {@code features}, grouped by first, each group's seconds
   * ascending.
   */
  static DensePairProducts plan(int[] features, int[] first, int[] second, int[] slot) {
    IntList blocks = new IntList();
    IntList singles = new IntList();
    int count = first.length;
    int at = 0;
    while (at < count) {
      int end = groupEnd(first, at);
      if (end == count) {
        for (int i = at; i < end; i++) {
          singles.add(features[first[i]], features[second[i]], slot[i]);
        }
        break;
      }
      int next = groupEnd(first, end);
      // merge the two groups' second columns (both in rank order): shared ones by fours
      int[] shared = new int[2 * Math.min(end - at, next - end)];
      int sharedCount = 0;
      int i = at;
      int k = end;
      while (i < end || k < next) {
        if (i < end && k < next && second[i] == second[k]) {
          shared[2 * sharedCount] = i++;
          shared[2 * sharedCount++ + 1] = k++;
        } else if (k == next || (i < end && second[i] < second[k])) {
          singles.add(features[first[i]], features[second[i]], slot[i]);
          i++;
        } else {
          singles.add(features[first[k]], features[second[k]], slot[k]);
          k++;
        }
      }
      int s = 0;
      for (; s + 3 < sharedCount; s += 4) {
        blocks.add(features[first[at]], features[first[end]]);
        for (int q = 0; q < 4; q++) {
          blocks.add(features[second[shared[2 * (s + q)]]]);
        }
        for (int q = 0; q < 4; q++) {
          blocks.add(slot[shared[2 * (s + q)]]);
        }
        for (int q = 0; q < 4; q++) {
          blocks.add(slot[shared[2 * (s + q) + 1]]);
        }
      }
      for (; s < sharedCount; s++) {
        int a = shared[2 * s];
        int b = shared[2 * s + 1];
        singles.add(features[first[a]], features[second[a]], slot[a]);
        singles.add(features[first[b]], features[second[b]], slot[b]);
      }
      at = next;
    }
    return new DensePairProducts(blocks.toArray(), singles.toArray());
  }

  /** Adds every planned pair's products over rows [0, n) of {@code columns} to {@code out}. */
  void addTo(double[][] columns, int n, double[] out) {
    for (int from = 0; from < n; from += CHUNK_ROWS) {
      int to = Math.min(n, from + CHUNK_ROWS);
      for (int b = 0; b < blocks.length; b += BLOCK) {
        block(columns, blocks, b, from, to, out);
      }
      for (int s = 0; s < singles.length; s += 3) {
        out[singles[s + 2]] += dot(columns[singles[s]], columns[singles[s + 1]], from, to);
      }
    }
  }

  private static int groupEnd(int[] first, int at) {
    int end = at + 1;
    while (end < first.length && first[end] == first[at]) {
      end++;
    }
    return end;
  }

  /** The 8 products of one planned block over rows [from, to). */
  private static void block(
      double[][] columns, int[] plan, int at, int from, int to, double[] out) {
    double[] x0 = columns[plan[at]];
    double[] x1 = columns[plan[at + 1]];
    double[] y0 = columns[plan[at + 2]];
    double[] y1 = columns[plan[at + 3]];
    double[] y2 = columns[plan[at + 4]];
    double[] y3 = columns[plan[at + 5]];
    double a0 = 0;
    double a1 = 0;
    double a2 = 0;
    double a3 = 0;
    double b0 = 0;
    double b1 = 0;
    double b2 = 0;
    double b3 = 0;
    for (int i = from; i < to; i++) {
      double u = x0[i];
      double v = x1[i];
      double w0 = y0[i];
      double w1 = y1[i];
      double w2 = y2[i];
      double w3 = y3[i];
      a0 += u * w0;
      a1 += u * w1;
      a2 += u * w2;
      a3 += u * w3;
      b0 += v * w0;
      b1 += v * w1;
      b2 += v * w2;
      b3 += v * w3;
    }
    out[plan[at + 6]] += a0;
    out[plan[at + 7]] += a1;
    out[plan[at + 8]] += a2;
    out[plan[at + 9]] += a3;
    out[plan[at + 10]] += b0;
    out[plan[at + 11]] += b1;
    out[plan[at + 12]] += b2;
    out[plan[at + 13]] += b3;
  }

  /** Sum of x[i] y[i] over rows [from, to), in four chains added in a fixed order. */
  static double dot(double[] x, double[] y, int from, int to) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int i = from;
    for (; i + 3 < to; i += 4) {
      s0 += x[i] * y[i];
      s1 += x[i + 1] * y[i + 1];
      s2 += x[i + 2] * y[i + 2];
      s3 += x[i + 3] * y[i + 3];
    }
    for (; i < to; i++) {
      s0 += x[i] * y[i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /** A growable int array. */
  private static final class IntList {
    private int[] values = new int[64];
    private int size;

    void add(int... more) {
      if (size + more.length > values.length) {
        values = Arrays.copyOf(values, Math.max(2 * values.length, size + more.length));
      }
      System.arraycopy(more, 0, values, size, more.length);
      size += more.length;
    }

    int[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
