package io.corgipile.ml;

import java.util.List;
import org.apache.spark.ml.classification.ProbabilisticClassifier;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;

/**
 * Binary classification (labels 0 and 1) by SGD on the {@code logistic} or {@code hinge} loss,
 * epoch by epoch: each epoch is one Spark job in which every partition runs SGD over its rows and
 * the driver averages the partition models. Over the {@code corgipile} source every epoch reads a
 * new order; over any other DataFrame, the order it has.
 */
public class SGDClassifier extends ProbabilisticClassifier<Vector, SGDClassifier, SGDClassificationModel>
    implements SGDClassifierParams, SGDParamSetters<SGDClassifier>, DefaultParamsWritable {
  private static final long serialVersionUID = 1L;

  /** The values {@code loss} takes; the first is the default. */
  public static final List<String> SUPPORTED_LOSSES = SGDTask.CLASSIFICATION.losses();

  private final String uid;
  private SGDParamSet sgdParams;

  public SGDClassifier() {
    this(Identifiable$.MODULE$.randomUID("sgdClassifier"));
  }

  public SGDClassifier(String uid) {
    this(PendingUid.enter(uid), true);
  }

  private SGDClassifier(String uid, boolean pending) {
    super();
    this.uid = uid;
    PendingUid.exit();
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

  /** Also clears {@code thresholds}: the last of the two set decides, as in LogisticRegression. */
  public SGDClassifier setThreshold(double value) {
    set(threshold(), value);
    clear(thresholds());
    return this;
  }

  /** Also clears {@code threshold}: the last of the two set decides, as in LogisticRegression. */
  @Override
  public SGDClassifier setThresholds(double[] value) {
    super.setThresholds(value);
    clear(threshold());
    return this;
  }

  @Override
  public SGDClassificationModel train(Dataset<?> dataset) {
    SGDConfig config = SGDConfig.of(this, SGDTask.CLASSIFICATION, getFeaturesCol(), getLabelCol(),
        LossFunction.named(getLoss(), 0));
    SGDOptimizer.Result result = new SGDOptimizer(config).optimize(dataset);
    return new SGDClassificationModel(uid(), Vectors.dense(result.coefficients()), result.intercept())
        .setSummary(result.summary());
  }

  @Override
  public SGDClassifier copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  public static MLReader<SGDClassifier> read() {
    return new DefaultParamsReader<>();
  }

  public static SGDClassifier load(String path) {
    return read().load(path);
  }
}
