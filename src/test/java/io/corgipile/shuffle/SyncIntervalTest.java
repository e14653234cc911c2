package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SyncIntervalTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "epoch|epoch",
        "' EPOCH '|epoch",
        "Buffer|buffer",
        "AUTO|auto",
        "1|1",
        "007|7",
        "9223372036854775807|9223372036854775807"
      })
  void parsesEveryFormAndPrintsTextItReadsBack(String text, String printed) {
    SyncInterval interval = SyncInterval.parse(text);
    assertThat(interval).hasToString(printed);
    assertThat(SyncInterval.parse(interval.toString()))
        .isEqualTo(interval)
        .hasSameHashCodeAs(interval);
  }

  @Test
  void namesAreTheConstants() {
    assertThat(SyncInterval.parse("epoch")).isSameAs(SyncInterval.EPOCH);
    assertThat(SyncInterval.parse("buffer")).isSameAs(SyncInterval.BUFFER);
    assertThat(SyncInterval.parse("auto")).isSameAs(SyncInterval.AUTO);
    assertThat(SyncInterval.AUTO.isAuto()).isTrue();
    assertThat(SyncInterval.AUTO.isEpoch()).isFalse();
    assertThat(SyncInterval.BUFFER.isAuto()).isFalse();
    assertThat(SyncInterval.EPOCH.isEpoch()).isTrue();
    assertThat(SyncInterval.BUFFER.isEpoch()).isFalse();
    assertThat(SyncInterval.parse("5").isEpoch()).isFalse();
    assertThat(SyncInterval.parse("5")).isNotEqualTo(SyncInterval.parse("6"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-3", "abc", "", "1.5", "9223372036854775808", "epochs"})
  void rejectsOtherValuesNamingTheAllowedOnes(String text) {
    assertThatThrownBy(() -> SyncInterval.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected " + SyncInterval.FORMAT);
    assertThat(SyncInterval.FORMAT)
        .contains("auto")
        .contains("epoch")
        .contains("buffer")
        .contains("rows");
  }

  @Test
  void roundsGroupUnitsGreedilyUntilTheyHoldTheRows() {
    long[] units = {5, 5, 5, 20, 1, 0, 4};
    assertThat(SyncInterval.EPOCH.roundStarts(units)).containsExactly(0, 7);
    assertThat(SyncInterval.BUFFER.roundStarts(units)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(SyncInterval.parse("10").roundStarts(units)).containsExactly(0, 2, 4, 7);
    assertThat(SyncInterval.parse("1000").roundStarts(units)).containsExactly(0, 7);
    assertThat(SyncInterval.EPOCH.roundStarts(new long[0])).containsExactly(0, 0);
    assertThat(SyncInterval.BUFFER.roundStarts(new long[0])).containsExactly(0);
  }

  @Test
  void autoGivesAtMostFourRoundsOfWholeUnitsSplitByRows() {
    assertThat(SyncInterval.AUTO.roundStarts(new long[] {5, 5, 5, 20, 1, 0, 4}))
        .containsExactly(0, 2, 4, 5, 7);
    assertThat(SyncInterval.AUTO.roundStarts(new long[] {10, 10, 10, 10, 10, 10, 10, 10, 10, 10}))
        .containsExactly(0, 3, 5, 8, 10);
    assertThat(SyncInterval.AUTO.roundStarts(new long[] {7, 9, 3})).containsExactly(0, 1, 2, 3);
    assertThat(SyncInterval.AUTO.roundStarts(new long[] {7, 9, 3, 1}))
        .containsExactly(0, 1, 2, 3, 4);
    assertThat(SyncInterval.AUTO.roundStarts(new long[] {0, 0, 0, 0, 0, 0}))
        .containsExactly(0, 1, 2, 3, 6);
    assertThat(SyncInterval.AUTO.roundStarts(new long[0])).containsExactly(0);
    assertThat(SyncInterval.AUTO.withBufferOf(100)).isSameAs(SyncInterval.AUTO);
  }

  @Test
  void autoIsBufferInTheFirstEpochAndEveryOtherIntervalTheSameInEvery() {
    assertThat(SyncInterval.AUTO.forEpoch(0)).isSameAs(SyncInterval.BUFFER);
    assertThat(SyncInterval.AUTO.forEpoch(1)).isSameAs(SyncInterval.AUTO);
    assertThat(SyncInterval.AUTO.forEpoch(7)).isSameAs(SyncInterval.AUTO);
    for (SyncInterval other :
        new SyncInterval[] {SyncInterval.EPOCH, SyncInterval.BUFFER, SyncInterval.parse("9")}) {
      assertThat(other.forEpoch(0)).isSameAs(other);
      assertThat(other.forEpoch(3)).isSameAs(other);
    }
  }

  @Test
  void survivesSerialization() throws Exception {
    SyncInterval interval = SyncInterval.parse("1234");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(interval);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThat(in.readObject()).isEqualTo(interval);
    }
  }
}
