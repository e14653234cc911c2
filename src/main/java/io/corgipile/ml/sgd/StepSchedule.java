package io.corgipile.ml.sgd;

import io.corgipile.options.EnumChoice;
import java.util.List;

/** How the learning rate changes over training. */
public enum StepSchedule {
  /** {@code stepSize} throughout. */
  CONSTANT,
  /** {@code stepSize * decayRate^epoch}, as in the CorgiPile paper. */
  DECAY,
  /**
   * {@code stepSize / sqrt(t)}, t counting a partition's updates from 1 across epochs; when the
   * driver averages P partitions' models several times an epoch, {@code stepSize / sqrt(max(1, t /
   * P))}.
   */
  INVSQRT,
  /**
   * Per coordinate (AdaGrad, Duchi et al. 2011): {@code stepSize / sqrt(G_j)}, {@code G_j} the sum
   * of coordinate j's squared batch gradients so far, over epochs and rounds ({@link AdaGradSGD}).
   */
  ADAGRAD;

  /** The values of the {@code stepSchedule} param, in declaration order. */
  public static List<String> names() {
    return EnumChoice.texts(values());
  }

  /** The schedule a (validated) {@code stepSchedule} param value names. */
  public static StepSchedule of(String paramValue) {
    return EnumChoice.find(values(), paramValue).orElseThrow();
  }

  /**
   * The part of the rate fixed for all of {@code epoch} (from 0): computed once per epoch, not per
   * update.
   */
  double epochRate(double stepSize, double decayRate, int epoch) {
    return this == DECAY ? stepSize * Math.pow(decayRate, epoch) : stepSize;
  }

  /**
   * The learning rate of update {@code t} (from 1), given its epoch's {@link #epochRate}.
   *
   * @param averaged the partitions whose models the driver averages every round, 1 when it averages
   *     once an epoch. A round's mean moves the model as far as one partition's run, though P times
   *     as many rows went into it; run alone, {@code invsqrt} would have taken those P t updates at
   *     {@code 1 / sqrt(P t)} each, P times the mean's move. So update t gets {@code sqrt(P / t)},
   *     the sequential schedule's rate at update P t, times P (the linear scaling rule of
   *     large-batch SGD), capped at {@code stepSize}. With one average per epoch the models drift
   *     too far apart for their moves to add up that way, so they keep {@code 1 / sqrt(t)}.
   */
  double rate(double epochRate, long t, int averaged) {
    return this == INVSQRT
        ? epochRate / Math.sqrt(Math.max(1.0, (double) t / averaged))
        : epochRate;
  }
}
