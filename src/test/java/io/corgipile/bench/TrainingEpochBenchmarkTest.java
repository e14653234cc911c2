package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/bench epoch}'s choice of variants: all by default, the plain scan always, unknown
 * names named; and the options a training variant reads with.
 */
class TrainingEpochBenchmarkTest {
  @Test
  void measuresEveryVariantByDefaultAndThePlainScanAlways() {
    assertThat(TrainingEpochBenchmark.chosenNames(null))
        .containsExactly(
            "parquet",
            "parquet-noop",
            "columns-none",
            "columns-corgipile",
            "columns-window",
            "columns-none-projected",
            "columns-corgipile-projected",
            "assembler-none",
            "assembler-corgipile",
            "scaler-corgipile",
            "columns-corgipile-rounds",
            "columns-corgipile-buffer",
            "columns-corgipile-defaults",
            "columns-none-defaults");
    assertThat(TrainingEpochBenchmark.chosenNames(List.of("columns-corgipile", "parquet")))
        .containsExactly("parquet", "columns-corgipile");
  }

  @Test
  void anUnknownVariantIsNamedWithTheKnownOnes() {
    assertThatThrownBy(() -> TrainingEpochBenchmark.chosenNames(List.of("columns")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot run variant 'columns': known variants are parquet, parquet-noop, columns-none,"
                + " columns-corgipile, columns-window, columns-none-projected,"
                + " columns-corgipile-projected, assembler-none, assembler-corgipile,"
                + " scaler-corgipile, columns-corgipile-rounds, columns-corgipile-buffer,"
                + " columns-corgipile-defaults, columns-none-defaults");
  }

  @Test
  void aTrainingVariantReadsWithItsShuffleAndTheExtraOptions() {
    assertThat(TrainingEpochBenchmark.readOptions("columns-corgipile-defaults", Map.of()))
        .containsExactly(Map.entry("shuffle", "corgipile"));
    assertThat(
            TrainingEpochBenchmark.readOptions(
                "columns-none-defaults", Map.of("prefetch", "false", "shuffle", "window")))
        .containsOnly(Map.entry("shuffle", "window"), Map.entry("prefetch", "false"));
  }
}
