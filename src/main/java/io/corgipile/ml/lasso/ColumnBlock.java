package io.corgipile.ml.lasso;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;

/**
 * One partition's training rows stored by column, as coordinate descent reads them: a coefficient's
 * update needs its feature's column against the residuals. A column with at most half of its values
 * non-zero keeps only those (row, value) pairs, so sparse features cost their non-zeros; a denser
 * one is a plain array.
 */
public final class ColumnBlock implements Serializable {
  private static final long serialVersionUID = 1L;

  final int partition;
  final double[] labels;

  /** Per feature: the rows of its non-zero values, or null when the column is stored dense. */
  private final int[][] rows;

  /** Per feature: its non-zero values (with {@link #rows}) or every row's value. */
  private final double[][] values;

  private ColumnBlock(int partition, double[] labels, int[][] rows, double[][] values) {
    this.partition = partition;
    this.labels = labels;
    this.rows = rows;
    this.values = values;
  }

  int numRows() {
    return labels.length;
  }

  /** The features of this partition's rows; 0 for a partition without rows. */
  int numFeatures() {
    return values.length;
  }

  /**
   * Reads rows of (label, features vector), checking every value.
   *
   * @param errors names the columns in the errors of a bad row
   */
  static ColumnBlock of(int partition, Iterator<Row> it, LassoDataErrors errors) {
    List<Vector> features = new ArrayList<>();
    double[] labels = new double[16];
    int n = 0;
    int numFeatures = -1;
    while (it.hasNext()) {
      Row row = it.next();
      if (row.isNullAt(0)) {
        throw errors.nullLabel();
      }
      if (row.isNullAt(1)) {
        throw errors.nullFeatures();
      }
      double label = row.getDouble(0);
      if (!Double.isFinite(label)) {
        throw errors.label(label);
      }
      Vector x = row.getAs(1);
      if (numFeatures < 0) {
        numFeatures = x.size();
      } else if (x.size() != numFeatures) {
        throw errors.sizes(x.size(), numFeatures);
      }
      if (n == labels.length) {
        labels = java.util.Arrays.copyOf(labels, 2 * n);
      }
      labels[n++] = label;
      features.add(x);
    }
    return byColumn(
        partition, java.util.Arrays.copyOf(labels, n), features, Math.max(numFeatures, 0), errors);
  }

  private static ColumnBlock byColumn(
      int partition,
      double[] labels,
      List<Vector> features,
      int numFeatures,
      LassoDataErrors errors) {
    int n = labels.length;
    int[] nonZeros = new int[numFeatures];
    for (Vector x : features) {
      double[] v = x instanceof SparseVector s ? s.values() : ((DenseVector) x).values();
      int[] idx = x instanceof SparseVector s ? s.indices() : null;
      for (int k = 0; k < v.length; k++) {
        int j = idx == null ? k : idx[k];
        if (!Double.isFinite(v[k])) {
          throw errors.feature(j, v[k]);
        }
        if (v[k] != 0) {
          nonZeros[j]++;
        }
      }
    }
    int[][] rows = new int[numFeatures][];
    double[][] values = new double[numFeatures][];
    int[] filled = new int[numFeatures];
    for (int j = 0; j < numFeatures; j++) {
      boolean dense = 2L * nonZeros[j] > n;
      rows[j] = dense ? null : new int[nonZeros[j]];
      values[j] = new double[dense ? n : nonZeros[j]];
    }
    for (int i = 0; i < n; i++) {
      Vector x = features.get(i);
      if (x instanceof DenseVector d) {
        double[] v = d.values();
        for (int j = 0; j < v.length; j++) {
          put(rows, values, filled, i, j, v[j]);
        }
      } else {
        SparseVector s = (SparseVector) x;
        int[] idx = s.indices();
        double[] v = s.values();
        for (int k = 0; k < idx.length; k++) {
          put(rows, values, filled, i, idx[k], v[k]);
        }
      }
    }
    return new ColumnBlock(partition, labels, rows, values);
  }

  private static void put(
      int[][] rows, double[][] values, int[] filled, int i, int j, double value) {
    if (rows[j] == null) {
      values[j][i] = value;
    } else if (value != 0) {
      rows[j][filled[j]] = i;
      values[j][filled[j]++] = value;
    }
  }

  /** Sum over rows of feature j times {@code v}. */
  double dot(int j, double[] v) {
    double[] x = values[j];
    int[] at = rows[j];
    if (at == null) {
      return DensePairProducts.dot(x, v, 0, x.length);
    }
    double sum = 0;
    for (int k = 0; k < at.length; k++) {
      sum += x[k] * v[at[k]];
    }
    return sum;
  }

  /**
   * Sum over rows of x_a x_b for each asked pair of {@code features}: pair i is ({@code
   * features[pairs[2i]]}, {@code features[pairs[2i + 1]]}), grouped by the first, each group's
   * second positions ascending. Two dense columns by chunks of rows ({@link DensePairProducts}); a
   * sparse one against a dense one over its non-zeros; two sparse ones through the first scattered
   * into a dense array.
   */
  void pairProducts(int[] features, int[] pairs, double[] out) {
    int n = numRows();
    int count = pairs.length / 2;
    int dense = 0;
    int[] first = new int[count];
    int[] second = new int[count];
    int[] slot = new int[count];
    for (int i = 0; i < count; i++) {
      if (rows[features[pairs[2 * i]]] == null && rows[features[pairs[2 * i + 1]]] == null) {
        first[dense] = pairs[2 * i];
        second[dense] = pairs[2 * i + 1];
        slot[dense++] = i;
      }
    }
    DensePairProducts.plan(
            features,
            Arrays.copyOf(first, dense),
            Arrays.copyOf(second, dense),
            Arrays.copyOf(slot, dense))
        .addTo(values, n, out);
    double[] column = null;
    for (int i = 0; i < count; ) {
      int a = features[pairs[2 * i]];
      boolean scattered = false;
      for (; i < count && features[pairs[2 * i]] == a; i++) {
        int b = features[pairs[2 * i + 1]];
        if (rows[a] == null && rows[b] == null) {
          continue;
        } else if (rows[a] == null || rows[b] == null) {
          out[i] = rows[a] == null ? dot(b, values[a]) : dot(a, values[b]);
        } else {
          if (!scattered) {
            column = column == null ? new double[n] : column;
            scatter(a, column);
            scattered = true;
          }
          out[i] = dot(b, column);
        }
      }
      if (scattered) {
        clear(a, column);
      }
    }
  }

  /** {@code v += a * feature j}. */
  void addTo(double[] v, int j, double a) {
    double[] x = values[j];
    int[] at = rows[j];
    if (at == null) {
      for (int i = 0; i < x.length; i++) {
        v[i] += a * x[i];
      }
    } else {
      for (int k = 0; k < at.length; k++) {
        v[at[k]] += a * x[k];
      }
    }
  }

  /** Writes feature j into {@code v} (all zeros on entry), for products with other features. */
  private void scatter(int j, double[] v) {
    addTo(v, j, 1.0);
  }

  /** Undoes {@link #scatter}: zeros {@code v} where feature j wrote. */
  private void clear(int j, double[] v) {
    if (rows[j] == null) {
      Arrays.fill(v, 0.0);
    } else {
      for (int i : rows[j]) {
        v[i] = 0.0;
      }
    }
  }

  /** This partition's moments: of every feature, then of the label. */
  FeatureMoments moments() {
    int p = numFeatures();
    int n = numRows();
    double[] mean = new double[p + 1];
    double[] m2 = new double[p + 1];
    for (int j = 0; j <= p && n > 0; j++) {
      // a sparse column's values leave out its zeros, each of which deviates by the mean
      double[] x = j < p ? values[j] : labels;
      double sum = 0;
      for (double v : x) {
        sum += v;
      }
      double mu = sum / n;
      double ss = (double) (n - x.length) * mu * mu;
      for (double v : x) {
        ss += (v - mu) * (v - mu);
      }
      mean[j] = mu;
      m2[j] = ss;
    }
    return FeatureMoments.of(partition, n, mean, m2);
  }
}
