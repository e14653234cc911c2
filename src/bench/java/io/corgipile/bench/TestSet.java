package io.corgipile.bench;

import java.util.List;
import java.util.function.Function;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A test table held in the driver, its feature vectors as stored (sparse ones stay sparse: 20,000
 * dense rows of 32,768 doubles would take 5.2 GB of the driver's heap), so that a model of every
 * epoch is scored without a Spark job.
 */
record TestSet(Vector[] x, double[] y) {
  /** Below this a probability counts as this in the log-loss, as scikit-learn clips it. */
  static final double MIN_PROBABILITY = 1e-15;

  /** Accuracy and mean log-loss of a model on the test set. */
  record Score(double accuracy, double logLoss) {}

  /** Columns {@code features} and {@code label} of the Parquet table at {@code path}. */
  static TestSet read(SparkSession spark, String path) {
    List<Row> rows = spark.read().parquet(path).select("features", "label").collectAsList();
    Vector[] x = new Vector[rows.size()];
    double[] y = new double[rows.size()];
    for (int i = 0; i < y.length; i++) {
      x[i] = (Vector) rows.get(i).get(0);
      y[i] = rows.get(i).getDouble(1);
    }
    return new TestSet(x, y);
  }

  int size() {
    return y.length;
  }

  /** The share of rows a binary model of margin {@code w.x + b} classes right (1 where above 0). */
  double accuracy(double[] w, double b) {
    int right = 0;
    for (int i = 0; i < y.length; i++) {
      double margin = b;
      // skipping the zeros of a sparse row changes no margin's sign
      if (x[i] instanceof SparseVector v) {
        for (int k = 0; k < v.indices().length; k++) {
          margin += w[v.indices()[k]] * v.values()[k];
        }
      } else {
        double[] dense = x[i].toArray();
        for (int j = 0; j < w.length; j++) {
          margin += w[j] * dense[j];
        }
      }
      right += (margin > 0 ? 1.0 : 0.0) == y[i] ? 1 : 0;
    }
    return (double) right / y.length;
  }

  /**
   * Accuracy and log-loss of a model's class probabilities ({@code predictProbability} of a
   * probabilistic classifier): the predicted class is the most probable (the lowest of a tie, as
   * MLlib's argmax, so a binary model predicts 1 above 0.5), the log-loss the mean of -ln p(true
   * class), p at least {@value #MIN_PROBABILITY}.
   */
  Score score(Function<Vector, Vector> probability) {
    int right = 0;
    double loss = 0;
    for (int i = 0; i < y.length; i++) {
      Vector p = probability.apply(x[i]);
      int label = (int) y[i];
      right += p.argmax() == label ? 1 : 0;
      loss -= Math.log(Math.max(MIN_PROBABILITY, p.apply(label)));
    }
    return new Score((double) right / y.length, loss / y.length);
  }
}
