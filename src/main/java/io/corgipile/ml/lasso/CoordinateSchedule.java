package io.corgipile.ml.lasso;

import io.corgipile.ml.ScheduledLasso;
import java.util.Arrays;
import java.util.List;

/** How {@link ScheduledLasso} picks the coefficients a round updates together. */
public enum CoordinateSchedule {
  /**
   * STRADS: candidates sampled by priority, then only those nearly uncorrelated with the ones
   * already kept, so no two updates of a round undo each other.
   */
  PRIORITY_DEPENDENCY("priority+dependency"),
  /** Sampled by priority (|last change| plus a floor), no dependency check. */
  PRIORITY("priority"),
  /** Sampled uniformly, no dependency check: Shotgun's parallel coordinate descent. */
  RANDOM("random");

  private final String text;

  CoordinateSchedule(String text) {
    this.text = text;
  }

  /** The value users write in the {@code scheduler} param. */
  String text() {
    return text;
  }

  public static List<String> texts() {
    return Arrays.stream(values()).map(CoordinateSchedule::text).toList();
  }

  static CoordinateSchedule of(String text) {
    return Arrays.stream(values())
        .filter(s -> s.text.equals(text))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot use scheduler '"
                        + text
                        + "': allowed values are "
                        + String.join(", ", texts())));
  }

  boolean byPriority() {
    return this != RANDOM;
  }

  boolean checksDependency() {
    return this == PRIORITY_DEPENDENCY;
  }
}
