package io.corgipile.ml;

import static io.corgipile.ml.QuantizedDeltaTest.deserialize;
import static io.corgipile.ml.QuantizedDeltaTest.randomDelta;
import static io.corgipile.ml.QuantizedDeltaTest.serialize;
import static io.corgipile.ml.QuantizedDeltaTest.throughKryo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.SharedSpark;
import io.corgipile.spark.TaskResultMeter;
import java.io.InvalidObjectException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

class DeltaAccumulatorTest {

  /** {@code w1 * d1 + w2 * d2 + ...}, added in order, as the accumulator adds. */
  private static double[] weightedSum(int size, List<QuantizedDelta> deltas, double[] weights) {
    double[] sum = new double[size];
    for (int i = 0; i < deltas.size(); i++) {
      deltas.get(i).addTo(sum, weights[i]);
    }
    return sum;
  }

  @Test
  void addsWeightedDecodedDeltas() {
    int n = 300;
    List<QuantizedDelta> deltas = List.of(QuantizedDelta.dense(randomDelta(n, 1), DeltaCompression.INT8),
        QuantizedDelta.sparse(n, new int[] {2, 299}, new double[] {1.5, -4}, DeltaCompression.NONE),
        QuantizedDelta.dense(randomDelta(n, 2), DeltaCompression.INT8).withResidualLost());
    double[] weights = {2, 0.5, 3};
    DeltaAccumulator sum = new DeltaAccumulator(n);
    assertThat(sum.sum()).containsOnly(0.0).hasSize(n);
    sum.add(deltas.get(0), weights[0]);
    assertThat(sum.sum()).containsExactly(weightedSum(n, deltas.subList(0, 1), weights));
    sum.add(deltas.get(1), weights[1]).add(deltas.get(2), weights[2]);
    assertThat(sum.sum()).containsExactly(weightedSum(n, deltas, weights));
    assertThat(sum.deltas()).isEqualTo(3);
    assertThat(sum.weightSum()).isEqualTo(5.5);
    assertThat(sum.residualsLost()).isEqualTo(1);
  }

  @Test
  void mergesSumsAndCounts() {
    int n = 50;
    QuantizedDelta a = QuantizedDelta.dense(randomDelta(n, 3), DeltaCompression.INT8).withResidualLost();
    QuantizedDelta b = QuantizedDelta.dense(randomDelta(n, 4), DeltaCompression.INT8);
    QuantizedDelta c = QuantizedDelta.dense(randomDelta(n, 5), DeltaCompression.NONE);
    // a merge adds the other's sum as a whole: a + (2b + 3c)
    double[] expected = weightedSum(n, List.of(a), new double[] {1});
    double[] pairSum = weightedSum(n, List.of(b, c), new double[] {2, 3});
    for (int j = 0; j < n; j++) {
      expected[j] += pairSum[j];
    }

    DeltaAccumulator single = new DeltaAccumulator(n).add(a, 1);
    DeltaAccumulator pair = new DeltaAccumulator(n).add(b, 2).add(c, 3);
    DeltaAccumulator merged = new DeltaAccumulator(n).merge(new DeltaAccumulator(n)).merge(single).merge(pair);
    assertThat(merged.sum()).containsExactly(expected);
    assertThat(merged.deltas()).isEqualTo(3);
    assertThat(merged.weightSum()).isEqualTo(6);
    assertThat(merged.residualsLost()).isEqualTo(1);
    // merging leaves the other as it was
    assertThat(pair.deltas()).isEqualTo(2);
    assertThat(single.sum()).containsExactly(weightedSum(n, List.of(a), new double[] {1}));

    DeltaAccumulator intoSingle = new DeltaAccumulator(n).add(a, 1).merge(new DeltaAccumulator(n).add(b, 2));
    assertThat(intoSingle.sum()).containsExactly(weightedSum(n, List.of(a, b), new double[] {1, 2}));
  }

  @Test
  void sizesMustAgree() {
    assertThatThrownBy(() -> new DeltaAccumulator(4).add(QuantizedDelta.dense(new double[3], DeltaCompression.INT8), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot add a delta of 3 coordinates to a sum of 4; both must have the same number of coordinates");
    assertThatThrownBy(() -> new DeltaAccumulator(4).merge(new DeltaAccumulator(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot merge a sum of deltas of 3 coordinates into one of 4; both must have the same number of"
            + " coordinates");
  }

  @Test
  void oneDeltaSerializesCompressedAndASumDenseOrSparseWhicheverIsSmaller() throws Exception {
    int n = 1 << 16;
    QuantizedDelta delta = QuantizedDelta.dense(randomDelta(n, 6), DeltaCompression.INT8).withResidualLost();
    DeltaAccumulator one = new DeltaAccumulator(n).add(delta, 0.5);
    byte[] oneBytes = serialize(one);
    assertThat((long) oneBytes.length).isBetween(delta.payloadBytes(), delta.payloadBytes() * 101 / 100 + 300);
    assertRoundTrip(one, oneBytes);

    DeltaAccumulator dense = new DeltaAccumulator(n).add(delta, 0.5).add(delta, 1);
    byte[] denseBytes = serialize(dense);
    assertThat((long) denseBytes.length).isBetween(8L * n, 8L * n * 101 / 100 + 300);
    assertRoundTrip(dense, denseBytes);

    QuantizedDelta touched = QuantizedDelta.sparse(n, new int[] {7, 70, 700}, new double[] {1, -1, 2},
        DeltaCompression.INT8);
    DeltaAccumulator sparse = new DeltaAccumulator(n).add(touched, 1).add(touched, 2);
    byte[] sparseBytes = serialize(sparse);
    assertThat(sparseBytes.length).isLessThan(300);
    assertRoundTrip(sparse, sparseBytes);

    assertRoundTrip(new DeltaAccumulator(n), serialize(new DeltaAccumulator(n)));
  }

  private static void assertRoundTrip(DeltaAccumulator written, byte[] bytes) throws Exception {
    DeltaAccumulator read = deserialize(bytes);
    assertThat(Arrays.equals(read.sum(), written.sum())).as("the same sum").isTrue();
    assertThat(read.deltas()).isEqualTo(written.deltas());
    assertThat(read.weightSum()).isEqualTo(written.weightSum());
    assertThat(read.residualsLost()).isEqualTo(written.residualsLost());
  }

  @Test
  void kryoCarriesTheFields() {
    QuantizedDelta delta = QuantizedDelta.dense(randomDelta(300, 8), DeltaCompression.INT8).withResidualLost();
    for (DeltaAccumulator written : List.of(new DeltaAccumulator(300), new DeltaAccumulator(300).add(delta, 2),
        new DeltaAccumulator(300).add(delta, 2).add(delta, 1))) {
      DeltaAccumulator read = throughKryo(written);
      assertThat(read.sum()).containsExactly(written.sum());
      assertThat(read.deltas()).isEqualTo(written.deltas());
      assertThat(read.weightSum()).isEqualTo(written.weightSum());
      assertThat(read.residualsLost()).isEqualTo(written.residualsLost());
    }
  }

  @Test
  void anUnknownFormIsRejected() {
    byte[] bytes = serialize(new DeltaAccumulator(5));
    // the form is the last byte of the object's data, before the end-of-block marker
    bytes[bytes.length - 2] = 9;
    assertThatThrownBy(() -> deserialize(bytes)).isInstanceOf(InvalidObjectException.class)
        .hasMessage("Cannot read a sum of deltas: its form is 9; known forms are 0 (empty), 1 (one delta), 2 (dense)"
            + " and 3 (sparse)");
  }

  @Test
  void treeAggregateSumsThePartitionsDeltas() {
    int n = 1000;
    int partitions = 8;
    List<QuantizedDelta> deltas = new ArrayList<>();
    double[] weights = new double[partitions];
    for (int p = 0; p < partitions; p++) {
      deltas.add(QuantizedDelta.dense(randomDelta(n, 100 + p), DeltaCompression.INT8));
      weights[p] = p + 1;
    }
    JavaRDD<Integer> ids = JavaSparkContext.fromSparkContext(SharedSpark.get().sparkContext())
        .parallelize(List.of(0, 1, 2, 3, 4, 5, 6, 7), partitions);
    DeltaAccumulator sum = ids.treeAggregate(new DeltaAccumulator(n),
        (acc, p) -> acc.add(deltas.get(p), weights[p]), DeltaAccumulator::merge, 2);
    double[] expected = weightedSum(n, deltas, weights);
    assertThat(sum.deltas()).isEqualTo(partitions);
    assertThat(sum.weightSum()).isEqualTo(36);
    double[] actual = sum.sum();
    for (int j = 0; j < n; j++) {
      // the order of the merges varies, and with it the last bits
      assertThat(actual[j]).isCloseTo(expected[j], within(1e-12));
    }
  }

  @Test
  void aPartitionsTaskResultStaysCompressedThroughTreeAggregate() {
    int n = 1 << 16;
    int partitions = 4;
    long[] resultBytes = new long[2];
    for (DeltaCompression compression : DeltaCompression.values()) {
      JavaRDD<Integer> ids = JavaSparkContext.fromSparkContext(SharedSpark.get().sparkContext())
          .parallelize(List.of(0, 1, 2, 3), partitions);
      try (TaskResultMeter meter = TaskResultMeter.start(SharedSpark.get().sparkContext(), "accumulator-test")) {
        meter.beginRound(compression.paramValue());
        // depth 1: the partitions' task results go to the driver directly
        DeltaAccumulator sum = ids.treeAggregate(new DeltaAccumulator(n),
            (acc, p) -> acc.add(QuantizedDelta.dense(randomDelta(n, p), compression), 1), DeltaAccumulator::merge, 1);
        assertThat(sum.deltas()).isEqualTo(partitions);
        resultBytes[compression.ordinal()] = meter.awaitRound(compression.paramValue()).resultBytes();
      }
    }
    assertThat(resultBytes[DeltaCompression.NONE.ordinal()]).isGreaterThan(partitions * 8L * n);
    assertThat(resultBytes[DeltaCompression.INT8.ordinal()]).isLessThan(partitions * (n + 16L * n / 256 + 4_000));
  }
}
