package io.corgipile.source;

import io.corgipile.options.Integers;
import java.io.Serializable;
import java.util.Locale;

/**
 * How large the scan's blocks are: whole row groups, or row groups cut into parts of consecutive
 * rows at page boundaries ({@link BlockPlanner#cut}), so a buffer can mix more of them than a few
 * large row groups.
 *
 * @param rows the fewest rows of a part for an explicit size; 0 for {@code auto} and {@code
 *     rowGroup}
 */
record BlockSize(Kind kind, long rows) implements Serializable {
  enum Kind {
    AUTO,
    ROW_GROUP,
    ROWS
  }

  /** {@code auto} cuts row groups when a tuple buffer would hold fewer blocks than this... */
  static final int AUTO_BLOCKS_PER_BUFFER = 64;

  static final String ROW_GROUP = "rowGroup";

  static final String FORMAT =
      "auto (with shuffle=corgipile, row groups cut into parts of about 1/"
          + AUTO_BLOCKS_PER_BUFFER
          + " of the tuple buffer where it would hold fewer than "
          + AUTO_BLOCKS_PER_BUFFER
          + " row groups; else whole row groups), "
          + ROW_GROUP
          + " (whole row groups) or a row count (100000: row "
          + "groups cut into parts of at least that many rows)";

  /**
   * Parses a block size.
   *
   * @throws IllegalArgumentException naming the accepted values when {@code value} is none of them
   */
  static BlockSize parse(String value) {
    String v = value.trim();
    if (v.equalsIgnoreCase("auto")) {
      return new BlockSize(Kind.AUTO, 0);
    }
    if (v.toLowerCase(Locale.ROOT).equals(ROW_GROUP.toLowerCase(Locale.ROOT))) {
      return new BlockSize(Kind.ROW_GROUP, 0);
    }
    try {
      return new BlockSize(Kind.ROWS, Integers.parse(v, 1, Long.MAX_VALUE));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("expected " + FORMAT + ", at least 1");
    }
  }

  @Override
  public String toString() {
    switch (kind) {
      case AUTO:
        return "auto";
      case ROW_GROUP:
        return ROW_GROUP;
      default:
        return Long.toString(rows);
    }
  }
}
