package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.randn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.ml.common.FitJobs;
import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.SGDTask;
import io.corgipile.ml.sgd.Softmax;
import io.corgipile.ml.sync.SGDOptimizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.classification.LogisticRegressionModel;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multinomial (softmax) classification: the loss, the family and its classes, the model, saving and
 * loading.
 */
class MultinomialTest {
  private static final int CLASSES = 4;
  private static final int FEATURES = 5;

  private static Dataset<Row> train;
  private static Dataset<Row> test;
  private static SGDClassificationModel model;

  @BeforeAll
  static void fit() {
    train = clusters(6_000, CLASSES, FEATURES, 1, 2);
    test = clusters(3_000, CLASSES, FEATURES, 2, 2);
    model = new SGDClassifier().setSeed(7).fit(train);
  }

  /**
   * Columns {@code x0..x<n-1>}, {@code label} and {@code features}: {@code classes} overlapping
   * Gaussian clusters (unit variance, centers 1.5 apart per coordinate that tells them apart),
   * label {@code id % classes}.
   */
  static Dataset<Row> clusterColumns(
      long rows, int classes, int features, long seed, int partitions) {
    List<Column> columns =
        new ArrayList<>(
            List.of(col("id"), expr("cast(id % " + classes + " as double)").as("label")));
    for (int j = 0; j < features; j++) {
      columns.add(
          randn(seed * 100 + j)
              .plus(expr("(pmod(id % " + classes + " * 7 + " + (j * 3) + ", 5) - 2) * 0.75"))
              .as("x" + j));
    }
    return TrainingData.spark()
        .range(0, rows, 1, partitions)
        .select(columns.toArray(new Column[0]));
  }

  static Dataset<Row> clusters(long rows, int classes, int features, long seed, int partitions) {
    return new VectorAssembler()
        .setInputCols(TrainingData.featureNames(features))
        .setOutputCol("features")
        .transform(clusterColumns(rows, classes, features, seed, partitions));
  }

  private static double accuracy(Dataset<Row> predictions) {
    return new MulticlassClassificationEvaluator().setMetricName("accuracy").evaluate(predictions);
  }

  // ---- the loss

  @Test
  void softmaxDerivativesMatchFiniteDifferences() {
    Random random = new Random(3);
    Softmax softmax = new Softmax(5);
    for (int trial = 0; trial < 20; trial++) {
      double[] m = new double[5];
      for (int k = 0; k < m.length; k++) {
        m[k] = 4 * random.nextGaussian();
      }
      int label = random.nextInt(5);
      double[] derivatives = new double[5];
      double loss = softmax.lossAndDerivatives(m, label, derivatives);
      assertThat(loss).isCloseTo(logSumExp(m) - m[label], within(1e-12));
      for (int k = 0; k < m.length; k++) {
        double h = 1e-6;
        double[] up = m.clone();
        double[] down = m.clone();
        up[k] += h;
        down[k] -= h;
        double numeric =
            (softmax.lossAndDerivatives(up, label, new double[5])
                    - softmax.lossAndDerivatives(down, label, new double[5]))
                / (2 * h);
        assertThat(derivatives[k])
            .as("derivative %d of trial %d", k, trial)
            .isCloseTo(numeric, within(1e-7));
      }
    }
  }

  /** Plain log-sum-exp, fine for the moderate margins it is compared on. */
  private static double logSumExp(double[] m) {
    return Math.log(Arrays.stream(m).map(Math::exp).sum());
  }

  @Test
  void softmaxStaysFiniteOnHugeMargins() {
    double[] derivatives = new double[3];
    double loss =
        new Softmax(3).lossAndDerivatives(new double[] {1000, -1000, 999}, 2, derivatives);
    assertThat(loss).isCloseTo(Math.log1p(Math.exp(-1)) + 1, within(1e-12));
    assertThat(derivatives[0] + derivatives[1] + derivatives[2]).isCloseTo(0, within(1e-15));
    assertThat(derivatives[1]).isEqualTo(0);
  }

  // ---- training

  @Test
  void defaultsReachLogisticRegressionMultinomial() {
    LogisticRegressionModel lr = new LogisticRegression().setFamily("multinomial").fit(train);
    double lrAccuracy = accuracy(lr.transform(test));
    double sgdAccuracy = accuracy(model.transform(test));

    assertThat(model.isMultinomial()).isTrue();
    assertThat(sgdAccuracy).isGreaterThan(lrAccuracy - 0.01);
  }

  /**
   * With L2 the objective has one minimum, the same for both (the penalty on the standardized
   * coefficients, the intercepts free): the softmax gradient, the penalty and the way back to the
   * original scale are right when the coefficients meet. Without it, SGD's probabilities stay less
   * sure than the maximum likelihood's within 10 epochs (test log loss 0.27 against 0.21 here),
   * though its decisions are as good.
   */
  @Test
  void reachesLogisticRegressionsMinimumOfTheSameRegularizedObjective() {
    LogisticRegressionModel lr =
        new LogisticRegression().setFamily("multinomial").setRegParam(0.05).fit(train);
    SGDClassificationModel sgd =
        new SGDClassifier().setSeed(7).setRegParam(0.05).setMaxIter(30).setTol(0).fit(train);
    double[] theirs = lr.coefficientMatrix().toArray();
    double[] ours = sgd.coefficientMatrix().toArray();
    for (int i = 0; i < ours.length; i++) {
      assertThat(ours[i]).as("coefficient %d", i).isCloseTo(theirs[i], within(0.03));
    }
    for (int k = 0; k < CLASSES; k++) {
      assertThat(sgd.interceptVector().apply(k))
          .isCloseTo(lr.interceptVector().apply(k), within(0.03));
    }
  }

  @Test
  void classSortedDataOverCorgipileTrainsAsWellAsTheShuffledData(@TempDir Path dir) {
    String path = dir.resolve("sorted").toString();
    train
        .orderBy("label", "id")
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 200)
        .parquet(path);
    Dataset<Row> sorted =
        TrainingData.spark().read().format("corgipile").option("partitions", "2").load(path);

    double onSorted = accuracy(new SGDClassifier().setSeed(7).fit(sorted).transform(test));
    assertThat(onSorted).isGreaterThan(accuracy(model.transform(test)) - 0.01);
  }

  @Test
  void theSameSeedGivesTheSameModelBitForBit() {
    SGDClassificationModel again = new SGDClassifier().setSeed(7).fit(train);
    assertThat(again.coefficientMatrix().toArray())
        .containsExactly(model.coefficientMatrix().toArray());
    assertThat(again.interceptVector().toArray())
        .containsExactly(model.interceptVector().toArray());
  }

  @Test
  void reducingBySlicesGivesTheCollectedModelBitForBit() {
    SGDClassifier estimator =
        new SGDClassifier().setMaxIter(2).setTol(0).setDeltaCompression("int8");
    SGDConfig config =
        SGDConfig.of(
            estimator, SGDTask.CLASSIFICATION, "features", "label", CLASSES, new Softmax(CLASSES));
    // in a fit's jobs, as the estimators run the optimizer: the thread's scope is restored after
    LinearFit collected =
        FitJobs.run(train, "test", () -> new SGDOptimizer(config, Long.MAX_VALUE).optimize(train));
    LinearFit reduced =
        FitJobs.run(train, "test", () -> new SGDOptimizer(config, 0).optimize(train));
    assertThat(reduced.coefficientMatrix().toArray())
        .containsExactly(collected.coefficientMatrix().toArray());
    assertThat(reduced.interceptVector().toArray())
        .containsExactly(collected.interceptVector().toArray());
  }

  @Test
  void standardizationReportsEveryClassInTheOriginalScale() {
    // x' = 10 x + 3: training sees the same standardized features, so the same probabilities
    Dataset<Row> columns = clusterColumns(2_000, 3, 3, 5, 2);
    Dataset<Row> shifted = columns;
    for (String x : TrainingData.featureNames(3)) {
      shifted = shifted.withColumn(x, col(x).multiply(10).plus(3));
    }
    VectorAssembler assembler =
        new VectorAssembler().setInputCols(TrainingData.featureNames(3)).setOutputCol("features");
    SGDClassifier estimator = new SGDClassifier().setMaxIter(3).setTol(0);
    SGDClassificationModel plain = estimator.fit(assembler.transform(columns));
    SGDClassificationModel scaled = estimator.fit(assembler.transform(shifted));

    double[] w = plain.coefficientMatrix().toArray(); // column-major
    double[] ws = scaled.coefficientMatrix().toArray();
    for (int i = 0; i < w.length; i++) {
      assertThat(ws[i] * 10).isCloseTo(w[i], within(1e-6 * (1 + Math.abs(w[i]))));
    }
    Vector x = Vectors.dense(0.3, -1.2, 2.0);
    Vector xs = Vectors.dense(6, -9, 23);
    double[] p = plain.predictProbability(x).toArray();
    double[] ps = scaled.predictProbability(xs).toArray();
    for (int k = 0; k < 3; k++) {
      assertThat(ps[k]).isCloseTo(p[k], within(1e-6));
    }
  }

  // ---- the classes

  @Test
  void theClassesComeFromTheLargestLabel() {
    SGDClassificationModel five =
        new SGDClassifier().setMaxIter(1).fit(clusters(1_000, 5, 3, 9, 2));
    assertThat(five.numClasses()).isEqualTo(5);
    assertThat(five.coefficientMatrix().numRows()).isEqualTo(5);
    assertThat(five.coefficientMatrix().numCols()).isEqualTo(3);
    assertThat(five.interceptVector().size()).isEqualTo(5);
  }

  @Test
  void theClassesComeFromTheLabelMetadataWhenItHasThem() {
    Dataset<Row> withMetadata =
        train.withColumn(
            "label",
            col("label")
                .as(
                    "label",
                    NominalAttribute.defaultAttr()
                        .withName("label")
                        .withNumValues(6)
                        .toMetadata()));
    SGDClassificationModel six = new SGDClassifier().setMaxIter(1).fit(withMetadata);
    assertThat(six.numClasses()).isEqualTo(6);
    assertThat(six.predictProbability(Vectors.dense(new double[FEATURES])).size()).isEqualTo(6);
  }

  @Test
  void familyPicksOneMarginOrOnePerClass() {
    Dataset<Row> binary = train.where("label < 2");
    SGDClassificationModel auto = new SGDClassifier().setMaxIter(1).fit(binary);
    assertThat(auto.isMultinomial()).isFalse();
    assertThat(auto.numClasses()).isEqualTo(2);
    assertThat(auto.coefficientMatrix().numRows()).isEqualTo(1);
    assertThat(auto.coefficientMatrix().toArray()).containsExactly(auto.coefficients().toArray());
    assertThat(auto.interceptVector().toArray()).containsExactly(auto.intercept());

    SGDClassificationModel two =
        new SGDClassifier().setMaxIter(1).setFamily("multinomial").fit(binary);
    assertThat(two.isMultinomial()).isTrue();
    assertThat(two.numClasses()).isEqualTo(2);
    assertThat(two.coefficientMatrix().numRows()).isEqualTo(2);
    assertThat(accuracy(two.transform(binary)))
        .isCloseTo(accuracy(auto.transform(binary)), within(0.02));
  }

  @Test
  void binomialRefusesAThirdClassNamingTheLabel() {
    assertThatThrownBy(() -> new SGDClassifier().setFamily("binomial").fit(train))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessageStartingWith("Cannot train SGDClassifier: a row has label ")
        .hasMessageContaining(
            "in column 'label'; allowed labels are 0 and 1; set handleInvalid to 'skip'");
  }

  @Test
  void aLabelOutsideTheClassesIsAnErrorNamingItsValueOrSkipped() {
    Dataset<Row> withMetadata =
        train.withColumn(
            "label",
            col("label")
                .as(
                    "label",
                    NominalAttribute.defaultAttr()
                        .withName("label")
                        .withNumValues(3)
                        .toMetadata()));
    assertThatThrownBy(() -> new SGDClassifier().setMaxIter(1).fit(withMetadata))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train SGDClassifier: a row has label 3.0 in column 'label'; allowed labels are"
                + " the integers 0 to 2; set handleInvalid to 'skip' to leave such rows out");

    Dataset<Row> fractional =
        train.withColumn("label", expr("case when id = 17 then 1.5 else label end"));
    assertThatThrownBy(() -> new SGDClassifier().setMaxIter(1).fit(fractional))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessageContaining(
            "a row has label 1.5 in column 'label'; allowed labels are the integers 0 to 3");

    SGDClassificationModel skipping =
        new SGDClassifier().setMaxIter(1).setHandleInvalid("skip").fit(fractional);
    assertThat(skipping.numClasses()).isEqualTo(CLASSES);
    assertThat(skipping.summary().skippedRows()).isEqualTo(1);
  }

  @Test
  void aHugeLabelIsAnErrorRatherThanAHugeModel() {
    Dataset<Row> stray =
        train.withColumn("label", expr("case when id = 5 then 1e6 else label end"));
    assertThatThrownBy(() -> new SGDClassifier().setMaxIter(1).fit(stray))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train SGDClassifier: column 'label' has label 1000000.0, which makes 1000001"
                + " classes; at most "
                + SGDClassifierParams.MAX_CLASSES
                + " are supported (labels are 0..K-1)");
  }

  @Test
  void hingeIsBinaryAndSaysSo() {
    assertThatThrownBy(
            () -> new SGDClassifier().setLoss("hinge").setFamily("multinomial").fit(train))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot train SGDClassifier: loss 'hinge' is binary (labels 0 and 1), so family"
                + " 'multinomial' needs loss 'logistic'");
    assertThatThrownBy(() -> new SGDClassifier().setLoss("hinge").fit(train))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train SGDClassifier: loss 'hinge' is binary (labels 0 and 1), but column"
                + " 'label' names 4 classes; use loss 'logistic' for a multinomial model");
  }

  // ---- the model

  @Test
  void predictionsAreSoftmaxOfTheMarginsAndTheirArgmax() {
    Row row =
        model
            .transform(test)
            .select("features", "rawPrediction", "probability", "prediction")
            .head();
    Vector x = row.getAs(0);
    Vector raw = row.getAs(1);
    Vector p = row.getAs(2);
    Matrix w = model.coefficientMatrix();
    assertThat(raw.size()).isEqualTo(CLASSES);
    assertThat(p.size()).isEqualTo(CLASSES);
    double sum = 0;
    int argmax = 0;
    for (int k = 0; k < CLASSES; k++) {
      double margin = model.interceptVector().apply(k);
      for (int j = 0; j < FEATURES; j++) {
        margin += w.apply(k, j) * x.apply(j);
      }
      assertThat(raw.apply(k)).isCloseTo(margin, within(1e-12));
      sum += Math.exp(raw.apply(k));
      argmax = raw.apply(k) > raw.apply(argmax) ? k : argmax;
    }
    for (int k = 0; k < CLASSES; k++) {
      assertThat(p.apply(k)).isCloseTo(Math.exp(raw.apply(k)) / sum, within(1e-12));
    }
    assertThat(row.getDouble(3)).isEqualTo(argmax);
  }

  @Test
  void thresholdsOfOnePerClassShiftThePredictions() {
    SGDClassificationModel favouring =
        model.copy(ParamMap.empty()).setThresholds(new double[] {0.01, 1, 1, 1});
    long zeros = model.transform(test).where("prediction = 0").count();
    long favoured = favouring.transform(test).where("prediction = 0").count();
    assertThat(favoured).isGreaterThan(zeros);
  }

  @Test
  void aMultinomialModelHasNoSingleCoefficientVector() {
    assertThatThrownBy(model::coefficients)
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot get the coefficients of "
                + model.uid()
                + ": a multinomial model has a matrix of them,"
                + " one row per class; use coefficientMatrix and interceptVector");
    assertThatThrownBy(model::intercept).isExactlyInstanceOf(IllegalStateException.class);
    assertThat(model.toString()).contains("loss=softmax, numClasses=4, numFeatures=5");
  }

  @Test
  void theSummaryKeepsEveryEpochsMatrix() {
    SGDTrainingSummary summary = model.summary();
    Matrix[] history = summary.coefficientMatrixHistory();
    assertThat(history).hasSize(summary.totalIterations());
    assertThat(history[history.length - 1].toArray())
        .containsExactly(model.coefficientMatrix().toArray());
    assertThat(summary.interceptVectorHistory()[history.length - 1].toArray())
        .containsExactly(model.interceptVector().toArray());
    assertThatThrownBy(summary::coefficientsHistory)
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot get coefficientsHistory of a multinomial model: it has 4 rows of coefficients;"
                + " use coefficientMatrixHistory");
  }

  // ---- saving and loading

  @Test
  void aMultinomialModelSavesAndLoads(@TempDir Path dir) throws IOException {
    String path = dir.resolve("model").toString();
    model.write().save(path);
    SGDClassificationModel loaded = SGDClassificationModel.load(path);

    assertThat(loaded.uid()).isEqualTo(model.uid());
    assertThat(loaded.numClasses()).isEqualTo(CLASSES);
    assertThat(loaded.coefficientMatrix().toArray())
        .containsExactly(model.coefficientMatrix().toArray());
    assertThat(loaded.interceptVector().toArray())
        .containsExactly(model.interceptVector().toArray());
    assertThat(loaded.transform(test).select("probability", "prediction").collectAsList())
        .isEqualTo(model.transform(test).select("probability", "prediction").collectAsList());
  }

  /**
   * Saved by commit 4077e3f, before multinomial models: coefficients (0.5, -1.25, 2), intercept
   * 0.75, threshold 0.4.
   */
  @Test
  void aBinaryModelSavedBeforeMultinomialModelsStillLoads() {
    String path =
        Path.of("src/test/resources/models/binary-classifier-4077e3f").toAbsolutePath().toString();
    SGDClassificationModel loaded = SGDClassificationModel.load(path);

    assertThat(loaded.uid()).isEqualTo("sgdClassifier_saved_at_4077e3f");
    assertThat(loaded.isMultinomial()).isFalse();
    assertThat(loaded.coefficients().toArray()).containsExactly(0.5, -1.25, 2.0);
    assertThat(loaded.intercept()).isEqualTo(0.75);
    assertThat(loaded.getThreshold()).isEqualTo(0.4);
    assertThat(loaded.getFamily()).isEqualTo("auto");
    assertThat(loaded.predict(Vectors.dense(1, 0, 0))).isEqualTo(1.0);
  }

  @Test
  void aPipelineCrossValidatesAndSavesAMultinomialModel(@TempDir Path dir) throws IOException {
    SGDClassifier sgd = new SGDClassifier().setMaxIter(3).setSeed(3);
    Pipeline pipeline =
        new Pipeline()
            .setStages(
                new PipelineStage[] {
                  new VectorAssembler()
                      .setInputCols(TrainingData.featureNames(FEATURES))
                      .setOutputCol("features"),
                  sgd
                });
    CrossValidator cv =
        new CrossValidator()
            .setEstimator(pipeline)
            .setNumFolds(2)
            .setSeed(1)
            .setEvaluator(new MulticlassClassificationEvaluator().setMetricName("accuracy"))
            .setEstimatorParamMaps(
                new ParamGridBuilder().addGrid(sgd.regParam(), new double[] {0, 0.01}).build());
    Dataset<Row> columns = clusterColumns(2_000, CLASSES, FEATURES, 4, 2);
    CrossValidatorModel fitted = cv.fit(columns);
    PipelineModel best = (PipelineModel) fitted.bestModel();
    assertThat(((SGDClassificationModel) best.stages()[1]).numClasses()).isEqualTo(CLASSES);

    String path = dir.resolve("pipeline").toString();
    best.write().save(path);
    PipelineModel loaded = PipelineModel.load(path);
    Dataset<Row> testColumns = clusterColumns(500, CLASSES, FEATURES, 6, 2);
    assertThat(loaded.transform(testColumns).select("prediction").collectAsList())
        .isEqualTo(best.transform(testColumns).select("prediction").collectAsList());
    assertThat(accuracy(loaded.transform(testColumns))).isGreaterThan(0.5);
  }
}
