package io.corgipile.ml.sgd;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDRegressionModel;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.TrainingData;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code featuresCols}: training on numeric columns, without a vector column, gives the model a
 * vector of the same values gives, bit for bit; the model predicts from the columns; bad columns
 * and bad values are named.
 */
class FeatureColumnsTest {
  private static final int FEATURES = 4;
  private static final String[] NAMES = TrainingData.featureNames(FEATURES);

  private static Dataset<Row> columns;
  private static Dataset<Row> assembled;

  @BeforeAll
  static void data() {
    columns = TrainingData.logisticColumns(4_000, FEATURES, 11, 3).drop("margin").cache();
    assembled =
        new VectorAssembler()
            .setInputCols(NAMES)
            .setOutputCol("features")
            .transform(columns)
            .cache();
  }

  private static SGDClassifier classifier() {
    return new SGDClassifier().setSeed(5).setMaxIter(3).setStepSize(0.1);
  }

  @Test
  void classifierOnColumnsEqualsClassifierOnTheirVector() {
    SGDClassificationModel onVector = classifier().fit(assembled);
    SGDClassificationModel onColumns = classifier().setFeaturesCols(NAMES).fit(columns);

    assertThat(onColumns.coefficients().toArray())
        .containsExactly(onVector.coefficients().toArray());
    assertThat(onColumns.intercept()).isEqualTo(onVector.intercept());
    assertThat(onColumns.summary().objectiveHistory())
        .containsExactly(onVector.summary().objectiveHistory());
    assertThat(onColumns.numFeatures()).isEqualTo(FEATURES);
  }

  @Test
  void regressorWithWeightsAndUnstandardizedOnColumnsEqualsRegressorOnTheirVector() {
    Dataset<Row> data =
        TrainingData.linearColumns(3_000, FEATURES, 12, 2).withColumn("w", col("id").mod(3));
    Dataset<Row> vectors =
        new VectorAssembler().setInputCols(NAMES).setOutputCol("features").transform(data);
    for (boolean standardization : new boolean[] {true, false}) {
      SGDRegressor regressor =
          new SGDRegressor()
              .setSeed(3)
              .setMaxIter(2)
              .setStepSize(0.01)
              .setWeightCol("w")
              .setStandardization(standardization);
      SGDRegressionModel onVector = regressor.fit(vectors);
      SGDRegressionModel onColumns =
          regressor.copy(ParamMap.empty()).setFeaturesCols(NAMES).fit(data);
      assertThat(onColumns.coefficients().toArray())
          .containsExactly(onVector.coefficients().toArray());
      assertThat(onColumns.intercept()).isEqualTo(onVector.intercept());
    }
  }

  @Test
  void corgipileTableOnColumnsEqualsItsVector(@TempDir Path dir) {
    String table = dir.resolve("t").toString();
    columns
        .orderBy("label")
        .coalesce(1)
        .write()
        .option("parquet.block.size", 16 * 1024)
        .parquet(table);
    Dataset<Row> read =
        TrainingData.spark().read().format("corgipile").option("partitions", "2").load(table);
    SGDClassifier classifier = classifier().setMaxIter(2);

    SGDClassificationModel onColumns =
        classifier.copy(ParamMap.empty()).setFeaturesCols(NAMES).fit(read);
    SGDClassificationModel onVector =
        classifier.fit(
            new VectorAssembler().setInputCols(NAMES).setOutputCol("features").transform(read));

    assertThat(onColumns.coefficients().toArray())
        .containsExactly(onVector.coefficients().toArray());
    assertThat(onColumns.intercept()).isEqualTo(onVector.intercept());
  }

  /**
   * A plain select of the table's double columns is read from the scan's column batches, one with
   * an expression through Spark's projection: the same rows in the same order, so the same model.
   */
  @Test
  void modelFromTheScansBatchesEqualsModelFromSparksRows(@TempDir Path dir) {
    String table = dir.resolve("t").toString();
    columns
        .orderBy("label")
        .withColumn("w", col("id").mod(3).cast("double"))
        .coalesce(1)
        .write()
        .option("parquet.block.size", 16 * 1024)
        .parquet(table);
    for (String shuffle : new String[] {"corgipile", "none", "window"}) {
      Dataset<Row> read =
          TrainingData.spark()
              .read()
              .format("corgipile")
              .option("partitions", "3")
              .option("shuffle", shuffle)
              .load(table);
      Dataset<Row> computedLabel = read.withColumn("label2", col("label").plus(0.0));
      for (boolean weighted : new boolean[] {false, true}) {
        SGDClassifier classifier = classifier().setMaxIter(2).setFeaturesCols(NAMES);
        if (weighted) {
          classifier.setWeightCol("w");
        }
        SGDClassificationModel fromBatches = classifier.fit(read);
        SGDClassificationModel fromRows =
            classifier.copy(ParamMap.empty()).setLabelCol("label2").fit(computedLabel);
        assertThat(fromBatches.coefficients().toArray())
            .as("%s, weighted %s", shuffle, weighted)
            .containsExactly(fromRows.coefficients().toArray());
        assertThat(fromBatches.intercept()).isEqualTo(fromRows.intercept());
        assertThat(fromBatches.summary().objectiveHistory())
            .containsExactly(fromRows.summary().objectiveHistory());
      }
    }
  }

  @Test
  void columnsOfAnyNumericTypeOrBooleanAreCastToDouble() {
    Dataset<Row> typed =
        columns.select(
            col("label"),
            col("x0").cast("float").as("f"),
            col("x1").multiply(100).cast("int").as("i"),
            col("x2").multiply(100).cast("long").as("l"),
            col("x3").gt(0).as("b"),
            col("x3").cast("decimal(10,4)").as("d"));
    String[] names = {"f", "i", "l", "b", "d"};
    SGDClassificationModel onColumns = classifier().setFeaturesCols(names).fit(typed);
    SGDClassificationModel onVector =
        classifier()
            .fit(
                new VectorAssembler()
                    .setInputCols(names)
                    .setOutputCol("features")
                    .transform(typed));
    assertThat(onColumns.coefficients().toArray())
        .containsExactly(onVector.coefficients().toArray());
  }

  @Test
  void modelPredictsFromTheColumnsAsTheVectorModelDoes() {
    SGDClassificationModel onVector = classifier().fit(assembled);
    SGDClassificationModel onColumns = classifier().setFeaturesCols(NAMES).fit(columns);

    Dataset<Row> fromColumns = onColumns.transform(columns);
    Dataset<Row> fromVector = onVector.transform(assembled);

    assertThat(fromColumns.columns())
        .containsExactly(
            "id", "x0", "x1", "x2", "x3", "label", "rawPrediction", "probability", "prediction");
    // the schema MLlib's model states for the vector, less the vector (MLlib's order of fields, not
    // transform's)
    assertThat(onColumns.transformSchema(columns.schema()).fields())
        .containsExactly(
            Arrays.stream(onVector.transformSchema(assembled.schema()).fields())
                .filter(f -> !f.name().equals("features"))
                .toArray(StructField[]::new));
    List<Row> expected =
        fromVector.select("id", "rawPrediction", "probability", "prediction").collectAsList();
    List<Row> actual =
        fromColumns.select("id", "rawPrediction", "probability", "prediction").collectAsList();
    assertThat(actual).isEqualTo(expected);
    assertThat(fromColumns.schema().apply("prediction").metadata())
        .isEqualTo(fromVector.schema().apply("prediction").metadata());
    // predict(Vector) takes the columns' values in their order
    Row first = columns.orderBy("id").first();
    Vector x =
        org.apache.spark.ml.linalg.Vectors.dense(
            Arrays.stream(NAMES).mapToDouble(n -> first.getDouble(first.fieldIndex(n))).toArray());
    assertThat(onColumns.predictRaw(x)).isEqualTo(onVector.predictRaw(x));
  }

  @Test
  void regressionModelPredictsFromColumnsAndCanBePointedAtOthers() {
    SGDRegressionModel model =
        new SGDRegressor()
            .setSeed(1)
            .setMaxIter(2)
            .setFeaturesCols(NAMES)
            .fit(TrainingData.linearColumns(2_000, FEATURES, 4, 2));
    Dataset<Row> renamed =
        columns.select(
            col("id"), col("x0").as("a"), col("x1").as("b"), col("x2").as("c"), col("x3").as("d"));

    List<Row> byName =
        model.transform(columns).select("id", "prediction").orderBy("id").collectAsList();
    SGDRegressionModel pointed = model.copy(ParamMap.empty()).setFeaturesCols("a", "b", "c", "d");
    List<Row> byOtherNames =
        pointed.transform(renamed).select("id", "prediction").orderBy("id").collectAsList();

    assertThat(byOtherNames).isEqualTo(byName);
    assertThat(model.getFeaturesCols()).containsExactly(NAMES);
  }

  @Test
  void pipelineWithFeatureColumnsSavesLoadsAndCrossValidates(@TempDir Path dir) throws Exception {
    SGDClassifier classifier = classifier().setFeaturesCols(NAMES);
    Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {classifier});
    PipelineModel fitted = pipeline.fit(columns);
    String path = dir.resolve("pipeline").toString();
    fitted.write().save(path);
    PipelineModel loaded = PipelineModel.load(path);

    SGDClassificationModel model = (SGDClassificationModel) loaded.stages()[0];
    assertThat(model.getFeaturesCols()).containsExactly(NAMES);
    assertThat(loaded.transform(columns).select("id", "probability").collectAsList())
        .isEqualTo(fitted.transform(columns).select("id", "probability").collectAsList());

    classifier.write().save(dir.resolve("estimator").toString());
    assertThat(SGDClassifier.load(dir.resolve("estimator").toString()).getFeaturesCols())
        .containsExactly(NAMES);

    CrossValidatorModel cv =
        new CrossValidator()
            .setEstimator(pipeline)
            .setNumFolds(2)
            .setSeed(1)
            .setEvaluator(new BinaryClassificationEvaluator())
            .setEstimatorParamMaps(
                new ParamGridBuilder()
                    .addGrid(classifier.regParam(), new double[] {0, 0.01})
                    .build())
            .fit(columns);
    assertThat(Arrays.stream(cv.avgMetrics()).min().getAsDouble()).isGreaterThan(0.7);
  }

  @Test
  void badFeatureColumnsAreNamed() {
    assertThatThrownBy(() -> classifier().setFeaturesCols("x0", "nope").fit(columns))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot train SGDClassifier: featuresCols names 'nope', which is not a column;"
                + " the columns are [id, x0, x1, x2, x3, label]");
    assertThatThrownBy(
            () ->
                classifier()
                    .setFeaturesCols("x0", "s")
                    .fit(columns.withColumn("s", col("id").cast("string"))))
        .hasMessage(
            "Cannot train SGDClassifier: feature column 's' has type string; featuresCols must be"
                + " numeric or boolean columns");
    assertThatThrownBy(() -> classifier().setFeaturesCols("x0", "X0").fit(columns))
        .hasMessage("Cannot train SGDClassifier: featuresCols names 'X0' twice");
    assertThatThrownBy(() -> classifier().setFeaturesCols("x0", "label").fit(columns))
        .hasMessage("Cannot train SGDClassifier: featuresCols names 'label', the label column");
    SGDClassificationModel model = classifier().setFeaturesCols(NAMES).fit(columns);
    assertThatThrownBy(() -> model.transform(columns.drop("x2")))
        .hasMessageStartingWith(
            "Cannot transform with SGDClassificationModel: featuresCols names 'x2', which is"
                + " not a column");
  }

  @Test
  void nullAndNonFiniteValuesAreNamedOrSkipped() {
    Dataset<Row> withNull =
        columns.withColumn("x2", when(col("id").equalTo(17), null).otherwise(col("x2")));
    Dataset<Row> withNaN =
        columns.withColumn("x3", when(col("id").equalTo(17), Double.NaN).otherwise(col("x3")));

    assertThatThrownBy(() -> classifier().setFeaturesCols(NAMES).fit(withNull))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train SGDClassifier: a row has a null in feature column 'x2'; set handleInvalid"
                + " to 'skip' to leave such rows out");
    assertThatThrownBy(() -> classifier().setFeaturesCols(NAMES).fit(withNaN))
        .hasMessage(
            "Cannot train SGDClassifier: a row has NaN in feature column 'x3'; set handleInvalid to"
                + " 'skip' to leave such rows out");
    SGDClassificationModel skipped =
        classifier().setFeaturesCols(NAMES).setHandleInvalid("skip").fit(withNull);
    assertThat(skipped.summary().skippedRows()).isEqualTo(1);

    assertThatThrownBy(() -> skipped.transform(withNull).collect())
        .hasMessageContaining(
            "Cannot transform with SGDClassificationModel: a row has a null in feature column"
                + " 'x2'");
  }
}
