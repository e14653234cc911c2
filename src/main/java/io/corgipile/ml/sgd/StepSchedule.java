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
   * sqrt(P)))} ({@link #rate}).
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
   *     once an epoch. A round's mean of P partitions' runs of t updates stands for P t sequential
   *     updates, which {@code invsqrt} would take at about {@code 1 / sqrt(P t)}. Where the runs'
   *     moves agree (far from the optimum) the mean moves as far as one run, so each run needs P
   *     times that rate (the linear scaling rule of large-batch SGD: {@code sqrt(P / t)}); where
   *     they are mostly noise (near it) the mean's noise shrinks by {@code sqrt(P)} only, and P
   *     times the rate leaves the model sqrt(P) times noisier than the sequential one (the
   *     square-root rule: {@code 1 / sqrt(t)}). Update t gets the geometric mean of the two, {@code
   *     sqrt(sqrt(P) / t)}, capped at {@code stepSize}: on the generated shapes at 200,000 rows and
   *     8 to 20 partitions the linear rule inflated the model's norm (ten sparse classes: 76
   *     against 40 for the optimum, test log-loss 1.34 times LogisticRegression's) and the
   *     square-root rule was 1.2 points behind after epoch 1 on sparse binary data; the geometric
   *     mean kept every cell within the goals (docs/benchmarks/shapes.md). With one average per
   *     epoch the models drift too far apart for their moves to add up, so they keep {@code 1 /
   *     sqrt(t)}.
   */
  double rate(double epochRate, long t, int averaged) {
    return this == INVSQRT
        ? epochRate / Math.sqrt(Math.max(1.0, t / Math.sqrt(averaged)))
        : epochRate;
  }
}
