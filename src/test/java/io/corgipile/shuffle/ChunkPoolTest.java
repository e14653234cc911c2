package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkPoolTest {
  @Test
  void givesBackWhatWasReleasedOnceThenNothing() {
    ChunkPool pool = new ChunkPool();
    assertThat(pool.take()).isNull();
    byte[] a = new byte[4];
    byte[] b = new byte[4];
    pool.give(List.of(a, b));
    pool.give(List.of());
    byte[][] taken = pool.take();
    assertThat(taken.length).isEqualTo(2);
    assertThat(taken[0]).isSameAs(a);
    assertThat(taken[1]).isSameAs(b);
    assertThat(pool.take()).as("an empty release keeps nothing").isNull();
  }

  @Test
  void theLatestReleaseComesFirst() {
    ChunkPool pool = new ChunkPool();
    byte[] older = new byte[4];
    byte[] newer = new byte[4];
    pool.give(List.of(older));
    pool.give(List.of(newer));
    assertThat(pool.take()[0])
        .as("the most recently used memory, likeliest still in cache")
        .isSameAs(newer);
    assertThat(pool.take()[0]).isSameAs(older);
  }
}
