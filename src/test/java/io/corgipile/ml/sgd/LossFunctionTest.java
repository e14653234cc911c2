package io.corgipile.ml.sgd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

class LossFunctionTest {

  /**
   * The logistic loss's pass shares one exp between loss and derivative: the results stay value's
   * and derivative's.
   */
  @Test
  void logisticLossAndDerivativeTogetherEqualEachAloneBitForBit() {
    LossFunction.Logistic loss = new LossFunction.Logistic();
    Random random = new Random(7);
    double[] margins =
        DoubleStream.concat(
                DoubleStream.of(
                    0.0,
                    -0.0,
                    1e-300,
                    -1e-300,
                    40,
                    -40,
                    800,
                    -800,
                    Double.MAX_VALUE,
                    -Double.MAX_VALUE),
                random.doubles(2000).map(u -> (u - 0.5) * 60))
            .toArray();
    for (double margin : margins) {
      for (double label : new double[] {0, 1}) {
        double[] derivative = new double[1];
        double value = loss.lossAndDerivatives(new double[] {margin}, label, derivative);
        assertThat(Double.doubleToRawLongBits(value))
            .as("loss at %s, label %s", margin, label)
            .isEqualTo(Double.doubleToRawLongBits(loss.value(margin, label)));
        assertThat(Double.doubleToRawLongBits(derivative[0]))
            .as("derivative at %s, label %s", margin, label)
            .isEqualTo(Double.doubleToRawLongBits(loss.derivative(margin, label)));
      }
    }
  }
}
