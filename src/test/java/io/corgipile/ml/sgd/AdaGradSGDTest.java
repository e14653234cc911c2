package io.corgipile.ml.sgd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.spark.FeatureVector;
import java.util.Random;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * AdaGrad's lazy bookkeeping on sparse rows (a coordinate's missed regularization applied when it
 * is next read, the sums of iterates in closed form) against AdaGrad done plainly: every
 * coordinate, every update.
 */
class AdaGradSGDTest {
  private static final int FEATURES = 12;
  private static final int ROWS = 400;
  private static final double STEP = 0.5;

  private static SGDConfig config(double l1, double l2, int batch) {
    return TestConfigs.logistic(
        new SGDClassifier()
            .setStepSize(STEP)
            .setStepSchedule("adagrad")
            .setDecayRate(1.0)
            .setBatchSize(batch)
            .setStandardization(false)
            .setAveraging(false),
        l1,
        l2);
  }

  private static InternalRow sparseRow(int[] indices, double[] values) {
    InternalRow vector =
        new GenericInternalRow(
            new Object[] {
              (byte) 0,
              FEATURES,
              UnsafeArrayData.fromPrimitiveArray(indices),
              UnsafeArrayData.fromPrimitiveArray(values)
            });
    return new GenericInternalRow(new Object[] {vector});
  }

  /**
   * AdaGrad as written down: all coordinates each update, regularization included, iterates summed
   * one by one.
   */
  private static final class PlainAdaGrad {
    final double[] w = new double[FEATURES];
    final double[] squares = new double[FEATURES + 1];
    final double[] sum = new double[FEATURES];
    final double[] l1Total = new double[FEATURES];
    final double[] l1Received = new double[FEATURES];
    double b;
    double bSum;
    int updates;
    final double l1;
    final double l2;

    PlainAdaGrad(double l1, double l2) {
      this.l1 = l1;
      this.l2 = l2;
    }

    double margin(double[] x) {
      double m = b;
      for (int j = 0; j < FEATURES; j++) {
        m += w[j] * x[j];
      }
      return m;
    }

    void update(double[] gradient, boolean[] touched, double interceptGradient) {
      updates++;
      for (int j = 0; j < FEATURES; j++) {
        if (touched[j]) {
          squares[j] += gradient[j] * gradient[j];
        }
        double rate = squares[j] > 0 ? STEP / Math.sqrt(squares[j]) : 0;
        double v = w[j] - (touched[j] ? rate * gradient[j] : 0);
        v *= Math.max(0, 1 - rate * l2);
        if (l1 > 0) { // Tsuruoka et al.'s cumulative penalty
          l1Total[j] += rate * l1;
          double clipped =
              v > 0
                  ? Math.max(0, v - (l1Total[j] + l1Received[j]))
                  : v < 0 ? Math.min(0, v + (l1Total[j] - l1Received[j])) : 0;
          l1Received[j] += clipped - v;
          v = clipped;
        }
        w[j] = v;
        sum[j] += v;
      }
      squares[FEATURES] += interceptGradient * interceptGradient;
      b -= squares[FEATURES] > 0 ? STEP / Math.sqrt(squares[FEATURES]) * interceptGradient : 0;
      bSum += b;
    }
  }

  /** Rows of 1 to 3 of the 12 features, each feature in about a sixth of them. */
  private static void train(AdaGradSGD lazy, PlainAdaGrad plain, int batch) {
    Random random = new Random(11);
    FeatureVector x = FeatureVector.ofVector(0);
    double[] gradient = new double[FEATURES];
    boolean[] touched = new boolean[FEATURES];
    double interceptGradient = 0;
    int inBatch = 0;
    for (int i = 0; i < ROWS; i++) {
      int first = random.nextInt(FEATURES - 2);
      int[] indices =
          random.nextBoolean()
              ? new int[] {first}
              : new int[] {first, first + 1 + random.nextInt(2)};
      double[] values = random.doubles(indices.length).map(v -> 4 * v - 2).toArray();
      double[] dense = new double[FEATURES];
      for (int k = 0; k < indices.length; k++) {
        dense[indices[k]] = values[k];
      }
      double label = random.nextBoolean() ? 1 : 0;
      x.pointTo(sparseRow(indices, values));

      double margin = lazy.margin(x);
      assertThat(margin).as("margin of row %d", i).isCloseTo(plain.margin(dense), within(1e-9));
      double d = new LossFunction.Logistic().derivative(margin, label);
      lazy.accumulate(x, d);
      for (int j = 0; j < FEATURES; j++) {
        gradient[j] += d * dense[j];
        touched[j] |= dense[j] != 0;
      }
      interceptGradient += d;
      if (++inBatch == batch) {
        lazy.update();
        for (int j = 0; j < FEATURES; j++) {
          gradient[j] /= batch;
        }
        plain.update(gradient, touched, interceptGradient / batch);
        gradient = new double[FEATURES];
        touched = new boolean[FEATURES];
        interceptGradient = 0;
        inBatch = 0;
      }
    }
  }

  @ParameterizedTest(name = "l1 {0}, l2 {1}, batch {2}")
  @CsvSource({"0, 0, 1", "0, 0.05, 1", "0, 0.05, 3", "0.01, 0, 1", "0.01, 0, 2"})
  void lazyUpdatesOnSparseRowsFollowThePlainIterates(double l1, double l2, int batch) {
    AdaGradSGD lazy =
        new AdaGradSGD(new double[FEATURES], 0, null, config(l1, l2, batch), false, null);
    PlainAdaGrad plain = new PlainAdaGrad(l1, l2);
    train(lazy, plain, batch);

    double[] w = lazy.coefficients();
    for (int j = 0; j < FEATURES; j++) {
      assertThat(w[j]).as("coefficient %d", j).isCloseTo(plain.w[j], within(1e-9));
      assertThat(w[j] == 0).as("coefficient %d is zero", j).isEqualTo(plain.w[j] == 0);
    }
    assertThat(lazy.intercept()).isCloseTo(plain.b, within(1e-9));
    assertThat(lazy.squaredGradients()).containsExactly(plain.squares, within(1e-9));
    assertThat(lazy.updates()).isEqualTo(plain.updates);
  }

  @Test
  void l1GivesExactZeros() {
    AdaGradSGD lazy =
        new AdaGradSGD(new double[FEATURES], 0, null, config(0.05, 0, 1), false, null);
    train(lazy, new PlainAdaGrad(0.05, 0), 1);
    assertThat(lazy.coefficients()).contains(0.0);
  }

  /**
   * Without L1 the sums of iterates are exact: closed forms for the updates a coordinate missed.
   */
  @ParameterizedTest(name = "l2 {0}")
  @CsvSource({"0", "0.05"})
  void theAveragedModelIsTheMeanOfThePlainIterates(double l2) {
    AdaGradSGD lazy = new AdaGradSGD(new double[FEATURES], 0, null, config(0, l2, 1), true, null);
    PlainAdaGrad plain = new PlainAdaGrad(0, l2);
    train(lazy, plain, 1);

    double[] mean = lazy.coefficients();
    for (int j = 0; j < FEATURES; j++) {
      assertThat(mean[j])
          .as("mean coefficient %d", j)
          .isCloseTo(plain.sum[j] / plain.updates, within(1e-9));
    }
    assertThat(lazy.intercept()).isCloseTo(plain.bSum / plain.updates, within(1e-9));
  }

  /**
   * The sums a partition starts from set its first rates: a fit goes on where the last round left
   * off.
   */
  @Test
  void startsFromTheSumsItIsGiven() {
    double[] squares = new double[FEATURES + 1];
    java.util.Arrays.fill(squares, 100);
    AdaGradSGD carried =
        new AdaGradSGD(new double[FEATURES], 0, squares, config(0, 0, 1), false, null);
    FeatureVector x = FeatureVector.ofVector(0);
    x.pointTo(sparseRow(new int[] {3}, new double[] {2}));
    carried.accumulate(x, 1.0);
    carried.update();
    // G = 100 + 2^2, so the step is 0.5 / sqrt(104) * 2
    assertThat(carried.coefficients()[3]).isCloseTo(-STEP / Math.sqrt(104) * 2, within(1e-15));
    assertThat(carried.squaredGradients()[3]).isEqualTo(104);
    assertThat(carried.squaredGradients()[FEATURES]).isEqualTo(101);
  }
}
