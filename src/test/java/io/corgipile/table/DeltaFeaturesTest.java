package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reader features this reader does not honour are refused, naming them. */
class DeltaFeaturesTest {
  private static TableSnapshot withFeatures(String... features) {
    return new TableSnapshot("file:/t", 3, "{}", "{}", List.of(), Set.of(features), List.of());
  }

  @Test
  void honouredFeaturesAreRead() {
    assertThatCode(
            () ->
                DeltaFeatures.check(
                    withFeatures(
                        "columnMapping", "deletionVectors", "timestampNtz", "v2Checkpoint")))
        .doesNotThrowAnyException();
  }

  @Test
  void otherFeaturesAreRefusedByName() {
    assertThatThrownBy(
            () -> DeltaFeatures.check(withFeatures("typeWidening", "variantType", "timestampNtz")))
        .isInstanceOf(TableReadException.class)
        .hasMessage(
            "Cannot read Delta table file:/t: it uses the reader features [typeWidening,"
                + " variantType], which this reader does not honour (it honours [columnMapping,"
                + " deletionVectors, timestampNtz, v2Checkpoint, vacuumProtocolCheck])");
  }
}
