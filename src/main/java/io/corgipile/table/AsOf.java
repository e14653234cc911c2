package io.corgipile.table;

import java.io.Serializable;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Which snapshot of a table to read: the latest, a version (a Delta version, an Iceberg snapshot
 * id), or the latest as of a time. Each format names the options its own way ({@link TableFormat}).
 */
public final class AsOf implements Serializable {
  private static final long serialVersionUID = 1L;

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

  /** A version, or snapshot id: both formats' are non-negative. */
  public static AsOf version(long version) {
    if (version < 0) {
      throw new IllegalArgumentException("a version must be >= 0, not " + version);
    }
    return new AsOf(version, Long.MIN_VALUE);
  }

  /** The latest snapshot committed at or before {@code millis} since the epoch (UTC). */
  public static AsOf timestamp(long millis) {
    return new AsOf(-1, millis);
  }

  /**
   * From the read's options (keys matched ignoring case, as Spark's options are): {@code format}'s
   * version option or its timestamp option, not both.
   *
   * @param timestampMillis reads a timestamp as milliseconds since the epoch, or empty where it is
   *     none, as the format's Spark reader reads it (Delta: Spark's cast to a timestamp in the
   *     session time zone; Iceberg: a number of milliseconds)
   */
  public static AsOf fromOptions(
      TableFormat format,
      Map<String, String> options,
      Function<String, OptionalLong> timestampMillis) {
    String versionOption = format.versionOption();
    String timestampOption = format.timestampOption();
    String version = null;
    String timestamp = null;
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(versionOption)) {
        version = e.getValue();
      } else if (e.getKey().equalsIgnoreCase(timestampOption)) {
        timestamp = e.getValue();
      }
    }
    if (version != null && timestamp != null) {
      throw new IllegalArgumentException(
          "give " + versionOption + " or " + timestampOption + ", not both");
    }
    if (version != null) {
      long v;
      try {
        v = Long.parseLong(version.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            versionOption + " must be a whole number, not '" + version + "'", e);
      }
      if (v < 0) {
        throw new IllegalArgumentException(versionOption + " must be >= 0, not " + v);
      }
      return version(v);
    }
    if (timestamp != null) {
      OptionalLong millis = timestampMillis.apply(timestamp.trim());
      if (millis.isEmpty()) {
        throw new IllegalArgumentException(
            timestampOption + " must be " + format.timestampForms() + ", not '" + timestamp + "'");
      }
      return timestamp(millis.getAsLong());
    }
    return LATEST;
  }

  /** This choice as {@code format}'s option would name it: {@code versionAsOf=3}, or "latest". */
  public String describe(TableFormat format) {
    if (isLatest()) {
      return "latest";
    }
    return version >= 0
        ? format.versionOption() + "=" + version
        : format.timestampOption()
            + "="
            + (format == TableFormat.ICEBERG
                ? Long.toString(timestampMillis)
                : Instant.ofEpochMilli(timestampMillis).toString());
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
    return version >= 0 ? "version " + version : "as of " + Instant.ofEpochMilli(timestampMillis);
  }
}
