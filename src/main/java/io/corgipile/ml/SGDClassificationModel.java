package io.corgipile.ml;

import org.apache.spark.ml.classification.ProbabilisticClassificationModel;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;

/**
 * A linear binary classifier trained by {@link SGDClassifier}: the margin {@code m = w.x + b}
 * gives {@code rawPrediction = [-m, m]} and {@code probability = [1 - sigmoid(m), sigmoid(m)]}, as
 * MLlib's {@code LogisticRegressionModel}. With the {@code hinge} loss the probability ranks rows
 * by margin but is not calibrated.
 */
public class SGDClassificationModel
    extends ProbabilisticClassificationModel<Vector, SGDClassificationModel>
    implements SGDClassifierParams, MLWritable {
  private static final long serialVersionUID = 1L;

  private final String uid;
  private SGDParamSet sgdParams;
  private LinearFit fit;

  /** For Spark Connect ML, which creates models by their no-argument constructor. */
  public SGDClassificationModel() {
    this(Identifiable$.MODULE$.randomUID("sgdClassifier"), Vectors.dense(new double[0]), 0.0);
  }

  public SGDClassificationModel(String uid, Vector coefficients, double intercept) {
    this(PendingUid.enter(uid), coefficients, intercept, true);
  }

  private SGDClassificationModel(String uid, Vector coefficients, double intercept, boolean pending) {
    super();
    this.uid = uid;
    PendingUid.exit();
    this.fit = new LinearFit(coefficients, intercept, null);
    sgdParams().setDefaults(this, SGDTask.CLASSIFICATION);
  }

  @Override
  public String uid() {
    return uid != null ? uid : PendingUid.current();
  }

  @Override
  public SGDParamSet sgdParams() {
    if (sgdParams == null) { // first asked for inside super(), by MLlib's reflection over the params
      sgdParams = new SGDParamSet(uid(), SGDTask.CLASSIFICATION);
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

  @Override
  public int numClasses() {
    return 2;
  }

  /** Also clears {@code thresholds}: the last of the two set decides, as in LogisticRegression. */
  public SGDClassificationModel setThreshold(double value) {
    set(threshold(), value);
    clear(thresholds());
    return this;
  }

  /** Also clears {@code threshold}: the last of the two set decides, as in LogisticRegression. */
  @Override
  public SGDClassificationModel setThresholds(double[] value) {
    super.setThresholds(value);
    clear(threshold());
    return this;
  }

  /** Whether {@link #summary()} is available: only on a model just trained, not on a loaded one. */
  public boolean hasSummary() {
    return fit.hasSummary();
  }

  public SGDTrainingSummary summary() {
    return fit.summary(uid);
  }

  SGDClassificationModel setSummary(SGDTrainingSummary summary) {
    fit = fit.withSummary(summary);
    return this;
  }

  @Override
  public Vector predictRaw(Vector features) {
    double m = fit.margin(features, uid);
    return Vectors.dense(-m, m);
  }

  @Override
  public Vector raw2probabilityInPlace(Vector rawPrediction) {
    double[] values = ((DenseVector) rawPrediction).values();
    double p = 1.0 / (1.0 + Math.exp(-values[1]));
    values[0] = 1.0 - p;
    values[1] = p;
    return rawPrediction;
  }

  @Override
  public double raw2prediction(Vector rawPrediction) {
    double t = effectiveThreshold();
    // the margin whose sigmoid is t
    return rawPrediction.apply(1) > Math.log(t / (1 - t)) ? 1.0 : 0.0;
  }

  @Override
  public double probability2prediction(Vector probability) {
    return probability.apply(1) > effectiveThreshold() ? 1.0 : 0.0;
  }

  /** {@code threshold}, or the one {@code thresholds} implies when only that is set (as LogisticRegression). */
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
    SGDClassificationModel copy = copyValues(new SGDClassificationModel(uid, fit.coefficients(), fit.intercept()), extra);
    copy.fit = fit;
    return copy.setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new LinearModelData.Writer(this, fit.coefficients(), fit.intercept());
  }

  public static MLReader<SGDClassificationModel> read() {
    return new LinearModelData.Reader<>(SGDClassificationModel.class, SGDClassificationModel::new);
  }

  public static SGDClassificationModel load(String path) {
    return read().load(path);
  }

  @Override
  public String toString() {
    return "SGDClassificationModel: uid=" + uid + ", loss=" + getLoss() + ", numFeatures=" + numFeatures();
  }
}
