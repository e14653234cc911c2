package io.corgipile.table;

import java.io.Serializable;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

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
   * #VERSION_AS_OF} or {@value #TIMESTAMP_AS_OF}, not both.
   *
   * @param timestampMillis reads a timestamp as milliseconds since the epoch, or empty where it is
   *     none: Delta reads the option as Spark's cast to a timestamp in the session time zone does
   */
  public static AsOf fromOptions(
      Map<String, String> options, Function<String, OptionalLong> timestampMillis) {
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
      OptionalLong millis = timestampMillis.apply(timestamp.trim());
      if (millis.isEmpty()) {
        throw new IllegalArgumentException(
            TIMESTAMP_AS_OF
                + " must be a date or a timestamp such as 2026-12-07 or 2026-12-07 01:30:00"
                + " or 2026-12-07T01:30:00Z, not '"
                + timestamp
                + "'");
      }
      return timestamp(millis.getAsLong());
    }
    return LATEST;
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
