package io.corgipile.ml;

import java.io.Serializable;
import java.util.List;

/**
 * What a round needs from the rows about its candidate coefficients, summed over a partition's rows
 * (or over all): for each candidate feature j the product with the residuals, sum x_j s; for each pair
 * j > k the product of the features, sum x_j x_k (the Gram block, for the dependency check and the
 * objective after the update); and the residuals' sum and sum of squares. The residuals are raw,
 * s = y - X b; centering for the intercept happens on the driver, so sparse columns stay sparse.
 */
record CandidateSums(int partition, double[] residualProducts, double[] gram, double residualSum,
    double residualSquares) implements Serializable {

  /** Packed index of pair (j, k), j > k, in {@link #gram}. */
  static int pair(int j, int k) {
    return j * (j - 1) / 2 + k;
  }

  /**
   * One partition's sums for {@code candidates}.
   *
   * @param residuals s = y - X b of the block's rows
   */
  static CandidateSums of(ColumnBlock block, double[] residuals, int[] candidates) {
    return of(block, residuals, candidates, true);
  }

  /** The same without the Gram block (empty), for products with every feature: a check of optimality. */
  static CandidateSums of(ColumnBlock block, double[] residuals, int[] candidates, boolean withGram) {
    int k = candidates.length;
    double[] products = new double[k];
    double[] gram = new double[withGram ? k * (k - 1) / 2 : 0];
    double sum = 0;
    double squares = 0;
    if (block.numRows() > 0) {
      for (double s : residuals) {
        sum += s;
        squares += s * s;
      }
      double[] column = new double[block.numRows()];
      for (int a = 0; a < k; a++) {
        products[a] = block.dot(candidates[a], residuals);
        if (a == 0 || !withGram) {
          continue;
        }
        block.scatter(candidates[a], column);
        for (int b = 0; b < a; b++) {
          gram[pair(a, b)] = block.dot(candidates[b], column);
        }
        block.clear(candidates[a], column);
      }
    }
    return new CandidateSums(block.partition, products, gram, sum, squares);
  }

  /** The partitions' sums added in partition order (the list is in it), the same bit for bit on every run. */
  static CandidateSums total(List<CandidateSums> parts, int candidates) {
    double[] products = new double[candidates];
    double[] gram = new double[parts.isEmpty() ? 0 : parts.get(0).gram.length];
    double sum = 0;
    double squares = 0;
    for (CandidateSums p : parts) {
      for (int a = 0; a < products.length; a++) {
        products[a] += p.residualProducts[a];
      }
      for (int a = 0; a < gram.length; a++) {
        gram[a] += p.gram[a];
      }
      sum += p.residualSum;
      squares += p.residualSquares;
    }
    return new CandidateSums(-1, products, gram, sum, squares);
  }
}
