package io.corgipile.ml;

import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.common.LinearModelData;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import io.corgipile.ml.sgd.FeatureColumns;
import io.corgipile.ml.sgd.Softmax;
import org.apache.spark.ml.classification.ProbabilisticClassificationModel;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * A linear classifier trained by {@link SGDClassifier}, as MLlib's {@code LogisticRegressionModel}.
 * Binary: the margin {@code m = w.x + b} gives {@code rawPrediction = [-m, m]} and {@code
 * probability = [1 - sigmoid(m), sigmoid(m)]}; with the {@code hinge} loss the probability ranks
 * rows by margin but is not calibrated. Multinomial: one margin {@code m_k = w_k.x + b_k} per class
 * gives {@code rawPrediction = m}, {@code probability = softmax(m)} and the class of the largest
 * (or, with {@code thresholds}, of the largest {@code p_k / t_k}); {@code threshold} is for binary
 * models only.
 */
public class SGDClassificationModel
    extends ProbabilisticClassificationModel<Vector, SGDClassificationModel>
    implements SGDLinearModel, SGDThresholdSetter<SGDClassificationModel> {
  private static final long serialVersionUID = 1L;

  // The model's own copy of what every SGD stage repeats, as short as Java allows (see
  // SGDClassifier); the shared members of the two models are in SGDLinearModel.
  private final StageParams sgdParams;
  private final LinearFit fit;

  /** For Spark Connect ML, which creates models by their no-argument constructor. */
  public SGDClassificationModel() {
    this(Identifiable$.MODULE$.randomUID("sgdClassifier"), Vectors.dense(new double[0]), 0.0);
  }

  public SGDClassificationModel(String uid, Vector coefficients, double intercept) {
    this(uid, LinearFit.of(coefficients, intercept));
  }

  /**
   * A model of one row of {@code coefficientMatrix} and one intercept per class (multinomial), or
   * of one row and one intercept (binary), as {@code LogisticRegressionModel}'s matrix.
   */
  public SGDClassificationModel(String uid, Matrix coefficientMatrix, Vector interceptVector) {
    this(uid, LinearFit.of(coefficientMatrix, interceptVector));
  }

  SGDClassificationModel(String uid, LinearFit fit) {
    this(PendingParams.enter(uid, SGDClassifierParams.SPECS), fit);
  }

  private SGDClassificationModel(StageParams params, LinearFit fit) {
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
  public SGDClassificationModel setFeaturesCols(String... value) {
    set(featuresCols(), value);
    return this;
  }

  @Override
  public int numFeatures() {
    return fit.numFeatures();
  }

  /** 2 for a binary model; the classes of a multinomial one, labels 0..numClasses-1. */
  @Override
  public int numClasses() {
    return fit.multinomial() ? fit.numMargins() : 2;
  }

  /** Whether the model has one margin per class (family multinomial) rather than one. */
  public boolean isMultinomial() {
    return fit.multinomial();
  }

  /**
   * One row of coefficients per class (multinomial), or one row (binary), as
   * LogisticRegressionModel's.
   */
  public Matrix coefficientMatrix() {
    return fit.coefficientMatrix();
  }

  /** One intercept per row of {@link #coefficientMatrix()}. */
  public Vector interceptVector() {
    return fit.interceptVector();
  }

  /**
   * Also clears {@code threshold}: the last of the two set decides (see {@link
   * SGDThresholdSetter}).
   */
  @Override
  public SGDClassificationModel setThresholds(double[] value) {
    super.setThresholds(value);
    clear(threshold());
    return this;
  }

  @Override
  public Vector predictRaw(Vector features) {
    if (fit.multinomial()) {
      return Vectors.dense(fit.margins(features, uid()));
    }
    double m = fit.margin(features, uid());
    return Vectors.dense(-m, m);
  }

  @Override
  public Vector raw2probabilityInPlace(Vector rawPrediction) {
    double[] values = ((DenseVector) rawPrediction).values();
    if (fit.multinomial()) {
      Softmax.probabilities(values, values);
      return rawPrediction;
    }
    double p = 1.0 / (1.0 + Math.exp(-values[1]));
    values[0] = 1.0 - p;
    values[1] = p;
    return rawPrediction;
  }

  @Override
  public double raw2prediction(Vector rawPrediction) {
    if (fit.multinomial()) {
      return super.raw2prediction(rawPrediction);
    }
    double t = effectiveThreshold();
    // the margin whose sigmoid is t
    return rawPrediction.apply(1) > Math.log(t / (1 - t)) ? 1.0 : 0.0;
  }

  @Override
  public double probability2prediction(Vector probability) {
    if (fit.multinomial()) {
      return super.probability2prediction(probability);
    }
    return probability.apply(1) > effectiveThreshold() ? 1.0 : 0.0;
  }

  /**
   * {@code threshold}, or the one {@code thresholds} implies when only that is set (as
   * LogisticRegression).
   */
  private double effectiveThreshold() {
    if (isSet(thresholds()) && !isSet(threshold())) {
      double[] ts = getThresholds();
      return 1.0 / (1.0 + ts[0] / ts[1]);
    }
    return getThreshold();
  }

  @SuppressWarnings("rawtypes")
  @Override
  public scala.Tuple3 findSummaryModel() {
    return super.findSummaryModel();
  }

  @Override
  public SGDClassificationModel copy(ParamMap extra) {
    return copyValues(new SGDClassificationModel(uid(), fit), extra).setParent(parent());
  }

  public static MLReader<SGDClassificationModel> read() {
    return new LinearModelData.Reader<>(SGDClassificationModel.class, SGDClassificationModel::new);
  }

  public static SGDClassificationModel load(String path) {
    return read().load(path);
  }

  @Override
  public String toString() {
    return "SGDClassificationModel: uid="
        + uid()
        + ", loss="
        + (fit.multinomial() ? "softmax" : getLoss())
        + ", numClasses="
        + numClasses()
        + ", numFeatures="
        + numFeatures();
  }
}
