package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Array;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamPair;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Estimators, models and pipelines holding them survive save and load, and copy, with nothing lost.
 */
class PersistenceTest {
  private static final int FEATURES = 4;
  private static final String[] CLASSIFIER_OUTPUTS = {"prediction", "probability", "rawPrediction"};

  /** Non-default values of the params both estimators have. */
  private static final Map<String, Object> COMMON =
      values(
          "maxIter",
          7,
          "tol",
          1e-3,
          "stepSize",
          0.05,
          "stepSchedule",
          "invsqrt",
          "decayRate",
          0.9,
          "batchSize",
          8,
          "regParam",
          0.01,
          "elasticNetParam",
          0.5,
          "fitIntercept",
          false,
          "weightCol",
          "w",
          "seed",
          123L,
          "handleInvalid",
          "skip",
          "featuresCol",
          "f",
          "labelCol",
          "y",
          "predictionCol",
          "yhat");

  private static final Map<String, Object> CLASSIFIER_ONLY =
      values(
          "loss",
          "hinge",
          "family",
          "binomial",
          "threshold",
          0.6,
          "thresholds",
          new double[] {0.3, 0.7},
          "probabilityCol",
          "p",
          "rawPredictionCol",
          "r");
  private static final Map<String, Object> REGRESSOR_ONLY = values("loss", "huber", "epsilon", 2.0);

  private static Dataset<Row> classificationTest;
  private static Dataset<Row> regressionTest;
  private static SGDClassificationModel classifierModel;
  private static SGDRegressionModel regressorModel;

  @BeforeAll
  static void fitModels() {
    classificationTest = TrainingData.logistic(500, FEATURES, 32, 2);
    regressionTest = TrainingData.linear(500, FEATURES, 34, 2);
    classifierModel =
        new SGDClassifier()
            .setMaxIter(3)
            .setStepSize(0.05)
            .setThreshold(0.6)
            .fit(TrainingData.logistic(1500, FEATURES, 31, 2));
    regressorModel =
        new SGDRegressor()
            .setMaxIter(3)
            .setStepSize(0.05)
            .setLoss("huber")
            .fit(TrainingData.linear(1500, FEATURES, 33, 2));
  }

  // ---- estimators

  @Test
  void classifierKeepsAllParamsThroughSaveAndLoad(@TempDir Path dir) {
    SGDClassifier classifier = withNonDefaults(new SGDClassifier(), CLASSIFIER_ONLY);
    SGDClassifier loaded = saveAndLoad(classifier, dir, SGDClassifier::load);

    assertSameParams(loaded, classifier);
    assertHasValues(loaded, COMMON);
    assertHasValues(loaded, CLASSIFIER_ONLY);
  }

  @Test
  void regressorKeepsAllParamsThroughSaveAndLoad(@TempDir Path dir) {
    SGDRegressor regressor = withNonDefaults(new SGDRegressor(), REGRESSOR_ONLY);
    SGDRegressor loaded = saveAndLoad(regressor, dir, SGDRegressor::load);

    assertSameParams(loaded, regressor);
    assertHasValues(loaded, COMMON);
    assertHasValues(loaded, REGRESSOR_ONLY);
  }

  @Test
  void estimatorCopyKeepsParamsAndExtraOverrides() {
    assertCopyKeepsParams(withNonDefaults(new SGDClassifier(), CLASSIFIER_ONLY), "threshold", 0.9);
    assertCopyKeepsParams(withNonDefaults(new SGDRegressor(), REGRESSOR_ONLY), "epsilon", 3.0);
  }

  /**
   * copy() keeps every param; copy(extra) overrides regParam and {@code param} and leaves the
   * original alone.
   */
  private static void assertCopyKeepsParams(Params original, String param, Object value) {
    Map<String, Object> before = paramValues(original);

    Params plain = original.copy(ParamMap.empty());
    assertThat(plain).isNotSameAs(original);
    assertSameParams(plain, original);

    Map<String, Object> overrides = values("regParam", 0.3, param, value);
    Params overridden = original.copy(paramMap(original, overrides));
    assertHasValues(overridden, overrides);
    Map<String, Object> expected = new TreeMap<>(before);
    overrides.forEach((name, v) -> expected.put(name + "=", v));
    assertThat(paramValues(overridden)).isEqualTo(expected);
    assertThat(paramValues(original)).isEqualTo(before);
  }

  // ---- models

  @Test
  void classifierModelSavesAndLoadsWithIdenticalPredictions(@TempDir Path dir) {
    SGDClassificationModel loaded = saveAndLoad(classifierModel, dir, SGDClassificationModel::load);

    assertSameParams(loaded, classifierModel);
    assertThat(loaded.getThreshold()).isEqualTo(0.6);
    assertThat(loaded.coefficients()).isEqualTo(classifierModel.coefficients());
    assertThat(loaded.intercept()).isEqualTo(classifierModel.intercept());
    assertSameOutput(loaded, classifierModel, classificationTest, CLASSIFIER_OUTPUTS);
    assertHasNoSummary(loaded.hasSummary(), loaded::summary);
  }

  @Test
  void regressorModelSavesAndLoadsWithIdenticalPredictions(@TempDir Path dir) {
    SGDRegressionModel loaded = saveAndLoad(regressorModel, dir, SGDRegressionModel::load);

    assertSameParams(loaded, regressorModel);
    assertThat(loaded.getLoss()).isEqualTo("huber");
    assertThat(loaded.coefficients()).isEqualTo(regressorModel.coefficients());
    assertThat(loaded.intercept()).isEqualTo(regressorModel.intercept());
    assertSameOutput(loaded, regressorModel, regressionTest, "prediction");
    assertHasNoSummary(loaded.hasSummary(), loaded::summary);
  }

  private static void assertHasNoSummary(boolean hasSummary, Runnable summary) {
    assertThat(hasSummary).isFalse();
    assertThatThrownBy(summary::run)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a loaded or created model does not");
  }

  @Test
  void classifierModelCopyKeepsCoefficientsAndSummary() {
    SGDClassificationModel copy =
        classifierModel.copy(paramMap(classifierModel, values("threshold", 0.9)));

    assertThat(copy).isNotSameAs(classifierModel);
    assertThat(copy.uid()).isEqualTo(classifierModel.uid());
    assertThat(copy.parent()).isSameAs(classifierModel.parent()).isNotNull();
    assertThat(copy.coefficients()).isEqualTo(classifierModel.coefficients());
    assertThat(copy.intercept()).isEqualTo(classifierModel.intercept());
    assertThat(copy.getThreshold()).isEqualTo(0.9);
    assertThat(classifierModel.getThreshold()).isEqualTo(0.6);
    assertThat(copy.hasSummary()).isTrue();
    assertThat(copy.summary().objectiveHistory())
        .containsExactly(classifierModel.summary().objectiveHistory());
  }

  @Test
  void regressorModelCopyKeepsCoefficientsAndSummary() {
    SGDRegressionModel copy = regressorModel.copy(ParamMap.empty());

    assertThat(copy).isNotSameAs(regressorModel);
    assertSameParams(copy, regressorModel);
    assertThat(copy.parent()).isSameAs(regressorModel.parent()).isNotNull();
    assertThat(copy.coefficients()).isEqualTo(regressorModel.coefficients());
    assertThat(copy.intercept()).isEqualTo(regressorModel.intercept());
    assertThat(copy.hasSummary()).isTrue();
    assertThat(copy.summary().objectiveHistory())
        .containsExactly(regressorModel.summary().objectiveHistory());
  }

  // ---- pipelines

  @Test
  void classifierPipelineAndItsModelSaveAndLoad(@TempDir Path dir) {
    assertPipelineRoundTrip(
        new SGDClassifier().setMaxIter(3).setStepSize(0.05).setThreshold(0.6).setRegParam(0.01),
        TrainingData.logisticColumns(1500, FEATURES, 35, 2),
        TrainingData.logisticColumns(500, FEATURES, 36, 2),
        dir,
        CLASSIFIER_OUTPUTS);
  }

  @Test
  void regressorPipelineAndItsModelSaveAndLoad(@TempDir Path dir) {
    assertPipelineRoundTrip(
        new SGDRegressor().setMaxIter(3).setStepSize(0.05).setLoss("huber").setEpsilon(0.8),
        TrainingData.linearColumns(1500, FEATURES, 37, 2),
        TrainingData.linearColumns(500, FEATURES, 38, 2),
        dir,
        "prediction");
  }

  /**
   * The unfitted pipeline of {@code predictor} saves and loads with every stage's params, and the
   * loaded one trains the same model; the fitted pipeline saves and loads and predicts the same.
   */
  private static void assertPipelineRoundTrip(
      PipelineStage predictor, Dataset<Row> train, Dataset<Row> test, Path dir, String... outputs) {
    Pipeline pipeline = TrainingData.scaledPipeline(FEATURES, predictor);
    Pipeline loadedPipeline = saveAndLoad(pipeline, dir.resolve("pipeline"), Pipeline::load);
    assertThat(loadedPipeline.getStages()).hasSameSizeAs(pipeline.getStages());
    for (int i = 0; i < pipeline.getStages().length; i++) {
      assertSameParams(loadedPipeline.getStages()[i], pipeline.getStages()[i]);
    }

    PipelineModel model = pipeline.fit(train);
    PipelineModel loadedModel = saveAndLoad(model, dir.resolve("model"), PipelineModel::load);
    Transformer last = model.stages()[model.stages().length - 1];
    Transformer loadedLast = loadedModel.stages()[loadedModel.stages().length - 1];
    assertThat(loadedLast).isInstanceOf(last.getClass());
    assertSameParams(loadedLast, last);
    assertSameOutput(loadedModel, model, test, outputs);
    assertSameOutput(loadedPipeline.fit(train), model, test, outputs);
  }

  // ---- helpers

  private static <T extends MLWritable> T saveAndLoad(
      T instance, Path dir, Function<String, T> load) {
    String path = dir.resolve("saved").toString();
    try {
      instance.write().overwrite().save(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return load.apply(path);
  }

  /**
   * {@code transform} of both gives exactly the same {@code columns} on every row of {@code data}.
   */
  private static void assertSameOutput(
      Transformer actual, Transformer expected, Dataset<Row> data, String... columns) {
    List<Row> expectedRows = output(expected, data, columns);
    assertThat(expectedRows).hasSize((int) data.count());
    assertThat(output(actual, data, columns)).isEqualTo(expectedRows);
  }

  private static List<Row> output(Transformer model, Dataset<Row> data, String... columns) {
    return model.transform(data).select("id", columns).orderBy("id").collectAsList();
  }

  private static <T extends Params> T withNonDefaults(T params, Map<String, Object> specific) {
    Map<String, Object> all = new LinkedHashMap<>(COMMON);
    all.putAll(specific);
    all.forEach((name, value) -> params.set(params.getParam(name), value));
    return params;
  }

  private static ParamMap paramMap(Params owner, Map<String, Object> values) {
    ParamMap map = new ParamMap();
    values.forEach((name, value) -> map.put(owner.getParam(name), value));
    return map;
  }

  /** {@code params} has each of {@code expected} explicitly set to that value. */
  private static void assertHasValues(Params params, Map<String, Object> expected) {
    expected.forEach(
        (name, value) -> {
          Param<Object> param = params.getParam(name);
          assertThat(params.isSet(param)).as(name).isTrue();
          assertThat(comparable(params.getOrDefault(param))).as(name).isEqualTo(comparable(value));
        });
  }

  /**
   * Same class, uid and param map (each param's value, and whether it is set or only defaulted).
   */
  private static void assertSameParams(Params actual, Params expected) {
    assertThat(actual).isInstanceOf(expected.getClass());
    assertThat(actual.uid()).isEqualTo(expected.uid());
    assertThat(paramValues(actual)).isEqualTo(paramValues(expected));
  }

  /** {@code extractParamMap} by name: "name=" for a set param, "name~" for a defaulted one. */
  private static Map<String, Object> paramValues(Params params) {
    Map<String, Object> values = new TreeMap<>();
    for (ParamPair<?> pair : params.extractParamMap().toList()) {
      Param<?> param = pair.param();
      assertThat(param.parent()).isEqualTo(params.uid());
      values.put(param.name() + (params.isSet(param) ? "=" : "~"), comparable(pair.value()));
    }
    return values;
  }

  /** Arrays as lists, so that equal values compare equal. */
  private static Object comparable(Object value) {
    if (value == null || !value.getClass().isArray()) {
      return value;
    }
    List<Object> list = new ArrayList<>();
    for (int i = 0; i < Array.getLength(value); i++) {
      list.add(Array.get(value, i));
    }
    return list;
  }

  private static Map<String, Object> values(Object... namesAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return map;
  }
}
