package io.corgipile.ml.lasso;

import java.io.Serializable;
import java.util.List;

/**
 * What a round needs from the rows about its candidate coefficients, summed over a partition's rows
 * (or over all): for each candidate feature j the product with the residuals, sum x_j s; for the
 * asked pairs of candidates the product of their features, sum x_j x_k (the part of the Gram block
 * the driver's {@link GramCache} does not know yet); and the residuals' sum and sum of squares. The
 * residuals are raw, s = y - X b; centering for the intercept happens on the driver, so sparse
 * columns stay sparse.
 *
 * @param gram per asked pair, in the order asked
 */
public record CandidateSums(
    int partition,
    double[] residualProducts,
    double[] gram,
    double residualSum,
    double residualSquares)
    implements Serializable {

  /**
   * One partition's sums for {@code candidates}.
   *
   * @param residuals s = y - X b of the block's rows
   * @param pairs positions in {@code candidates} of the pairs whose products to compute: pair i is
   *     ({@code pairs[2i]}, {@code pairs[2i + 1]}), grouped by the first
   */
  static CandidateSums of(ColumnBlock block, double[] residuals, int[] candidates, int[] pairs) {
    double[] products = new double[candidates.length];
    double[] gram = new double[pairs.length / 2];
    double sum = 0;
    double squares = 0;
    if (block.numRows() > 0) {
      for (double s : residuals) {
        sum += s;
        squares += s * s;
      }
      for (int a = 0; a < candidates.length; a++) {
        products[a] = block.dot(candidates[a], residuals);
      }
      block.pairProducts(candidates, pairs, gram);
    }
    return new CandidateSums(block.partition, products, gram, sum, squares);
  }

  /**
   * The partitions' sums added in partition order (the list is in it), the same bit for bit on
   * every run.
   */
  static CandidateSums total(List<CandidateSums> parts, int candidates) {
    double[] products = new double[candidates];
    double[] gram = new double[parts.get(0).gram.length];
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
