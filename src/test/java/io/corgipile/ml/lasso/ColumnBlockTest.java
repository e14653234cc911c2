package io.corgipile.ml.lasso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/** Products of feature pairs, whatever way each column is stored. */
class ColumnBlockTest {
  /**
   * 1,000 rows (not a whole number of chunks) of 4 features: 0 and 1 dense, 2 and 3 sparse (one row
   * in 10 non-zero).
   */
  private static double[][] rows() {
    Random random = new Random(5);
    double[][] x = new double[1_000][4];
    for (int i = 0; i < x.length; i++) {
      x[i][0] = random.nextGaussian();
      x[i][1] = random.nextGaussian() + 3;
      // non-zero in every 5th and every 10th row: both at once in every 10th, 1 row in 10 each way
      x[i][2] = i % 5 == 0 ? random.nextGaussian() : 0;
      x[i][3] = i % 10 == 0 || i % 10 == 3 ? random.nextGaussian() : 0;
    }
    return x;
  }

  private static ColumnBlock block(double[][] x) {
    List<Row> rows = new ArrayList<>();
    for (double[] row : x) {
      rows.add(RowFactory.create(1.0, Vectors.dense(row).compressed()));
    }
    return ColumnBlock.of(0, rows.iterator(), new LassoDataErrors("label", "features"));
  }

  @Test
  void multipliesEveryPairOfDenseAndSparseColumns() {
    double[][] x = rows();
    // every pair a > b, grouped by a: dense-dense, sparse-dense, sparse-sparse
    int[] features = {0, 1, 2, 3};
    int[] pairs = {1, 0, 2, 0, 2, 1, 3, 0, 3, 1, 3, 2};
    double[] out = new double[pairs.length / 2];
    block(x).pairProducts(features, pairs, out);
    for (int i = 0; i < out.length; i++) {
      double expected = 0;
      for (double[] row : x) {
        expected += row[features[pairs[2 * i]]] * row[features[pairs[2 * i + 1]]];
      }
      assertThat(out[i])
          .as("pair %d", i)
          .isCloseTo(expected, within(1e-9 * (1 + Math.abs(expected))));
    }
    assertThat(out).doesNotContain(0.0); // the sparse columns do meet
  }

  @Test
  void takesTheCandidatesPositionsNotTheFeatures() {
    double[][] x = rows();
    double[] direct = new double[1];
    block(x).pairProducts(new int[] {3, 0}, new int[] {1, 0}, direct); // feature 0 with 3
    double[] reversed = new double[1];
    block(x).pairProducts(new int[] {0, 3}, new int[] {1, 0}, reversed); // feature 3 with 0
    assertThat(direct[0]).isEqualTo(reversed[0]);
    double expected = 0;
    for (double[] row : x) {
      expected += row[0] * row[3];
    }
    assertThat(direct[0]).isCloseTo(expected, within(1e-9));
  }
}
