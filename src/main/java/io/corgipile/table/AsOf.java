package io.corgipile.table;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Which snapshot of a table to read: the latest, a version (a Delta version, an Iceberg snapshot
 * id), the latest as of a time, or the head of a branch or the snapshot of a tag (Iceberg's named
 * references). Each format names the options its own way ({@link TableFormat}).
 */
public final class AsOf implements Serializable {
  private static final long serialVersionUID = 2L;

  private enum Kind {
    LATEST,
    VERSION,
    TIMESTAMP,
    BRANCH,
    TAG
  }

  private static final AsOf LATEST = new AsOf(Kind.LATEST, 0, null);

  private final Kind kind;

  /** The version, or the time in milliseconds since the epoch. */
  private final long number;

  /** The branch's or the tag's name. */
  private final String name;

  private AsOf(Kind kind, long number, String name) {
    this.kind = kind;
    this.number = number;
    this.name = name;
  }

  public static AsOf latest() {
    return LATEST;
  }

  /** A version, or snapshot id: both formats' are non-negative. */
  public static AsOf version(long version) {
    if (version < 0) {
      throw new IllegalArgumentException("a version must be >= 0, not " + version);
    }
    return new AsOf(Kind.VERSION, version, null);
  }

  /** The latest snapshot committed at or before {@code millis} since the epoch (UTC). */
  public static AsOf timestamp(long millis) {
    return new AsOf(Kind.TIMESTAMP, millis, null);
  }

  /** The head of the branch {@code name}. */
  public static AsOf branch(String name) {
    return new AsOf(Kind.BRANCH, 0, Objects.requireNonNull(name));
  }

  /** The snapshot the tag {@code name} names. */
  public static AsOf tag(String name) {
    return new AsOf(Kind.TAG, 0, Objects.requireNonNull(name));
  }

  /**
   * From the read's options (keys matched ignoring case, as Spark's options are): one at most of
   * {@code format}'s {@link TableFormat#snapshotOptions()}.
   *
   * @param timestampMillis reads a timestamp as milliseconds since the epoch, or empty where it is
   *     none, as the format's Spark reader reads it (Delta: Spark's cast to a timestamp in the
   *     session time zone; Iceberg: a number of milliseconds)
   */
  public static AsOf fromOptions(
      TableFormat format,
      Map<String, String> options,
      Function<String, OptionalLong> timestampMillis) {
    List<String> given = new ArrayList<>();
    String value = null;
    for (String option : format.snapshotOptions()) {
      for (Map.Entry<String, String> e : options.entrySet()) {
        if (e.getKey().equalsIgnoreCase(option)) {
          given.add(option);
          value = e.getValue();
        }
      }
    }
    if (given.isEmpty()) {
      return LATEST;
    }
    if (given.size() > 1) {
      throw new IllegalArgumentException(
          String.join(" and ", given)
              + " each choose a snapshot: give one of "
              + String.join(", ", format.snapshotOptions()));
    }
    String option = given.get(0);
    if (option.equals(format.versionOption())) {
      return version(format, value);
    }
    if (option.equals(format.timestampOption())) {
      OptionalLong millis = timestampMillis.apply(value.trim());
      if (millis.isEmpty()) {
        throw new IllegalArgumentException(
            option + " must be " + format.timestampForms() + ", not '" + value + "'");
      }
      return timestamp(millis.getAsLong());
    }
    if (value.isEmpty()) {
      throw new IllegalArgumentException(option + " must name a " + option + ", not ''");
    }
    return option.equals(format.branchOption()) ? branch(value) : tag(value);
  }

  private static AsOf version(TableFormat format, String text) {
    String option = format.versionOption();
    long v;
    try {
      v = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " must be a whole number, not '" + text + "'", e);
    }
    if (v < 0) {
      throw new IllegalArgumentException(option + " must be >= 0, not " + v);
    }
    return version(v);
  }

  /** This choice as {@code format}'s option would name it: {@code versionAsOf=3}, or "latest". */
  public String describe(TableFormat format) {
    return switch (kind) {
      case LATEST -> "latest";
      case VERSION -> format.versionOption() + "=" + number;
      case TIMESTAMP ->
          format.timestampOption()
              + "="
              + (format == TableFormat.ICEBERG
                  ? Long.toString(number)
                  : Instant.ofEpochMilli(number).toString());
      case BRANCH -> format.branchOption() + "=" + name;
      case TAG -> format.tagOption() + "=" + name;
    };
  }

  public boolean isLatest() {
    return kind == Kind.LATEST;
  }

  /** The version asked for, if one was. */
  public OptionalLong version() {
    return kind == Kind.VERSION ? OptionalLong.of(number) : OptionalLong.empty();
  }

  /** The time asked for, in milliseconds since the epoch, if one was. */
  public OptionalLong timestampMillis() {
    return kind == Kind.TIMESTAMP ? OptionalLong.of(number) : OptionalLong.empty();
  }

  /** The branch asked for, if one was. */
  public Optional<String> branch() {
    return kind == Kind.BRANCH ? Optional.of(name) : Optional.empty();
  }

  /** The tag asked for, if one was. */
  public Optional<String> tag() {
    return kind == Kind.TAG ? Optional.of(name) : Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AsOf a
        && a.kind == kind
        && a.number == number
        && Objects.equals(a.name, name);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, number, name);
  }

  @Override
  public String toString() {
    return switch (kind) {
      case LATEST -> "latest";
      case VERSION -> "version " + number;
      case TIMESTAMP -> "as of " + Instant.ofEpochMilli(number);
      case BRANCH -> "branch " + name;
      case TAG -> "tag " + name;
    };
  }
}
