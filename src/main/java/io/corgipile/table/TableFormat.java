package io.corgipile.table;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The table formats read through their transaction logs, and what each names its own way: the
 * options that choose a snapshot, as the format's Spark reader names them, and what its timestamp
 * option takes.
 */
public enum TableFormat {
  DELTA(
      "Delta",
      "log",
      "versionAsOf",
      "timestampAsOf",
      null,
      null,
      "a date or a timestamp such as 2026-12-07 or 2026-12-07 01:30:00 or 2026-12-07T01:30:00Z"),
  ICEBERG(
      "Iceberg",
      "metadata",
      "snapshot-id",
      "as-of-timestamp",
      "branch",
      "tag",
      "a time in milliseconds since 1970-01-01T00:00:00Z, such as 1796601600000");

  private final String displayName;
  private final String logName;
  private final String versionOption;
  private final String timestampOption;
  private final String branchOption;
  private final String tagOption;
  private final String timestampForms;

  TableFormat(
      String displayName,
      String logName,
      String versionOption,
      String timestampOption,
      String branchOption,
      String tagOption,
      String timestampForms) {
    this.displayName = displayName;
    this.logName = logName;
    this.versionOption = versionOption;
    this.timestampOption = timestampOption;
    this.branchOption = branchOption;
    this.tagOption = tagOption;
    this.timestampForms = timestampForms;
  }

  /** The format's name in messages: "Delta table ...", "Iceberg table ...". */
  public String displayName() {
    return displayName;
  }

  /** What names a table's live files: Delta's log, Iceberg's metadata. */
  public String logName() {
    return logName;
  }

  /** The option naming a snapshot: a Delta version, an Iceberg snapshot id. */
  public String versionOption() {
    return versionOption;
  }

  /** The option naming the latest snapshot committed at or before a time. */
  public String timestampOption() {
    return timestampOption;
  }

  /** The option naming a branch whose head to read; null for a format without branches. */
  public String branchOption() {
    return branchOption;
  }

  /** The option naming a tag whose snapshot to read; null for a format without tags. */
  public String tagOption() {
    return tagOption;
  }

  /** The options that choose a snapshot, of which a read takes one at most. */
  public List<String> snapshotOptions() {
    return Stream.of(versionOption, timestampOption, branchOption, tagOption)
        .filter(Objects::nonNull)
        .toList();
  }

  /** What the timestamp option takes, for the message that refuses another value. */
  String timestampForms() {
    return timestampForms;
  }

  /** Every format's options that choose a snapshot. */
  public static List<String> timeTravelOptions() {
    return Stream.of(values()).flatMap(f -> f.snapshotOptions().stream()).toList();
  }
}
