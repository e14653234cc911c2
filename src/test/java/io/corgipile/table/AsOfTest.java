package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AsOfTest {
  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  @Test
  void noOptionIsTheLatest() {
    assertThat(AsOf.fromOptions(Map.of("path", "/t"), PARIS).isLatest()).isTrue();
  }

  @Test
  void versionAsOfInAnyCase() {
    assertThat(AsOf.fromOptions(Map.of("versionasof", "3"), PARIS)).isEqualTo(AsOf.version(3));
    assertThat(AsOf.fromOptions(Map.of("versionAsOf", " 0 "), PARIS).version()).hasValue(0);
  }

  @Test
  void timestampsWithoutAZoneAreInTheSessionsZone() {
    assertThat(AsOf.fromOptions(Map.of("timestampAsOf", "2026-12-07"), PARIS).timestampMillis())
        .hasValue(Instant.parse("2026-12-06T23:00:00Z").toEpochMilli());
    assertThat(
            AsOf.fromOptions(Map.of("timestampAsOf", "2026-12-07 01:30:00.250"), PARIS)
                .timestampMillis())
        .hasValue(Instant.parse("2026-12-07T00:30:00.250Z").toEpochMilli());
    assertThat(
            AsOf.fromOptions(Map.of("TIMESTAMPASOF", "2026-12-07T01:30:00"), PARIS)
                .timestampMillis())
        .hasValue(Instant.parse("2026-12-07T00:30:00Z").toEpochMilli());
  }

  @Test
  void timestampsWithAZoneNameTheirInstant() {
    assertThat(
            AsOf.fromOptions(Map.of("timestampAsOf", "2026-12-07T01:30:00Z"), PARIS)
                .timestampMillis())
        .hasValue(Instant.parse("2026-12-07T01:30:00Z").toEpochMilli());
    assertThat(
            AsOf.fromOptions(Map.of("timestampAsOf", "2026-12-07 01:30:00+02:00"), PARIS)
                .timestampMillis())
        .hasValue(Instant.parse("2026-12-06T23:30:00Z").toEpochMilli());
  }

  @Test
  void badValuesAreNamed() {
    assertThatThrownBy(
            () ->
                AsOf.fromOptions(Map.of("versionAsOf", "1", "timestampAsOf", "2026-12-07"), PARIS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> AsOf.fromOptions(Map.of("versionAsOf", "x"), PARIS))
        .hasMessageContaining("versionAsOf must be a whole number, not 'x'");
    assertThatThrownBy(() -> AsOf.fromOptions(Map.of("versionAsOf", "-1"), PARIS))
        .hasMessageContaining(">= 0");
    assertThatThrownBy(() -> AsOf.fromOptions(Map.of("timestampAsOf", "yesterday"), PARIS))
        .hasMessageContaining("timestampAsOf must be a date or a timestamp")
        .hasMessageContaining("'yesterday'");
  }
}
