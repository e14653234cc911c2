package io.corgipile.ml;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How the learning rate changes over training. */
enum StepSchedule {
  /** {@code stepSize} throughout. */
  CONSTANT,
  /** {@code stepSize * decayRate^epoch}, as in the CorgiPile paper. */
  DECAY,
  /** {@code stepSize / sqrt(t)}, t counting a partition's updates from 1 across epochs. */
  INVSQRT;

  static List<String> names() {
    return Arrays.stream(values()).map(StepSchedule::paramValue).toList();
  }

  static StepSchedule of(String paramValue) {
    return valueOf(paramValue.toUpperCase(Locale.ROOT));
  }

  String paramValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The learning rate of update {@code t} (from 1) in {@code epoch} (from 0). */
  double rate(double stepSize, double decayRate, int epoch, long t) {
    switch (this) {
      case CONSTANT:
        return stepSize;
      case DECAY:
        return stepSize * Math.pow(decayRate, epoch);
      default:
        return stepSize / Math.sqrt(t);
    }
  }
}
