package io.corgipile.ml.lasso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every planned pair's product, whether it goes by blocks of 2 x 4 or alone. */
class DensePairProductsTest {
  /**
   * Pairs as the solver asks for them: candidates in draw order over shuffled columns, for each
   * candidate a the earlier ones b whose product is not yet known (some known at random), so groups
   * share most of their second columns but not all, and some groups are missing.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 255, 257, 1_000})
  void addsEveryPairsProductOverEveryChunk(int rows) {
    Random random = new Random(rows);
    int columns = 23;
    double[][] x = new double[columns][rows];
    for (double[] column : x) {
      for (int i = 0; i < rows; i++) {
        column[i] = random.nextGaussian();
      }
    }
    int[] features = new int[13];
    for (int a = 0; a < features.length; a++) {
      features[a] = (7 * a + 3) % columns;
    }
    List<int[]> pairs = new ArrayList<>();
    for (int a = 1; a < features.length; a++) {
      for (int b = 0; b < a; b++) {
        if (a == 5 || random.nextInt(10) < 2) {
          continue; // known already
        }
        pairs.add(new int[] {a, b});
      }
    }
    int[] first = pairs.stream().mapToInt(p -> p[0]).toArray();
    int[] second = pairs.stream().mapToInt(p -> p[1]).toArray();
    int[] slot = new int[pairs.size()];
    for (int i = 0; i < slot.length; i++) {
      slot[i] = slot.length - 1 - i; // any slots, not the pairs' order
    }
    double[] out = new double[pairs.size()];
    DensePairProducts.plan(features, first, second, slot).addTo(x, rows, out);
    for (int i = 0; i < pairs.size(); i++) {
      double expected = 0;
      for (int r = 0; r < rows; r++) {
        expected += x[features[first[i]]][r] * x[features[second[i]]][r];
      }
      assertThat(out[slot[i]])
          .as("pair (%d, %d)", first[i], second[i])
          .isCloseTo(expected, within(1e-9 * (1 + Math.abs(expected))));
    }
  }
}
