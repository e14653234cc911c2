package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.spark.SparkTimestamps;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class AsOfTest {
  private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  /** As the source reads them: Spark's cast to a timestamp, in the session zone (here Paris). */
  private static AsOf fromOptions(Map<String, String> options) {
    return AsOf.fromOptions(
        TableFormat.DELTA, options, text -> SparkTimestamps.millis(text, PARIS));
  }

  /** As the source reads Iceberg's: the timestamp a number of milliseconds. */
  private static AsOf fromIcebergOptions(Map<String, String> options) {
    return AsOf.fromOptions(
        TableFormat.ICEBERG,
        options,
        text ->
            text.equals("1796601600000") ? OptionalLong.of(1796601600000L) : OptionalLong.empty());
  }

  @Test
  void noOptionIsTheLatest() {
    assertThat(fromOptions(Map.of("path", "/t")).isLatest()).isTrue();
  }

  @Test
  void versionAsOfInAnyCase() {
    assertThat(fromOptions(Map.of("versionasof", "3"))).isEqualTo(AsOf.version(3));
    assertThat(fromOptions(Map.of("versionAsOf", " 0 ")).version()).hasValue(0);
  }

  @Test
  void timestampsWithoutAZoneAreInTheSessionsZone() {
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07")).timestampMillis())
        .hasValue(Instant.parse("2026-12-06T23:00:00Z").toEpochMilli());
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07 01:30:00.250")).timestampMillis())
        .hasValue(Instant.parse("2026-12-07T00:30:00.250Z").toEpochMilli());
    assertThat(fromOptions(Map.of("TIMESTAMPASOF", "2026-12-07T01:30:00")).timestampMillis())
        .hasValue(Instant.parse("2026-12-07T00:30:00Z").toEpochMilli());
  }

  /** Spark's cast takes more forms than ISO's: Delta reads the option with it. */
  @Test
  void timestampsAreReadAsSparksCastReadsThem() {
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07 01:30")).timestampMillis())
        .hasValue(Instant.parse("2026-12-07T00:30:00Z").toEpochMilli());
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07T01:30:00+08")).timestampMillis())
        .hasValue(Instant.parse("2026-12-06T17:30:00Z").toEpochMilli());
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12")).timestampMillis())
        .hasValue(Instant.parse("2026-11-30T23:00:00Z").toEpochMilli());
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07 01:30:00 UTC")).timestampMillis())
        .hasValue(Instant.parse("2026-12-07T01:30:00Z").toEpochMilli());
  }

  @Test
  void timestampsWithAZoneNameTheirInstant() {
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07T01:30:00Z")).timestampMillis())
        .hasValue(Instant.parse("2026-12-07T01:30:00Z").toEpochMilli());
    assertThat(fromOptions(Map.of("timestampAsOf", "2026-12-07 01:30:00+02:00")).timestampMillis())
        .hasValue(Instant.parse("2026-12-06T23:30:00Z").toEpochMilli());
  }

  @Test
  void badValuesAreNamed() {
    assertThatThrownBy(() -> fromOptions(Map.of("versionAsOf", "1", "timestampAsOf", "2026-12-07")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "versionAsOf and timestampAsOf each choose a snapshot: give one of versionAsOf,"
                + " timestampAsOf");
    assertThatThrownBy(() -> fromOptions(Map.of("versionAsOf", "x")))
        .hasMessageContaining("versionAsOf must be a whole number, not 'x'");
    assertThatThrownBy(() -> fromOptions(Map.of("versionAsOf", "-1"))).hasMessageContaining(">= 0");
    assertThatThrownBy(() -> fromOptions(Map.of("timestampAsOf", "yesterday")))
        .hasMessageContaining("timestampAsOf must be a date or a timestamp")
        .hasMessageContaining("'yesterday'");
  }

  @Test
  void icebergsOptionsAreIcebergsNames() {
    assertThat(fromIcebergOptions(Map.of("snapshot-id", "8744736658442914487")))
        .isEqualTo(AsOf.version(8744736658442914487L));
    assertThat(fromIcebergOptions(Map.of("AS-OF-TIMESTAMP", "1796601600000")).timestampMillis())
        .hasValue(1796601600000L);
    assertThat(fromIcebergOptions(Map.of("versionAsOf", "3")).isLatest())
        .as("another format's option is none of Iceberg's")
        .isTrue();
    assertThatThrownBy(
            () ->
                fromIcebergOptions(Map.of("snapshot-id", "1", "as-of-timestamp", "1796601600000")))
        .hasMessage(
            "snapshot-id and as-of-timestamp each choose a snapshot: give one of snapshot-id,"
                + " as-of-timestamp, branch, tag");
    assertThatThrownBy(() -> fromIcebergOptions(Map.of("snapshot-id", "-2")))
        .hasMessage("snapshot-id must be >= 0, not -2");
    assertThatThrownBy(() -> fromIcebergOptions(Map.of("as-of-timestamp", "2026-12-07")))
        .hasMessage(
            "as-of-timestamp must be a time in milliseconds since 1970-01-01T00:00:00Z, such as"
                + " 1796601600000, not '2026-12-07'");
  }

  @Test
  void icebergsBranchesAndTagsAreNamed() {
    assertThat(fromIcebergOptions(Map.of("branch", "audit"))).isEqualTo(AsOf.branch("audit"));
    assertThat(fromIcebergOptions(Map.of("TAG", "v1")).tag()).hasValue("v1");
    assertThat(fromIcebergOptions(Map.of("tag", "v1")).branch()).isEmpty();
    assertThat(fromOptions(Map.of("branch", "audit")).isLatest())
        .as("Delta tables have no branches")
        .isTrue();
    assertThatThrownBy(() -> fromIcebergOptions(Map.of("branch", "audit", "tag", "v1")))
        .hasMessage(
            "branch and tag each choose a snapshot: give one of snapshot-id, as-of-timestamp,"
                + " branch, tag");
    assertThatThrownBy(() -> fromIcebergOptions(Map.of("tag", "")))
        .hasMessage("tag must name a tag, not ''");
  }

  @Test
  void aChoiceIsDescribedByItsFormatsOption() {
    assertThat(AsOf.version(3).describe(TableFormat.DELTA)).isEqualTo("versionAsOf=3");
    assertThat(AsOf.version(3).describe(TableFormat.ICEBERG)).isEqualTo("snapshot-id=3");
    assertThat(AsOf.timestamp(1796601600000L).describe(TableFormat.DELTA))
        .isEqualTo("timestampAsOf=2026-12-07T00:00:00Z");
    assertThat(AsOf.timestamp(1796601600000L).describe(TableFormat.ICEBERG))
        .isEqualTo("as-of-timestamp=1796601600000");
    assertThat(AsOf.latest().describe(TableFormat.ICEBERG)).isEqualTo("latest");
    assertThat(AsOf.branch("audit").describe(TableFormat.ICEBERG)).isEqualTo("branch=audit");
    assertThat(AsOf.tag("v1").describe(TableFormat.ICEBERG)).isEqualTo("tag=v1");
  }
}
