package io.corgipile.options;

import java.util.ArrayList;
import java.util.List;

/**
 * Integer option values within bounds, as the CLI, the benchmarks and the reader's options and
 * local properties take them, and the words that say what is allowed.
 */
public final class Integers {
  private Integers() {}

  /**
   * What {@code [min, max]} allows, for messages: {@code an integer >= 1}, {@code an integer >= 1
   * and <= 2147483647}, or {@code a 64-bit integer} when every long is allowed.
   */
  public static String describe(long min, long max) {
    List<String> bounds = new ArrayList<>();
    if (min != Long.MIN_VALUE) {
      bounds.add(">= " + min);
    }
    if (max != Long.MAX_VALUE) {
      bounds.add("<= " + max);
    }
    return bounds.isEmpty() ? "a 64-bit integer" : "an integer " + String.join(" and ", bounds);
  }

  /**
   * Parses {@code value} (surrounding blanks allowed) as an integer within {@code [min, max]}.
   *
   * @throws IllegalArgumentException whose message is {@code expected <what describe says>}
   */
  public static long parse(String value, long min, long max) {
    try {
      long n = Long.parseLong(value.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("expected " + describe(min, max));
  }
}
