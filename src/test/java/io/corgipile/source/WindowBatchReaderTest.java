package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The window's batches stay small enough for their rows, loaded ahead, to stay in the cache. */
class WindowBatchReaderTest {
  @Test
  void aBatchHoldsTheRowsThatFitItsCacheShareWithinBounds() {
    // 28 doubles: 232 bytes a row
    assertThat(WindowBatchReader.batchRows(232)).isEqualTo((256 << 10) / 232);
    assertThat((long) WindowBatchReader.batchRows(232) * 232)
        .isLessThanOrEqualTo(WindowBatchReader.CACHED_BATCH_BYTES);
    // narrow rows: no more than the corgipile mode's batches
    assertThat(WindowBatchReader.batchRows(16)).isEqualTo(ShuffledBatchReader.BATCH_ROWS);
    // very wide rows: still batches of some rows
    assertThat(WindowBatchReader.batchRows(1 << 20)).isEqualTo(64);
  }
}
