package io.corgipile.ml.sgd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.spark.FeatureVector;
import java.util.Random;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The update rule's bookkeeping against plain arithmetic. */
class LinearSGDTest {
  private static final int FEATURES = 5;
  private static final int ROWS = 200;

  private static SGDConfig config(double l1, double l2, boolean averaging) {
    return TestConfigs.logistic(
        new SGDClassifier()
            .setStepSize(0.3)
            .setStepSchedule("constant")
            .setDecayRate(1.0)
            .setStandardization(false)
            .setAveraging(averaging),
        l1,
        l2);
  }

  /** A sparse vector row, as VectorUDT stores it: (type 0, size, indices, values). */
  private static InternalRow sparseRow(int size, int[] indices, double[] values) {
    InternalRow vector =
        new GenericInternalRow(
            new Object[] {
              (byte) 0,
              size,
              UnsafeArrayData.fromPrimitiveArray(indices),
              UnsafeArrayData.fromPrimitiveArray(values)
            });
    return new GenericInternalRow(new Object[] {vector});
  }

  /** A dense vector row, as VectorUDT stores it: (type 1, size null, indices null, values). */
  private static InternalRow denseRow(double[] values) {
    InternalRow vector =
        new GenericInternalRow(
            new Object[] {(byte) 1, null, null, UnsafeArrayData.fromPrimitiveArray(values)});
    return new GenericInternalRow(new Object[] {vector});
  }

  /**
   * The mean the lazy sum keeps equals the mean of the iterates taken one by one, also when L2
   * shrinks the scale so far that it is folded back into the weights.
   */
  @ParameterizedTest(name = "l2 = {0}")
  @CsvSource({"0.0", "0.5", "3.0"})
  void theAveragedModelIsTheMeanOfTheIterates(double l2) {
    LinearSGD averaged =
        new LinearSGD(new double[FEATURES], 0, config(0, l2, true), 1, 0, 1, true, null);
    LinearSGD plain =
        new LinearSGD(new double[FEATURES], 0, config(0, l2, false), 1, 0, 1, false, null);
    double[] meanCoefficients = new double[FEATURES];
    double meanIntercept = 0;
    Random random = new Random(3);
    FeatureVector x = FeatureVector.ofVector(0);
    for (int i = 0; i < ROWS; i++) {
      double[] values = random.doubles(FEATURES).map(v -> v * 2 - 1).toArray();
      x.pointTo(denseRow(values));
      double label = random.nextBoolean() ? 1 : 0;
      for (LinearSGD sgd : new LinearSGD[] {averaged, plain}) {
        double margin = sgd.margin(x);
        sgd.accumulate(x, new LossFunction.Logistic().derivative(margin, label));
        sgd.update();
      }
      double[] w = plain.coefficients();
      for (int j = 0; j < FEATURES; j++) {
        meanCoefficients[j] += w[j] / ROWS;
      }
      meanIntercept += plain.intercept() / ROWS;
    }
    double[] mean = averaged.coefficients();
    for (int j = 0; j < FEATURES; j++) {
      assertThat(mean[j]).isCloseTo(meanCoefficients[j], within(1e-12));
    }
    assertThat(averaged.intercept()).isCloseTo(meanIntercept, within(1e-12));
    assertThat(mean).isNotEqualTo(plain.coefficients());
  }

  @ParameterizedTest(name = "epoch {0}, averaging {1}")
  @CsvSource({"0, true", "1, false"})
  void withoutIterateAveragingTheCoefficientsAreTheLastIterate(int epoch, boolean averaging) {
    LinearSGD sgd =
        new LinearSGD(new double[FEATURES], 0, config(0, 0.1, averaging), epoch, 0, 1, false, null);
    FeatureVector x = FeatureVector.ofVector(0);
    x.pointTo(denseRow(new double[] {1, 2, 3, 4, 5}));
    sgd.accumulate(x, 1.0);
    sgd.update();
    sgd.accumulate(x, -0.5);
    sgd.update();
    // w = -0.3 x after the first step; then (1 - 0.3 * 0.1) w + 0.15 x
    double w0 = -0.3 * (1 - 0.03) + 0.15;
    assertThat(sgd.coefficients()[0]).isCloseTo(w0, within(1e-15));
    assertThat(sgd.coefficients()[4]).isCloseTo(5 * w0, within(1e-14));
  }

  /**
   * Training under a scaling, which never builds the scaled features, follows the same iterates as
   * training on features scaled (and centered) beforehand: the same margins row by row and the same
   * coefficients in the scaled space, with L2 folds, iterate averaging, batches, zeros left out of
   * sparse rows, and a constant feature (deviation 0) that must keep coefficient 0.
   */
  @ParameterizedTest(name = "centered {0}, l2 {1}, averaging {2}, batch {3}")
  @CsvSource({
    "true, 0.0, false, 1",
    "true, 0.5, true, 1",
    "true, 3.0, true, 4",
    "false, 0.0, true, 1",
    "false, 3.0, false, 4"
  })
  void trainingUnderAScalingEqualsTrainingOnScaledFeatures(
      boolean centered, double l2, boolean averaging, int batch) {
    double[] mean = {5, -2, 0.5, 0, 7};
    double[] std = {10, 0.1, 1, 3, 0};
    double[] inverseStd = new double[FEATURES];
    double[] scaledMean = new double[FEATURES];
    for (int j = 0; j < FEATURES; j++) {
      inverseStd[j] = std[j] == 0 ? 0 : 1 / std[j];
      scaledMean[j] = mean[j] * inverseStd[j];
    }
    FeatureScaling scaling = new FeatureScaling(inverseStd, centered ? scaledMean : null);
    SGDConfig config =
        TestConfigs.logistic(
            new SGDClassifier()
                .setStepSize(0.3)
                .setStepSchedule("invsqrt")
                .setDecayRate(1.0)
                .setBatchSize(batch)
                .setStandardization(true)
                .setAveraging(averaging),
            0,
            l2);
    LinearSGD lazy = new LinearSGD(new double[FEATURES], 0, config, 1, 0, 1, averaging, scaling);
    LinearSGD explicit = new LinearSGD(new double[FEATURES], 0, config, 1, 0, 1, averaging, null);
    Random random = new Random(5);
    FeatureVector x = FeatureVector.ofVector(0);
    FeatureVector z = FeatureVector.ofVector(0);
    LossFunction loss = new LossFunction.Logistic();
    for (int i = 0; i < ROWS; i++) {
      double[] raw = new double[FEATURES];
      for (int j = 0; j < FEATURES; j++) {
        raw[j] =
            j == 4
                ? mean[j]
                : random.nextInt(3) == 0 ? 0 : mean[j] + std[j] * random.nextGaussian();
      }
      double[] scaled = new double[FEATURES];
      for (int j = 0; j < FEATURES; j++) {
        scaled[j] = raw[j] * inverseStd[j] - (centered ? scaledMean[j] : 0);
      }
      x.pointTo(sparseRowOf(raw));
      z.pointTo(denseRow(scaled));
      double label = raw[0] + 20 * raw[1] > 0 ? 1 : 0;
      double lazyMargin = lazy.margin(x);
      double explicitMargin = explicit.margin(z);
      assertThat(lazyMargin)
          .isCloseTo(explicitMargin, within(1e-9 * (1 + Math.abs(explicitMargin))));
      lazy.accumulate(x, loss.derivative(lazyMargin, label));
      explicit.accumulate(z, loss.derivative(explicitMargin, label));
      if (lazy.batchFull()) {
        lazy.update();
        explicit.update();
      }
    }
    double[] w = lazy.coefficients();
    double[] expected = explicit.coefficients();
    for (int j = 0; j < FEATURES; j++) {
      assertThat(w[j]).isCloseTo(expected[j], within(1e-9 * (1 + Math.abs(expected[j]))));
    }
    assertThat(w[4]).isZero();
    assertThat(lazy.intercept())
        .isCloseTo(explicit.intercept(), within(1e-9 * (1 + Math.abs(explicit.intercept()))));
    assertThat(expected[0]).isNotZero();
  }

  /** The non-zeros of {@code values} as a sparse row. */
  private static InternalRow sparseRowOf(double[] values) {
    int[] indices =
        java.util.stream.IntStream.range(0, values.length).filter(j -> values[j] != 0).toArray();
    return sparseRow(
        values.length,
        indices,
        java.util.Arrays.stream(indices).mapToDouble(j -> values[j]).toArray());
  }
}
