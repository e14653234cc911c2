package io.corgipile.table;

import java.io.Serializable;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Which snapshot of a table to read: the latest, a version, or the latest as of a time. Delta names
 * the options {@code versionAsOf} and {@code timestampAsOf}, and so does this class.
 */
public final class AsOf implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Delta's name of the version option. */
  public static final String VERSION_AS_OF = "versionAsOf";

  /** Delta's name of the timestamp option. */
  public static final String TIMESTAMP_AS_OF = "timestampAsOf";

  private static final AsOf LATEST = new AsOf(-1, Long.MIN_VALUE);

  private static final DateTimeFormatter LOCAL =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd")
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private final long version;
  private final long timestampMillis;

  private AsOf(long version, long timestampMillis) {
    this.version = version;
    this.timestampMillis = timestampMillis;
  }

  public static AsOf latest() {
    return LATEST;
  }

  public static AsOf version(long version) {
    if (version < 0) {
      throw new IllegalArgumentException(VERSION_AS_OF + " must be >= 0, not " + version);
    }
    return new AsOf(version, Long.MIN_VALUE);
  }

  /** The latest snapshot committed at or before {@code millis} since the epoch (UTC). */
  public static AsOf timestamp(long millis) {
    return new AsOf(-1, millis);
  }

  /**
   * From the read's options (keys matched ignoring case, as Spark's options are): {@value
   * #VERSION_AS_OF} or {@value #TIMESTAMP_AS_OF}, not both. A timestamp without a zone or offset
   * ({@code 2026-12-07}, {@code 2026-12-07 01:30:00.250}) is read in {@code zone}, Spark's session
   * time zone, as Delta reads it; one with an offset or {@code Z} names its instant.
   */
  public static AsOf fromOptions(Map<String, String> options, ZoneId zone) {
    String version = null;
    String timestamp = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(VERSION_AS_OF)) {
        version = e.getValue();
      } else if (e.getKey().equalsIgnoreCase(TIMESTAMP_AS_OF)) {
        timestamp = e.getValue();
      }
    }
    if (version != null && timestamp != null) {
      throw new IllegalArgumentException(
          "give " + VERSION_AS_OF + " or " + TIMESTAMP_AS_OF + ", not both");
    }
    if (version != null) {
      try {
        return version(Long.parseLong(version.trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            VERSION_AS_OF + " must be a whole number, not '" + version + "'", e);
      }
    }
    if (timestamp != null) {
      return timestamp(parseTimestamp(timestamp.trim(), zone));
    }
    return LATEST;
  }

  static long parseTimestamp(String text, ZoneId zone) {
    try {
      if (text.length() == 10) {
        return LocalDate.parse(text).atStartOfDay(zone).toInstant().toEpochMilli();
      }
      if (text.endsWith("Z") || text.matches(".*[+-]\\d\\d:?\\d\\d$")) {
        return OffsetDateTime.parse(text.replace(' ', 'T')).toInstant().toEpochMilli();
      }
      return LocalDateTime.parse(text, LOCAL).atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          TIMESTAMP_AS_OF
              + " must be a date or a timestamp such as 2026-12-07 or 2026-12-07 01:30:00"
              + " or 2026-12-07T01:30:00Z, not '"
              + text
              + "'",
          e);
    }
  }

  public boolean isLatest() {
    return version < 0 && timestampMillis == Long.MIN_VALUE;
  }

  /** The version asked for, if one was. */
  public OptionalLong version() {
    return version < 0 ? OptionalLong.empty() : OptionalLong.of(version);
  }

  /** The time asked for, in milliseconds since the epoch, if one was. */
  public OptionalLong timestampMillis() {
    return timestampMillis == Long.MIN_VALUE
        ? OptionalLong.empty()
        : OptionalLong.of(timestampMillis);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AsOf a && a.version == version && a.timestampMillis == timestampMillis;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(version) * 31 + Long.hashCode(timestampMillis);
  }

  @Override
  public String toString() {
    if (isLatest()) {
      return "latest";
    }
    return version >= 0
        ? VERSION_AS_OF + "=" + version
        : TIMESTAMP_AS_OF + "=" + Instant.ofEpochMilli(timestampMillis);
  }
}
