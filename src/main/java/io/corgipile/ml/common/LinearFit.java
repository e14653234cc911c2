package io.corgipile.ml.common;

import io.corgipile.ml.SGDTrainingSummary;
import java.io.Serializable;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;

/**
 * What training made, held by both SGD models: the coefficients and intercepts of one linear model
 * per margin (one, or one per class for a multinomial classifier), and how training went. The
 * coefficients are kept as one vector, the margins' one after the other: the rows of {@link
 * #coefficientMatrix()}.
 */
public final class LinearFit implements Serializable {
  private static final long serialVersionUID = 2L;

  private final Vector coefficients;

  /** The coefficients as an array, for predictions: the vector's own when it is dense. */
  private final double[] weights;

  private final double[] intercepts;

  /** In memory only: not saved, and not shipped to executors with the model. */
  private final transient SGDTrainingSummary summary;

  private LinearFit(Vector coefficients, double[] intercepts, SGDTrainingSummary summary) {
    if (coefficients.size() % intercepts.length != 0) {
      throw new IllegalArgumentException(
          "Cannot make a linear model of "
              + intercepts.length
              + " intercepts from "
              + coefficients.size()
              + " coefficients: they must be a multiple of the intercepts");
    }
    this.coefficients = coefficients;
    this.weights = coefficients.toArray();
    this.intercepts = intercepts;
    this.summary = summary;
  }

  /**
   * What training made: dense coefficients, the margins' one after the other, with the summary of
   * how it went.
   */
  public static LinearFit trained(
      double[] coefficients, double[] intercepts, SGDTrainingSummary summary) {
    return new LinearFit(Vectors.dense(coefficients), intercepts.clone(), summary);
  }

  /** A model of one margin made or loaded from its coefficients, without a training summary. */
  public static LinearFit of(Vector coefficients, double intercept) {
    return new LinearFit(coefficients, new double[] {intercept}, null);
  }

  /**
   * A model made or loaded from a matrix of one row per margin, without a training summary: one row
   * is a binary model, several a multinomial one.
   */
  public static LinearFit of(Matrix coefficientMatrix, Vector interceptVector) {
    if (coefficientMatrix.numRows() != interceptVector.size()) {
      throw new IllegalArgumentException(
          "Cannot make a linear model from a coefficient matrix of "
              + coefficientMatrix.numRows()
              + " rows and "
              + interceptVector.size()
              + " intercepts: it needs one intercept per row");
    }
    int k = coefficientMatrix.numRows();
    int n = coefficientMatrix.numCols();
    double[] w = new double[k * n];
    for (int i = 0; i < k; i++) {
      for (int j = 0; j < n; j++) {
        w[i * n + j] = coefficientMatrix.apply(i, j);
      }
    }
    return new LinearFit(Vectors.dense(w), interceptVector.toArray().clone(), null);
  }

  /** {@code w}, the rows of a matrix one after the other, as that matrix. */
  public static Matrix matrix(double[] w, int rows) {
    return new DenseMatrix(rows, w.length / rows, w.clone(), true);
  }

  /** The linear models side by side: more than one for a multinomial classifier. */
  public int numMargins() {
    return intercepts.length;
  }

  public boolean multinomial() {
    return numMargins() > 1;
  }

  /**
   * The one margin's coefficients; fails for a multinomial model, as {@code
   * LogisticRegressionModel} does.
   */
  public Vector coefficients(String uid) {
    if (multinomial()) {
      throw new IllegalStateException(
          "Cannot get the coefficients of "
              + uid
              + ": a multinomial model has a"
              + " matrix of them, one row per class; use coefficientMatrix and interceptVector");
    }
    return coefficients;
  }

  /** The one margin's intercept; fails for a multinomial model. */
  public double intercept(String uid) {
    coefficients(uid);
    return intercepts[0];
  }

  /** One row of coefficients per margin. */
  public Matrix coefficientMatrix() {
    return matrix(coefficients.toArray(), numMargins());
  }

  /** One intercept per margin. */
  public Vector interceptVector() {
    return Vectors.dense(intercepts.clone());
  }

  public int numFeatures() {
    return coefficients.size() / numMargins();
  }

  public boolean hasSummary() {
    return summary != null;
  }

  public SGDTrainingSummary summary(String uid) {
    if (summary == null) {
      throw new IllegalStateException(
          "Cannot get the training summary of "
              + uid
              + ": only a model returned by fit has one; a loaded or created model does not");
    }
    return summary;
  }

  /**
   * {@code w.x + b} of a model of one margin. Summed here, in feature order, rather than by MLlib's
   * BLAS, whose vectorized sum may add in another order on a freshly started executor than on a
   * warm one: the same model would then score the same row differently on two executors.
   */
  public double margin(Vector features, String uid) {
    requireSize(features, uid);
    return dot(weights, 0, features) + intercepts[0];
  }

  /** {@code w_k.x + b_k} for every margin k. */
  public double[] margins(Vector features, String uid) {
    requireSize(features, uid);
    int n = numFeatures();
    double[] m = new double[intercepts.length];
    for (int k = 0; k < m.length; k++) {
      m[k] = dot(weights, k * n, features) + intercepts[k];
    }
    return m;
  }

  /** {@code w[from..from+n) . x}, in the order of x's stored entries. */
  private static double dot(double[] w, int from, Vector x) {
    double sum = 0;
    if (x instanceof SparseVector sparse) {
      int[] indices = sparse.indices();
      double[] values = sparse.values();
      for (int i = 0; i < indices.length; i++) {
        sum += w[from + indices[i]] * values[i];
      }
      return sum;
    }
    double[] values = x.toArray();
    for (int j = 0; j < values.length; j++) {
      sum += w[from + j] * values[j];
    }
    return sum;
  }

  private void requireSize(Vector features, String uid) {
    if (features.size() != numFeatures()) {
      throw new IllegalArgumentException(
          "Cannot predict with "
              + uid
              + ": the features have size "
              + features.size()
              + " but the model was trained on "
              + numFeatures()
              + " features");
    }
  }
}
