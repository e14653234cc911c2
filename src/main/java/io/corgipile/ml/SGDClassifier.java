package io.corgipile.ml;

import io.corgipile.ml.common.FitJobs;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import io.corgipile.ml.sgd.FeatureColumns;
import io.corgipile.ml.sgd.LossFunction;
import io.corgipile.ml.sgd.MarginsLoss;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.SGDTask;
import io.corgipile.ml.sgd.Softmax;
import io.corgipile.ml.sync.LabelClasses;
import io.corgipile.ml.sync.SGDOptimizer;
import java.util.List;
import org.apache.spark.ml.classification.ProbabilisticClassifier;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;

/**
 * Classification by SGD, binary (labels 0 and 1) on one of the {@link #SUPPORTED_LOSSES} or
 * multinomial (labels 0..K-1, softmax; see {@link #family()}), epoch by epoch: each round is one
 * Spark job in which every partition runs SGD over its rows and the driver averages the partition
 * models. Over the {@code corgipile} source every epoch reads a new order; over any other
 * DataFrame, the order it has.
 */
public class SGDClassifier
    extends ProbabilisticClassifier<Vector, SGDClassifier, SGDClassificationModel>
    implements SGDParams.Setters<SGDClassifier>,
        SGDThresholdSetter<SGDClassifier>,
        DefaultParamsWritable {
  private static final long serialVersionUID = 1L;

  /** The values {@code loss} takes; the first is the default. */
  public static final List<String> SUPPORTED_LOSSES = SGDTask.CLASSIFICATION.losses();

  // The stage's own copy of what every SGD stage repeats, as short as Java allows (the Scala
  // parents
  // fix the class hierarchy, and fields, constructors and overrides of their methods cannot live
  // in an interface): see PendingParams for why the holder is made before super().
  private final StageParams sgdParams;

  public SGDClassifier() {
    this(Identifiable$.MODULE$.randomUID("sgdClassifier"));
  }

  public SGDClassifier(String uid) {
    this(PendingParams.enter(uid, SPECS));
  }

  private SGDClassifier(StageParams params) {
    super();
    sgdParams = PendingParams.exit(params, this);
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

  /** With {@code featuresCols}, checks those columns instead of {@code featuresCol}. */
  @Override
  public StructType transformSchema(StructType schema) {
    return FeatureColumns.used(this)
        ? FeatureColumns.transformSchema(this, schema)
        : super.transformSchema(schema);
  }

  /**
   * Also clears {@code threshold}: the last of the two set decides (see {@link
   * SGDThresholdSetter}).
   */
  @Override
  public SGDClassifier setThresholds(double[] value) {
    super.setThresholds(value);
    clear(threshold());
    return this;
  }

  public SGDClassifier setFamily(String value) {
    set(family(), value);
    return this;
  }

  /**
   * With {@code family} auto or multinomial, first finds the classes ({@link LabelClasses}: the
   * label column's metadata, else one job over the label column).
   */
  @Override
  public SGDClassificationModel train(Dataset<?> dataset) {
    return FitJobs.run(dataset, SGDTask.CLASSIFICATION.estimatorName(), () -> trainModel(dataset));
  }

  private SGDClassificationModel trainModel(Dataset<?> dataset) {
    String name = SGDTask.CLASSIFICATION.estimatorName();
    boolean hinge = !getLoss().equals(SUPPORTED_LOSSES.get(0));
    if (hinge && getFamily().equals(FAMILY_MULTINOMIAL)) {
      throw new IllegalArgumentException(
          "Cannot train "
              + name
              + ": loss 'hinge' is binary (labels 0 and 1), so"
              + " family 'multinomial' needs loss '"
              + SUPPORTED_LOSSES.get(0)
              + "'");
    }
    int numClasses =
        getFamily().equals(FAMILY_BINOMIAL) ? 2 : LabelClasses.count(dataset, getLabelCol(), name);
    boolean multinomial = getFamily().equals(FAMILY_MULTINOMIAL) || numClasses > 2;
    if (hinge && multinomial) {
      throw new InvalidTrainingDataException(
          "Cannot train "
              + name
              + ": loss 'hinge' is binary (labels 0 and 1),"
              + " but column '"
              + getLabelCol()
              + "' names "
              + numClasses
              + " classes; use loss '"
              + SUPPORTED_LOSSES.get(0)
              + "' for a multinomial model");
    }
    MarginsLoss loss = multinomial ? new Softmax(numClasses) : LossFunction.named(getLoss(), 0);
    SGDConfig config =
        SGDConfig.of(
            this, SGDTask.CLASSIFICATION, getFeaturesCol(), getLabelCol(), numClasses, loss);
    return new SGDClassificationModel(uid(), new SGDOptimizer(config).optimize(dataset));
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
