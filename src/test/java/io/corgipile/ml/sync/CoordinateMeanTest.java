package io.corgipile.ml.sync;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CoordinateMeanTest {
  private static void add(CoordinateMean mean, double[] model, double[] start, double w) {
    mean.add(model, CoordinateMean.moved(model, start, 0, model.length), w, 0);
  }

  @Test
  void aCoordinateIsAveragedOverThePartitionsThatMovedIt() {
    double[] start = {1, 1, 1};
    CoordinateMean mean = new CoordinateMean(3);
    add(mean, new double[] {3, 1, 1}, start, 2); // moved only coordinate 0
    add(mean, new double[] {1, 5, 1}, start, 6); // moved only coordinate 1
    assertThat(mean.mean(start)).containsExactly(3, 5, 1);
  }

  @Test
  void whereEveryPartitionMovesEveryCoordinateItIsTheWeightedMeanBitForBit() {
    double[][] models = {{0.1, -0.7, 2.5}, {0.3, 0.2, -1.25}, {1e-9, 3.3, 0.7}};
    double[] weights = {3, 0.5, 7};
    CoordinateMean mean = new CoordinateMean(3);
    double[] sum = new double[3];
    double weightSum = 0;
    for (int p = 0; p < models.length; p++) {
      add(mean, models[p], null, weights[p]);
      for (int j = 0; j < 3; j++) {
        sum[j] += weights[p] * models[p][j];
      }
      weightSum += weights[p];
    }
    double[] expected = new double[3];
    for (int j = 0; j < 3; j++) {
      expected[j] = sum[j] / weightSum;
    }
    assertThat(mean.mean(null)).containsExactly(expected);
  }

  @Test
  void slicesOfCoordinatesBeyondSixtyFourKeepTheirOwnBits() {
    double[] model = new double[130];
    model[129] = 2;
    CoordinateMean slice = new CoordinateMean(130);
    slice.add(model, CoordinateMean.moved(model, null, 0, 130), 4, 0);
    CoordinateMean whole = new CoordinateMean(200);
    whole.put(slice, 70);
    double[] mean = whole.mean(null);
    assertThat(mean[199]).isEqualTo(2);
    assertThat(mean[70 + 64]).isZero();
  }
}
