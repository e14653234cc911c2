package io.corgipile.options;

import java.util.Locale;

/**
 * Counts of things such as rows, written {@code 10000000}, {@code 10_000_000}, {@code 10,000,000},
 * {@code 10m} or {@code 500k}.
 */
public final class Counts {
  /** What {@link #parse} accepts, for messages. */
  public static final String FORMAT = "a count (10000000, 10m, 500k)";

  private Counts() {}

  /**
   * Parses a count: digits with optional {@code _} or {@code ,} separators, and an optional suffix
   * {@code k} (thousands) or {@code m} (millions).
   *
   * @throws NumberFormatException if {@code value} is no count, or too large for a long
   */
  public static long parse(String value) {
    String s = value.trim().toLowerCase(Locale.ROOT).replace("_", "").replace(",", "");
    long multiplier = 1;
    if (s.endsWith("k")) {
      multiplier = 1_000L;
      s = s.substring(0, s.length() - 1);
    } else if (s.endsWith("m")) {
      multiplier = 1_000_000L;
      s = s.substring(0, s.length() - 1);
    }
    try {
      return Math.multiplyExact(Long.parseLong(s), multiplier);
    } catch (ArithmeticException e) {
      throw new NumberFormatException("too large: " + value);
    }
  }
}
