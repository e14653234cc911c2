package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.ml.sgd.FeatureScaling;
import io.corgipile.ml.sgd.LossFunction;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.SGDTask;
import io.corgipile.ml.sgd.TrainingRow;
import io.corgipile.ml.sync.FeatureSummary;
import io.corgipile.ml.sync.SGDOptimizer;
import io.corgipile.spark.DatasetInternals;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code standardization}: the summary pass, what gets centered, and training in the scaled space.
 */
class StandardizationTest {
  @TempDir static Path dir;
  private static final StructType SCHEMA =
      new StructType()
          .add("features", SQLDataTypes.VectorType())
          .add("label", DataTypes.DoubleType)
          .add("weight", DataTypes.DoubleType);

  /** Features of very different scales and offsets, one of them constant. */
  private static final double[] SCALE = {1000, 0.001, 1, 0, 3};

  private static final double[] OFFSET = {5000, 0, 50, 7, 0};

  /**
   * Rows of {@link #SCALE}d and offset standard normal features, a logistic label, and weights 0.5
   * to 2.
   */
  private static List<Row> rows(int n, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] x = new double[SCALE.length];
      double margin = 0.3;
      for (int j = 0; j < x.length; j++) {
        double z = random.nextGaussian();
        x[j] = OFFSET[j] + SCALE[j] * z;
        margin += SCALE[j] == 0 ? 0 : TrainingData.trueWeight(j, x.length) * z;
      }
      double label = random.nextDouble() < 1 / (1 + Math.exp(-2 * margin)) ? 1 : 0;
      rows.add(RowFactory.create(Vectors.dense(x), label, 0.5 + 1.5 * random.nextDouble()));
    }
    rows.sort(Comparator.comparingDouble(r -> r.getDouble(1))); // label-sorted, a stable sort
    return rows;
  }

  private static Dataset<Row> frame(List<Row> rows) {
    return TrainingData.spark().createDataFrame(rows, SCHEMA);
  }

  /**
   * The rows in their order in one Parquet file of row groups of 200 rows, read by corgipile in 2
   * partitions.
   */
  private static Dataset<Row> corgipile(List<Row> rows, String name) {
    String path = dir.resolve(name).toString();
    frame(rows).coalesce(1).write().option("parquet.block.row.count.limit", 200).parquet(path);
    return TrainingData.spark().read().format("corgipile").option("partitions", "2").load(path);
  }

  private static FeatureScaling scaling(
      Dataset<Row> data, SGDClassifier classifier, long directBytes) {
    return summary(data, classifier, directBytes).scaling();
  }

  private static FeatureSummary.Result summary(
      Dataset<Row> data, SGDClassifier classifier, long directBytes) {
    SGDConfig config =
        SGDConfig.of(
            classifier,
            SGDTask.CLASSIFICATION,
            "features",
            "label",
            2,
            new LossFunction.Logistic());
    return FeatureSummary.scaling(
        DatasetInternals.internalRows(data.select(TrainingRow.columns(config, data))).toJavaRDD(),
        config,
        directBytes,
        config.seed() == null ? SGDParams.SEED.defaultValue() : config.seed());
  }

  @Test
  void theSummaryDrawsTheCalibrationSampleFromEveryPartitionInARandomOrder() {
    List<Row> rows = rows(4_000, 3); // label-sorted: partition 0 of 2 holds mostly label 0
    double ones = rows.stream().filter(r -> r.getDouble(1) == 1).count() / 4_000.0;
    List<InternalRow> sample =
        summary(frame(rows), new SGDClassifier(), SGDOptimizer.DIRECT_BYTES).sample();

    assertThat(sample).hasSize(SGDParams.DEFAULT_CALIBRATION_ROWS); // 1,000 from each partition
    double sampledOnes =
        sample.stream().filter(r -> TrainingRow.label(r) == 1).count() / (double) sample.size();
    assertThat(sampledOnes).isCloseTo(ones, within(0.05));
    assertThat(sample.subList(0, 100).stream().map(r -> TrainingRow.label(r))).contains(0.0, 1.0);
    assertThat(labels(summary(frame(rows), new SGDClassifier(), 0).sample()))
        .as("the same seed draws the same sample, also when reduced by slices")
        .containsExactly(labels(sample));
    assertThat(
            labels(
                summary(frame(rows), new SGDClassifier().setSeed(5), SGDOptimizer.DIRECT_BYTES)
                    .sample()))
        .isNotEqualTo(labels(sample));
  }

  private static double[] labels(List<InternalRow> sample) {
    return sample.stream().mapToDouble(r -> TrainingRow.label(r)).toArray();
  }

  @Test
  void theScalingIsTheWeightedMeanAndDeviationOfEveryFeatureTheSameWhenReducedBySlices() {
    List<Row> rows = rows(3_000, 1);
    SGDClassifier weighted = new SGDClassifier().setWeightCol("weight");
    FeatureScaling direct = scaling(frame(rows), weighted, SGDOptimizer.DIRECT_BYTES);
    FeatureScaling sliced = scaling(frame(rows), weighted, 0);

    for (int j = 0; j < SCALE.length; j++) {
      double weightSum = 0;
      double sum = 0;
      for (Row r : rows) {
        weightSum += r.getDouble(2);
        sum += r.getDouble(2) * ((Vector) r.get(0)).apply(j);
      }
      double mean = sum / weightSum;
      double squares = 0;
      for (Row r : rows) {
        double d = ((Vector) r.get(0)).apply(j) - mean;
        squares += r.getDouble(2) * d * d;
      }
      double std = Math.sqrt(squares / weightSum);
      if (SCALE[j] == 0) {
        assertThat(direct.inverseStd()[j]).as("a constant feature is left out").isZero();
        assertThat(direct.scaledMean()[j]).isZero();
      } else {
        assertThat(direct.inverseStd()[j]).isCloseTo(1 / std, within(1e-9 / std));
        assertThat(direct.scaledMean()[j])
            .isCloseTo(mean / std, within(1e-9 * (1 + Math.abs(mean / std))));
      }
    }
    assertThat(direct.centered()).isTrue();
    assertThat(sliced.inverseStd()).containsExactly(direct.inverseStd());
    assertThat(sliced.scaledMean()).containsExactly(direct.scaledMean());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "dense with an intercept, true, 0, true",
    "without an intercept, false, 0, false",
    "with L1, true, 0.5, false"
  })
  void featuresAreCenteredOnlyWithAnInterceptAndNoL1(
      String name, boolean fitIntercept, double elasticNet, boolean centered) {
    SGDClassifier classifier =
        new SGDClassifier()
            .setFitIntercept(fitIntercept)
            .setRegParam(0.01)
            .setElasticNetParam(elasticNet);
    assertThat(scaling(frame(rows(500, 2)), classifier, SGDOptimizer.DIRECT_BYTES).centered())
        .isEqualTo(centered);
  }

  @Test
  void sparseFeaturesAreScaledButNotCentered() {
    Random random = new Random(4);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      int[] indices = random.ints(0, 100).distinct().limit(10).sorted().toArray();
      double[] values = random.doubles(10).toArray();
      rows.add(
          RowFactory.create(Vectors.sparse(100, indices, values), (double) random.nextInt(2), 1.0));
    }
    FeatureScaling scaling = scaling(frame(rows), new SGDClassifier(), SGDOptimizer.DIRECT_BYTES);
    assertThat(scaling.centered()).isFalse();
    // values uniform in [0, 1) in a tenth of the rows: deviation about 0.18
    assertThat(java.util.Arrays.stream(scaling.inverseStd()).min().getAsDouble()).isGreaterThan(4);
  }

  /**
   * The model trained on raw features under standardization is, in the original scale, the model
   * trained without it on features standardized beforehand: the driver's conversion, the centering
   * and the iterate averaging all agree with plain arithmetic.
   */
  @ParameterizedTest(name = "syncInterval {0}")
  @CsvSource({"epoch", "buffer"})
  void trainingOnRawFeaturesEqualsTrainingOnFeaturesStandardizedBeforehand(String syncInterval) {
    List<Row> raw = rows(3_000, 3);
    FeatureScaling scaling = scaling(frame(raw), new SGDClassifier(), SGDOptimizer.DIRECT_BYTES);
    List<Row> standardized = new ArrayList<>();
    for (Row r : raw) {
      double[] x =
          ((Vector) r.get(0)).toArray().clone(); // toArray of a dense vector is its own array
      for (int j = 0; j < x.length; j++) {
        x[j] = x[j] * scaling.inverseStd()[j] - scaling.scaledMean()[j];
      }
      standardized.add(RowFactory.create(Vectors.dense(x), r.get(1), r.get(2)));
    }

    SGDClassifier classifier =
        new SGDClassifier().setMaxIter(3).setTol(0).setRegParam(0.01).setSyncInterval(syncInterval);
    SGDClassificationModel onRaw = classifier.fit(corgipile(raw, "raw-" + syncInterval));
    SGDClassificationModel onStandardized =
        classifier
            .copy(new org.apache.spark.ml.param.ParamMap())
            .setStandardization(false)
            .fit(corgipile(standardized, "standardized-" + syncInterval));

    double[] w = onStandardized.coefficients().toArray();
    double intercept = onStandardized.intercept();
    for (int j = 0; j < w.length; j++) {
      intercept -= w[j] * scaling.scaledMean()[j];
      double expected = w[j] * scaling.inverseStd()[j];
      assertThat(onRaw.coefficients().apply(j))
          .isCloseTo(expected, within(1e-7 * (1e-9 + Math.abs(expected))));
    }
    assertThat(onRaw.intercept()).isCloseTo(intercept, within(1e-7 * (1 + Math.abs(intercept))));
    assertThat(onRaw.coefficients().apply(3)).isZero();
    assertThat(onRaw.summary().objectiveHistory()).hasSize(3);
    for (int e = 0; e < 3; e++) {
      assertThat(onRaw.summary().objectiveHistory()[e])
          .isCloseTo(onStandardized.summary().objectiveHistory()[e], within(1e-9));
    }
  }

  /**
   * Features a thousand times apart in scale train as MLlib's LogisticRegression does, with no
   * StandardScaler.
   */
  @Test
  void unscaledFeaturesTrainWithTheDefaults() {
    Dataset<Row> train = frame(rows(20_000, 5)).cache();
    Dataset<Row> test = frame(rows(10_000, 6)).cache();
    MulticlassClassificationEvaluator accuracy =
        new MulticlassClassificationEvaluator().setMetricName("accuracy");
    double sgd = accuracy.evaluate(new SGDClassifier().setMaxIter(5).fit(train).transform(test));
    double unscaled =
        accuracy.evaluate(
            new SGDClassifier()
                .setMaxIter(5)
                .setStandardization(false)
                .setStepSize(1e-7)
                .fit(train)
                .transform(test));
    double mllib = accuracy.evaluate(new LogisticRegression().fit(train).transform(test));
    assertThat(sgd).isCloseTo(mllib, within(0.005));
    assertThat(unscaled).isLessThan(mllib - 0.05);
  }
}
