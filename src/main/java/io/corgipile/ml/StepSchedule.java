package io.corgipile.ml;

import io.corgipile.options.EnumChoice;
import java.util.List;

/** How the learning rate changes over training. */
enum StepSchedule {
  /** {@code stepSize} throughout. */
  CONSTANT,
  /** {@code stepSize * decayRate^epoch}, as in the CorgiPile paper. */
  DECAY,
  /** {@code stepSize / sqrt(t)}, t counting a partition's updates from 1 across epochs. */
  INVSQRT;

  /** The values of the {@code stepSchedule} param, in declaration order. */
  static List<String> names() {
    return EnumChoice.texts(values());
  }

  /** The schedule a (validated) {@code stepSchedule} param value names. */
  static StepSchedule of(String paramValue) {
    return EnumChoice.find(values(), paramValue).orElseThrow();
  }

  /** The part of the rate fixed for all of {@code epoch} (from 0): computed once per epoch, not per update. */
  double epochRate(double stepSize, double decayRate, int epoch) {
    return this == DECAY ? stepSize * Math.pow(decayRate, epoch) : stepSize;
  }

  /** The learning rate of update {@code t} (from 1), given its epoch's {@link #epochRate}. */
  double rate(double epochRate, long t) {
    return this == INVSQRT ? epochRate / Math.sqrt(t) : epochRate;
  }
}
