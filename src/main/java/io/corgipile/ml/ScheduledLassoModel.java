package io.corgipile.ml;

import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.common.LinearModelData;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import org.apache.spark.ml.PredictionModel;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;

/**
 * The linear model {@link ScheduledLasso} trains: {@code prediction = w.x + b}. Saved as the SGD
 * models are ({@link LinearModelData}: MLlib's layout of a linear model's coefficients and
 * intercept).
 */
public class ScheduledLassoModel extends PredictionModel<Vector, ScheduledLassoModel>
    implements ScheduledLassoParams, MLWritable {
  private static final long serialVersionUID = 1L;

  private final StageParams lassoParams;
  private final LinearFit fit;
  private final ScheduledLassoSummary summary;

  /** For Spark Connect ML, which creates models by their no-argument constructor. */
  public ScheduledLassoModel() {
    this(Identifiable$.MODULE$.randomUID("scheduledLasso"), Vectors.dense(new double[0]), 0.0);
  }

  public ScheduledLassoModel(String uid, Vector coefficients, double intercept) {
    this(uid, coefficients, intercept, null);
  }

  ScheduledLassoModel(
      String uid, Vector coefficients, double intercept, ScheduledLassoSummary summary) {
    this(PendingParams.enter(uid, SPECS), LinearFit.of(coefficients, intercept), summary);
  }

  private ScheduledLassoModel(StageParams params, LinearFit fit, ScheduledLassoSummary summary) {
    super();
    lassoParams = PendingParams.exit(params, this);
    this.fit = fit;
    this.summary = summary;
  }

  @Override
  public StageParams lassoParams() {
    return lassoParams != null ? lassoParams : PendingParams.current();
  }

  /**
   * The uid of {@link ScheduledLassoParams#uid()}, declared on the class too: py4j does not find
   * inherited defaults.
   */
  @Override
  public String uid() {
    return lassoParams().uid;
  }

  /** The weights {@code w} of {@code w.x + b}, in the features' original scale. */
  public Vector coefficients() {
    return fit.coefficients(uid());
  }

  /** The intercept {@code b}; 0 without {@code fitIntercept}. */
  public double intercept() {
    return fit.intercept(uid());
  }

  /** Whether {@link #summary()} is available: only on a model just trained, not on a loaded one. */
  public boolean hasSummary() {
    return summary != null;
  }

  /**
   * How training went, round by round; fails on a model that {@link #hasSummary()} says has none.
   */
  public ScheduledLassoSummary summary() {
    if (summary == null) {
      throw new IllegalStateException(
          "Cannot get the training summary of "
              + uid()
              + ": only a model returned by fit has one; a loaded or created model does not");
    }
    return summary;
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
  public ScheduledLassoModel copy(ParamMap extra) {
    return copyValues(new ScheduledLassoModel(uid(), coefficients(), intercept(), summary), extra)
        .setParent(parent());
  }

  @Override
  public MLWriter write() {
    return new LinearModelData.Writer(this, fit);
  }

  public static MLReader<ScheduledLassoModel> read() {
    return new LinearModelData.Reader<>(
        ScheduledLassoModel.class,
        (uid, fit) -> new ScheduledLassoModel(uid, fit.coefficients(uid), fit.intercept(uid)));
  }

  public static ScheduledLassoModel load(String path) {
    return read().load(path);
  }

  @Override
  public String toString() {
    return "ScheduledLassoModel: uid=" + uid() + ", numFeatures=" + numFeatures();
  }
}
