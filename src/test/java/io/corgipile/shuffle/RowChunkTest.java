package io.corgipile.shuffle;

import static io.corgipile.shuffle.TupleShuffleBufferTest.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RowChunkTest {
  private static byte[] read(RowChunk chunk, int row) {
    return Arrays.copyOfRange(
        chunk.bytes(), chunk.offsetOf(row), chunk.offsetOf(row) + chunk.lengthOf(row));
  }

  @Test
  void holdsRowsInOrderUntilTheNextOneDoesNotFit() {
    RowChunk chunk = new RowChunk(100);
    for (int i = 0; i < 4; i++) {
      assertThat(chunk.tryAdd(tuple(i, 24), 0, 24)).isTrue();
    }
    assertThat(chunk.tryAdd(tuple(4, 24), 0, 24)).isFalse();
    assertThat(chunk.size()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      assertThat(read(chunk, i)).isEqualTo(tuple(i, 24));
    }
    chunk.clear();
    assertThat(chunk.size()).isZero();
    assertThat(chunk.tryAdd(tuple(4, 24), 0, 24)).isTrue();
    assertThat(read(chunk, 0)).isEqualTo(tuple(4, 24));
  }

  @Test
  void aRowLargerThanTheChunkIsKeptAloneAndTheRoomGivenBackAfter() {
    RowChunk chunk = new RowChunk(64);
    assertThat(chunk.tryAdd(tuple(1, 500), 0, 500)).isTrue();
    assertThat(read(chunk, 0)).isEqualTo(tuple(1, 500));
    assertThat(chunk.tryAdd(tuple(2, 8), 0, 8)).isFalse();
    chunk.clear();
    assertThat(chunk.bytes()).hasSize(64);
  }

  @Test
  void manySmallRowsAndEmptyOnes() {
    RowChunk chunk = new RowChunk(1 << 16);
    for (int i = 0; i < 5000; i++) {
      assertThat(chunk.tryAdd(tuple(i, i % 3 == 0 ? 0 : 8), 0, i % 3 == 0 ? 0 : 8)).isTrue();
    }
    assertThat(chunk.size()).isEqualTo(5000);
    assertThat(chunk.lengthOf(3)).isZero();
    assertThat(read(chunk, 4999)).isEqualTo(tuple(4999, 8));
  }
}
