package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.ml.sgd.FeatureScaling;
import io.corgipile.ml.sgd.LossFunction;
import io.corgipile.ml.sgd.PartitionSGD;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.SGDPass;
import io.corgipile.ml.sgd.TestConfigs;
import io.corgipile.ml.sgd.TrainingRow;
import io.corgipile.spark.FeatureVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Dense rows (a dense vector, or feature columns) take array loops of their own in the models; they
 * must train bit for bit as the same rows given as sparse vectors that list every entry, zeros
 * included, which the sparse loops read in the same order.
 */
class DenseRowsTest {
  private static final int FEATURES = 6;
  private static final int ROWS = 300;

  private static SGDConfig config(String schedule, double l1, double l2, int batch) {
    return TestConfigs.logistic(
        new SGDClassifier()
            .setStepSize(0.3)
            .setStepSchedule(schedule)
            .setDecayRate(0.9)
            .setBatchSize(batch)
            .setStandardization(true)
            .setAveraging(true),
        l1,
        l2);
  }

  private static final StructType VECTOR_ROW =
      new StructType()
          .add("label", DataTypes.DoubleType)
          .add("features", SQLDataTypes.VectorType());

  /** {@code (label, vector)} as Spark's plans give it (no weight column): an UnsafeRow. */
  private static InternalRow vectorRow(InternalRow vector) {
    return UnsafeProjection.create(VECTOR_ROW)
        .apply(new GenericInternalRow(new Object[] {1.0, vector}))
        .copy();
  }

  private static InternalRow denseRow(double[] values) {
    return vectorRow(
        new GenericInternalRow(
            new Object[] {(byte) 1, null, null, UnsafeArrayData.fromPrimitiveArray(values)}));
  }

  private static InternalRow sparseRow(int size, int[] indices, double[] values) {
    return vectorRow(
        new GenericInternalRow(
            new Object[] {
              (byte) 0,
              size,
              UnsafeArrayData.fromPrimitiveArray(indices),
              UnsafeArrayData.fromPrimitiveArray(values)
            }));
  }

  /** {@code (label, f0..fn)}, an UnsafeRow. */
  private static InternalRow columnsRow(double[] values) {
    StructType schema = new StructType().add("label", DataTypes.DoubleType);
    Object[] fields = new Object[1 + values.length];
    fields[0] = 1.0;
    for (int j = 0; j < values.length; j++) {
      schema = schema.add("f" + j, DataTypes.DoubleType);
      fields[1 + j] = values[j];
    }
    return UnsafeProjection.create(schema).apply(new GenericInternalRow(fields)).copy();
  }

  /** A model per way of giving the rows, trained side by side. */
  private record Run(FeatureVector x, PartitionSGD sgd) {}

  private static PartitionSGD model(SGDConfig config, FeatureScaling scaling) {
    return PartitionSGD.create(new double[FEATURES], 0.1, null, config, 1, 0, 1, true, scaling);
  }

  /**
   * Margins row by row, and at the end coefficients, intercept and AdaGrad's sums, equal to the bit
   * for a dense vector, feature columns and the sparse vector listing every entry; with zeros
   * (signed) in the rows, a feature of deviation 0, L1 or L2 (L2 folding the scale), batches and
   * averaging.
   */
  @ParameterizedTest(name = "{0}, scaling {1}, l1 {2}, l2 {3}, batch {4}")
  @CsvSource({
    "invsqrt, centered, 0, 0, 1",
    "invsqrt, scaled, 0, 3.0, 1",
    "invsqrt, none, 0.01, 0.1, 3",
    "constant, centered, 0, 0.5, 4",
    "decay, scaled, 0.02, 0, 1",
    "adagrad, centered, 0, 0.2, 1",
    "adagrad, none, 0.01, 0.1, 3",
    "adagrad, scaled, 0, 0, 2"
  })
  void denseRowsTrainBitForBitAsTheSparseRowListingEveryEntry(
      String schedule, String scaling, double l1, double l2, int batch) {
    SGDConfig config = config(schedule, l1, l2, batch);
    double[] inverseStd = {0.5, 2, 1, 0, 0.1, 3};
    double[] scaledMean = {0.2, -1, 0, 0, 0.5, 0.3};
    FeatureScaling scales =
        switch (scaling) {
          case "none" -> null;
          case "scaled" -> new FeatureScaling(inverseStd, null);
          default -> new FeatureScaling(inverseStd, scaledMean);
        };
    List<Run> runs =
        List.of(
            new Run(
                FeatureVector.ofVector(TrainingRow.featuresField(config)), model(config, scales)),
            new Run(
                FeatureVector.ofColumns(TrainingRow.featuresField(config), FEATURES),
                model(config, scales)),
            new Run(
                FeatureVector.ofVector(TrainingRow.featuresField(config)), model(config, scales)));
    LossFunction loss = new LossFunction.Logistic();
    Random random = new Random(11);
    int[] every = IntStream.range(0, FEATURES).toArray();
    for (int i = 0; i < ROWS; i++) {
      double[] values = new double[FEATURES];
      for (int j = 0; j < FEATURES; j++) {
        int kind = random.nextInt(5);
        values[j] = kind == 0 ? 0 : kind == 1 ? -0.0 : random.nextGaussian() * (1 + j);
      }
      double label = values[0] - values[1] > 0 ? 1 : 0;
      List<InternalRow> rows =
          List.of(denseRow(values), columnsRow(values), sparseRow(FEATURES, every, values));
      List<Long> margins = new ArrayList<>();
      for (int r = 0; r < runs.size(); r++) {
        Run run = runs.get(r);
        run.x.pointTo(rows.get(r));
        double margin = run.sgd.margin(run.x);
        margins.add(Double.doubleToRawLongBits(margin));
        run.sgd.accumulate(run.x, loss.derivative(margin, label));
        if (run.sgd.batchFull()) {
          run.sgd.update();
        }
      }
      assertThat(margins).as("row %d", i).containsOnly(margins.get(0));
    }
    PartitionSGD sparse = runs.get(2).sgd;
    sparse.update();
    for (Run run : runs.subList(0, 2)) {
      run.sgd.update();
      assertThat(bits(run.sgd.coefficients())).containsExactly(bits(sparse.coefficients()));
      assertThat(Double.doubleToRawLongBits(run.sgd.intercept()))
          .isEqualTo(Double.doubleToRawLongBits(sparse.intercept()));
      assertThat(run.sgd.updates()).isEqualTo(sparse.updates());
      if (sparse.squaredGradients() != null) {
        assertThat(bits(run.sgd.squaredGradients()))
            .containsExactly(bits(sparse.squaredGradients()));
      }
    }
    assertThat(sparse.coefficients()).isNotEqualTo(new double[FEATURES]);
  }

  private static long[] bits(double[] values) {
    return Arrays.stream(values).mapToLong(Double::doubleToRawLongBits).toArray();
  }

  /**
   * Dense rows of another size than the first row's fail the pass, after a dense or a sparse row
   * alike.
   */
  @Test
  void aDenseRowOfAnotherSizeFailsThePass() {
    SGDConfig config = config("invsqrt", 0, 0, 1);
    List<List<InternalRow>> mismatches =
        List.of(
            List.of(denseRow(new double[] {1, 2, 3}), denseRow(new double[] {1, 2, 3, 4})),
            List.of(
                sparseRow(3, new int[] {1}, new double[] {1}), denseRow(new double[] {1, 2, 3, 4})),
            List.of(
                denseRow(new double[] {1, 2, 3}), sparseRow(4, new int[] {1}, new double[] {1})));
    for (List<InternalRow> rows : mismatches) {
      SGDPass pass =
          new SGDPass(
              config,
              0,
              null,
              size ->
                  new PartitionSGD[] {
                    PartitionSGD.create(new double[size], 0, null, config, 0, 0, 1, true, null)
                  },
              true);
      assertThatThrownBy(() -> pass.train(rows.iterator()))
          .isInstanceOf(InvalidTrainingDataException.class)
          .hasMessageContaining(
              "features in column 'features' have size 4 in one row and 3 in another");
    }
  }
}
