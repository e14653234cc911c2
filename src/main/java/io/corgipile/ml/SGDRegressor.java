package io.corgipile.ml;

import io.corgipile.ml.common.FitJobs;
import io.corgipile.ml.param.PendingParams;
import io.corgipile.ml.param.StageParams;
import io.corgipile.ml.sgd.FeatureColumns;
import io.corgipile.ml.sgd.LossFunction;
import io.corgipile.ml.sgd.SGDConfig;
import io.corgipile.ml.sgd.SGDTask;
import io.corgipile.ml.sync.SGDOptimizer;
import java.util.List;
import org.apache.spark.ml.Predictor;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;

/**
 * Linear regression by SGD on one of the {@link #SUPPORTED_LOSSES}, epoch by epoch: each epoch is
 * one Spark job in which every partition runs SGD over its rows and the driver averages the
 * partition models. Over the {@code corgipile} source every epoch reads a new order; over any other
 * DataFrame, the order it has.
 */
public class SGDRegressor extends Predictor<Vector, SGDRegressor, SGDRegressionModel>
    implements SGDRegressorParams, SGDParams.Setters<SGDRegressor>, DefaultParamsWritable {
  private static final long serialVersionUID = 1L;

  /** The values {@code loss} takes; the first is the default. */
  public static final List<String> SUPPORTED_LOSSES = SGDTask.REGRESSION.losses();

  // The stage's own copy of what every SGD stage repeats, as short as Java allows (the Scala
  // parents
  // fix the class hierarchy, and fields, constructors and overrides of their methods cannot live
  // in an interface): see PendingParams for why the holder is made before super().
  private final StageParams sgdParams;

  public SGDRegressor() {
    this(Identifiable$.MODULE$.randomUID("sgdRegressor"));
  }

  public SGDRegressor(String uid) {
    this(PendingParams.enter(uid, SPECS));
  }

  private SGDRegressor(StageParams params) {
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

  public SGDRegressor setEpsilon(double value) {
    set(epsilon(), value);
    return this;
  }

  @Override
  public SGDRegressionModel train(Dataset<?> dataset) {
    return FitJobs.run(dataset, SGDTask.REGRESSION.estimatorName(), () -> trainModel(dataset));
  }

  private SGDRegressionModel trainModel(Dataset<?> dataset) {
    SGDConfig config =
        SGDConfig.of(
            this,
            SGDTask.REGRESSION,
            getFeaturesCol(),
            getLabelCol(),
            0,
            LossFunction.named(getLoss(), getEpsilon()));
    return new SGDRegressionModel(uid(), new SGDOptimizer(config).optimize(dataset));
  }

  @Override
  public SGDRegressor copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  public static MLReader<SGDRegressor> read() {
    return new DefaultParamsReader<>();
  }

  public static SGDRegressor load(String path) {
    return read().load(path);
  }
}
