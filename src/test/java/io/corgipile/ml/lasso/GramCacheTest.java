package io.corgipile.ml.lasso;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GramCacheTest {
  @Test
  void keepsProductsOfPairsInEitherOrderAndGrows() {
    GramCache cache = new GramCache();
    assertThat(cache.get(3, 1)).isNaN();
    for (int j = 0; j < 200; j++) {
      for (int k = 0; k < j; k++) {
        cache.put(j, k, j * 1000.0 + k);
      }
    }
    assertThat(cache.size()).isEqualTo(200 * 199 / 2);
    assertThat(cache.get(150, 7)).isEqualTo(150_007.0);
    assertThat(cache.get(7, 150)).isEqualTo(150_007.0);
    assertThat(cache.get(7, 7)).isNaN();
    assertThat(cache.get(250, 7)).isNaN();
    cache.put(7, 150, -1.0);
    assertThat(cache.get(150, 7)).isEqualTo(-1.0);
    assertThat(cache.size()).isEqualTo(200 * 199 / 2);
  }
}
