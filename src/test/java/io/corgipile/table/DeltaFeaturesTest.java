package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reader features this reader does not honour are refused, naming them. */
class DeltaFeaturesTest {

  @Test
  void honouredFeaturesAreRead() {
    assertThatCode(
            () ->
                DeltaFeatures.check(
                    "file:/t",
                    Set.of("columnMapping", "deletionVectors", "timestampNtz", "v2Checkpoint")))
        .doesNotThrowAnyException();
  }

  @Test
  void otherFeaturesAreRefusedByName() {
    assertThatThrownBy(
            () ->
                DeltaFeatures.check(
                    "file:/t", Set.of("typeWidening", "variantType", "timestampNtz")))
        .isInstanceOf(TableReadException.class)
        .hasMessage(
            "Cannot read Delta table file:/t: it uses the reader features [typeWidening,"
                + " variantType], which this reader does not honour (it honours [columnMapping,"
                + " deletionVectors, timestampNtz, v2Checkpoint, vacuumProtocolCheck])");
  }
}
