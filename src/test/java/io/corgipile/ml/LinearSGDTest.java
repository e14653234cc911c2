package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.shuffle.SyncInterval;
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
    return new SGDConfig(SGDTask.CLASSIFICATION, "features", "label", "", new LossFunction.Logistic(), 0.3,
        StepSchedule.CONSTANT, 1.0, 1, l1, l2, true, averaging, false, 1, 0, null, SyncInterval.EPOCH, false,
        DeltaCompression.NONE, false, 1, 0);
  }

  /** A dense vector row, as VectorUDT stores it: (type 1, size null, indices null, values). */
  private static InternalRow denseRow(double[] values) {
    InternalRow vector = new GenericInternalRow(new Object[] {(byte) 1, null, null,
        UnsafeArrayData.fromPrimitiveArray(values)});
    return new GenericInternalRow(new Object[] {vector});
  }

  /**
   * The mean the lazy sum keeps equals the mean of the iterates taken one by one, also when L2
   * shrinks the scale so far that it is folded back into the weights.
   */
  @ParameterizedTest(name = "l2 = {0}")
  @CsvSource({"0.0", "0.5", "3.0"})
  void theAveragedModelIsTheMeanOfTheIterates(double l2) {
    LinearSGD averaged = new LinearSGD(new double[FEATURES], 0, config(0, l2, true), 1, 0, 1, true);
    LinearSGD plain = new LinearSGD(new double[FEATURES], 0, config(0, l2, false), 1, 0, 1, false);
    double[] meanCoefficients = new double[FEATURES];
    double meanIntercept = 0;
    Random random = new Random(3);
    FeatureVector x = new FeatureVector();
    for (int i = 0; i < ROWS; i++) {
      double[] values = random.doubles(FEATURES).map(v -> v * 2 - 1).toArray();
      x.pointTo(denseRow(values), 0);
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
    LinearSGD sgd = new LinearSGD(new double[FEATURES], 0, config(0, 0.1, averaging), epoch, 0, 1, false);
    FeatureVector x = new FeatureVector();
    x.pointTo(denseRow(new double[] {1, 2, 3, 4, 5}), 0);
    sgd.accumulate(x, 1.0);
    sgd.update();
    sgd.accumulate(x, -0.5);
    sgd.update();
    // w = -0.3 x after the first step; then (1 - 0.3 * 0.1) w + 0.15 x
    double w0 = -0.3 * (1 - 0.03) + 0.15;
    assertThat(sgd.coefficients()[0]).isCloseTo(w0, within(1e-15));
    assertThat(sgd.coefficients()[4]).isCloseTo(5 * w0, within(1e-14));
  }
}
