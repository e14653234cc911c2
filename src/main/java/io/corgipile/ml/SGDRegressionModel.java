package io.corgipile.ml;

import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.common.LinearModelData;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import io.corgipile.ml.sgd.FeatureColumns;
import org.apache.spark.ml.PredictionModel;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/** A linear regression model trained by {@link SGDRegressor}: {@code prediction = w.x + b}. */
public class SGDRegressionModel extends PredictionModel<Vector, SGDRegressionModel>
    implements SGDLinearModel, SGDRegressorParams {
  private static final long serialVersionUID = 1L;

  // The model's own copy of what every SGD stage repeats, as short as Java allows (see
  // SGDClassifier); the shared members of the two models are in SGDLinearModel.
  private final StageParams sgdParams;
  private final LinearFit fit;

  /** For Spark Connect ML, which creates models by their no-argument constructor. */
  public SGDRegressionModel() {
    this(Identifiable$.MODULE$.randomUID("sgdRegressor"), Vectors.dense(new double[0]), 0.0);
  }

  public SGDRegressionModel(String uid, Vector coefficients, double intercept) {
    this(uid, LinearFit.of(coefficients, intercept));
  }

  SGDRegressionModel(String uid, LinearFit fit) {
    this(PendingParams.enter(uid, SGDRegressorParams.SPECS), fit);
  }

  private SGDRegressionModel(StageParams params, LinearFit fit) {
    super();
    sgdParams = PendingParams.exit(params, this);
    this.fit = fit;
  }

  @Override
  public StageParams sgdParams() {
    return sgdParams != null ? sgdParams : PendingParams.current();
  }

  /**
   * The uid of {@link SGDParams#uid()}, declared on the class too: py4j (pyspark's bridge) does not
   * find a default method inherited through another interface, and pyspark calls uid() on every
   * stage.
   */
  @Override
  public String uid() {
    return sgdParams().uid;
  }

  @Override
  public LinearFit fit() {
    return fit;
  }

  /** With {@code featuresCols}, checks those columns instead of {@code featuresCol}. */
  @Override
  public StructType transformSchema(StructType schema) {
    return FeatureColumns.used(this)
        ? FeatureColumns.transformSchema(this, schema)
        : super.transformSchema(schema);
  }

  /** With {@code featuresCols}, predicts from those columns instead of {@code featuresCol}. */
  @Override
  public Dataset<Row> transform(Dataset<?> dataset) {
    return FeatureColumns.used(this)
        ? FeatureColumns.transform(this, dataset)
        : super.transform(dataset);
  }

  /**
   * Numeric columns to predict from instead of {@code featuresCol}; see {@link #featuresCols()}.
   */
  public SGDRegressionModel setFeaturesCols(String... value) {
    set(featuresCols(), value);
    return this;
  }

  @Override
  public int numFeatures() {
    return fit.numFeatures();
  }

  @Override
  public double predict(Vector features) {
    return fit.margin(features, uid());
  }

  @Override
  public SGDRegressionModel copy(ParamMap extra) {
    return copyValues(new SGDRegressionModel(uid(), fit), extra).setParent(parent());
  }

  public static MLReader<SGDRegressionModel> read() {
    return new LinearModelData.Reader<>(SGDRegressionModel.class, SGDRegressionModel::new);
  }

  public static SGDRegressionModel load(String path) {
    return read().load(path);
  }

  @Override
  public String toString() {
    return "SGDRegressionModel: uid="
        + uid()
        + ", loss="
        + getLoss()
        + ", numFeatures="
        + numFeatures();
  }
}
