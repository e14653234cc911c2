package io.corgipile.ml;

import org.apache.spark.ml.PredictionModel;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;

/** A linear regression model trained by {@link SGDRegressor}: {@code prediction = w.x + b}. */
public class SGDRegressionModel extends PredictionModel<Vector, SGDRegressionModel>
    implements SGDRegressorParams, MLWritable {
  private static final long serialVersionUID = 1L;

  private final String uid;
  private SGDParamSet sgdParams;
  private LinearFit fit;

  /** For Spark Connect ML, which creates models by their no-argument constructor. */
  public SGDRegressionModel() {
    this(Identifiable$.MODULE$.randomUID("sgdRegressor"), Vectors.dense(new double[0]), 0.0);
  }

  public SGDRegressionModel(String uid, Vector coefficients, double intercept) {
    this(PendingUid.enter(uid), coefficients, intercept, true);
  }

  private SGDRegressionModel(String uid, Vector coefficients, double intercept, boolean pending) {
    super();
    this.uid = uid;
    PendingUid.exit();
    this.fit = new LinearFit(coefficients, intercept, null);
    sgdParams().setDefaults(this, SGDTask.REGRESSION);
  }

  @Override
  public String uid() {
    return uid != null ? uid : PendingUid.current();
  }

  @Override
  public SGDParamSet sgdParams() {
    if (sgdParams == null) { // first asked for inside super(), by MLlib's reflection over the params
      sgdParams = new SGDParamSet(uid(), SGDTask.REGRESSION);
    }
    return sgdParams;
  }

  public Vector coefficients() {
    return fit.coefficients();
  }

  public double intercept() {
    return fit.intercept();
  }

  @Override
  public int numFeatures() {
    return fit.coefficients().size();
  }

  /** Whether {@link #summary()} is available: only on a model just trained, not on a loaded one. */
  public boolean hasSummary() {
    return fit.hasSummary();
  }

  public SGDTrainingSummary summary() {
    return fit.summary(uid);
  }

  SGDRegressionModel setSummary(SGDTrainingSummary summary) {
    fit = fit.withSummary(summary);
    return this;
  }

  @Override
  public double predict(Vector features) {
    return fit.margin(features, uid);
  }

  @Override
  public SGDRegressionModel copy(ParamMap extra) {
    SGDRegressionModel copy = copyValues(new SGDRegressionModel(uid, fit.coefficients(), fit.intercept()), extra);
    copy.fit = fit;
    return copy.setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new LinearModelData.Writer(this, fit.coefficients(), fit.intercept());
  }

  public static MLReader<SGDRegressionModel> read() {
    return new LinearModelData.Reader<>(SGDRegressionModel.class, SGDRegressionModel::new);
  }

  public static SGDRegressionModel load(String path) {
    return read().load(path);
  }

  @Override
  public String toString() {
    return "SGDRegressionModel: uid=" + uid + ", loss=" + getLoss() + ", numFeatures=" + numFeatures();
  }
}
