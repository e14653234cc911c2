package io.corgipile.cli;

import io.corgipile.cli.TrainArguments.Task;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDLinearModel;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.ScheduledLassoModel;
import io.corgipile.options.EnumChoice;
import io.corgipile.source.ReadOptions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * What {@link Train} does once its arguments are valid: reads the input through {@code corgipile},
 * fits feature assembly + estimator (SGD, or for {@code --task lasso} {@link ScheduledLasso}) as
 * one pipeline, evaluates it on the test data, and saves the model and the metrics, each whole or
 * not at all.
 */
final class TrainingJob {
  /**
   * Spark's floor on the partitions of a file scan, which else is the cores registered (SQLConf).
   */
  private static final String MIN_PARTITION_NUM = "spark.sql.files.minPartitionNum";

  private final SparkSession spark;
  private final TrainArguments args;

  TrainingJob(SparkSession spark, TrainArguments args) {
    this.spark = spark;
    this.args = args;
  }

  /**
   * Trains, evaluates and writes; returns the metrics it wrote (or would write, without --metrics).
   */
  TrainingMetrics run() throws Exception {
    // Preflight checked them before Spark started; writing checks again, as one may appear
    // meanwhile
    OutputPath.Outputs outputs =
        OutputPath.Outputs.of(args, spark.sparkContext().hadoopConfiguration());
    Dataset<Row> train = read();
    Pipeline pipeline = new Pipeline().setStages(stages(train.schema()));
    long start = System.nanoTime();
    PipelineModel model = pipeline.fit(train);
    double seconds = (System.nanoTime() - start) / 1e9;

    // a PipelineModel's stages are Transformers: the last is the model of the estimator stages()
    // ended with
    Transformer fitted = model.stages()[model.stages().length - 1];
    TrainingMetrics.Training training =
        fitted instanceof ScheduledLassoModel lasso
            ? TrainingMetrics.Rounds.of(lasso.summary(), seconds)
            : TrainingMetrics.Epochs.of(((SGDLinearModel) fitted).summary(), seconds);
    TrainingMetrics metrics =
        new TrainingMetrics(
            args.input(),
            args.task().optionValue(),
            args.label(),
            args.features(),
            settings(fitted),
            training,
            args.test() == null ? null : evaluate(model, fitted, train.rdd().getNumPartitions()),
            null);
    if (outputs.model() != null) {
      metrics = metrics.withModel(args.model());
      outputs.model().write(path -> model.write().save(path));
    }
    if (outputs.metrics() != null) {
      outputs.metrics().writeText(metrics.json());
    }
    return metrics;
  }

  private Dataset<Row> read() {
    DataFrameReader reader =
        spark
            .read()
            .format("corgipile")
            .option(ReadOptions.SHUFFLE, args.shuffle().optionValue())
            .option(ReadOptions.BUFFER_SIZE, args.buffer());
    if (args.partitions() != null) {
      reader = reader.option(ReadOptions.PARTITIONS, args.partitions());
    }
    if (args.task() == Task.LASSO && args.seed() != null) {
      // the SGD estimators set the order's seed themselves (their seed param); the lasso's seed is
      // its scheduler's only, and --seed is the order's too
      reader = reader.option(ReadOptions.SEED, args.seed());
    }
    return reader.load(args.input());
  }

  /**
   * The estimator on the numeric columns ({@code featuresCols}, read without a vector per row) or
   * on the one vector column; it standardizes the features itself. The lasso takes a vector column
   * only: numeric columns are assembled into one first, a stage of the saved pipeline.
   */
  private PipelineStage[] stages(StructType schema) {
    List<String> columns = Arrays.asList(schema.fieldNames());
    InputColumns input = InputColumns.of(args.input(), schema);
    input.check(args.label(), args.features());
    if (input.isOneVector(args.features())) {
      return new PipelineStage[] {estimator(args.features().get(0), null)};
    }
    String[] numeric = args.features().toArray(new String[0]);
    if (args.task() == Task.LASSO) {
      String vector = unused(columns, "features");
      return new PipelineStage[] {
        new VectorAssembler().setInputCols(numeric).setOutputCol(vector), estimator(vector, null)
      };
    }
    return new PipelineStage[] {estimator(null, numeric)};
  }

  /** {@code name}, or with as many underscores appended as make it no column of {@code columns}. */
  private static String unused(List<String> columns, String name) {
    String unused = name;
    while (columns.contains(unused)) {
      unused += "_";
    }
    return unused;
  }

  /** The estimator on the vector column {@code vector}, or on the numeric {@code columns}. */
  private PipelineStage estimator(String vector, String[] columns) {
    if (args.task() == Task.LASSO) {
      ScheduledLasso lasso = new ScheduledLasso().setLabelCol(args.label()).setFeaturesCol(vector);
      args.lassoParams()
          .forEach((name, value) -> lasso.set(TrainArguments.param(lasso, name), value));
      if (args.seed() != null) {
        lasso.setSeed(args.seed());
      }
      return lasso;
    }
    if (args.task() == Task.CLASSIFICATION) {
      SGDClassifier classifier = configure(new SGDClassifier().setLabelCol(args.label()));
      return columns == null
          ? classifier.setFeaturesCol(vector)
          : classifier.setFeaturesCols(columns);
    }
    SGDRegressor regressor = configure(new SGDRegressor().setLabelCol(args.label()));
    return columns == null ? regressor.setFeaturesCol(vector) : regressor.setFeaturesCols(columns);
  }

  private <E extends PipelineStage & SGDParams.Setters<E>> E configure(E estimator) {
    estimator.setMaxIter(args.epochs());
    if (args.loss() != null) {
      estimator.setLoss(args.loss());
    }
    if (args.deltaCompression() != null) {
      estimator.setDeltaCompression(EnumChoice.text(args.deltaCompression()));
    }
    if (args.seed() != null) {
      estimator.setSeed(args.seed());
    }
    return estimator;
  }

  /**
   * The settings the model was trained with: for the lasso, every param the fitted model has but
   * the seed.
   */
  private TrainingMetrics.Settings settings(Transformer fitted) {
    Map<String, Object> params = new LinkedHashMap<>();
    if (fitted instanceof ScheduledLassoModel lasso) {
      for (TrainArguments.LassoOption option : TrainArguments.LASSO_OPTIONS) {
        params.put(option.param(), lasso.getOrDefault(lasso.getParam(option.param())));
      }
    } else {
      SGDLinearModel sgd = (SGDLinearModel) fitted;
      params.put(
          "loss",
          sgd instanceof SGDClassificationModel c && c.isMultinomial() ? "softmax" : sgd.getLoss());
      params.put("maxEpochs", args.epochs());
      params.put("deltaCompression", sgd.getDeltaCompression());
    }
    return new TrainingMetrics.Settings(
        args.task().estimatorName(),
        params,
        args.shuffle().optionValue(),
        args.buffer(),
        args.partitions(),
        args.seed());
  }

  /**
   * Classification: accuracy and log loss, and the area under the ROC curve when there are two
   * classes; regression and the lasso: RMSE, MAE and R2. The scores depend on how Spark splits the
   * test files (sums per partition, the ROC curve's bins), which by default follows the cores
   * registered at that moment: split instead as for {@code splits} cores, so a run that lost an
   * executor scores as the run that did not.
   */
  private TrainingMetrics.Test evaluate(PipelineModel model, Transformer fitted, int splits) {
    Option<String> previous = spark.conf().getOption(MIN_PARTITION_NUM);
    spark.conf().set(MIN_PARTITION_NUM, splits);
    Dataset<Row> predictions = model.transform(spark.read().parquet(args.test())).cache();
    try {
      long rows = predictions.count();
      Map<String, Double> m = new LinkedHashMap<>();
      String label = args.label();
      if (args.task() == Task.CLASSIFICATION) {
        for (String metric : List.of("accuracy", "logLoss")) {
          m.put(
              metric,
              new MulticlassClassificationEvaluator()
                  .setLabelCol(label)
                  .setMetricName(metric)
                  .evaluate(predictions));
        }
        if (((SGDClassificationModel) fitted).numClasses() == 2) {
          // numBins 0: the exact curve. MLlib's default bins the sorted scores by the partitions of
          // a
          // sampled sort, so the same model's AUC moved in the 5th digit after an executor was
          // lost.
          m.put(
              "areaUnderROC",
              new BinaryClassificationEvaluator()
                  .setLabelCol(label)
                  .setMetricName("areaUnderROC")
                  .setNumBins(0)
                  .evaluate(predictions));
        }
      } else {
        for (String metric : List.of("rmse", "mae", "r2")) {
          m.put(
              metric,
              new RegressionEvaluator()
                  .setLabelCol(label)
                  .setMetricName(metric)
                  .evaluate(predictions));
        }
      }
      return new TrainingMetrics.Test(args.test(), rows, m);
    } finally {
      predictions.unpersist();
      if (previous.isDefined()) {
        spark.conf().set(MIN_PARTITION_NUM, previous.get());
      } else {
        spark.conf().unset(MIN_PARTITION_NUM);
      }
    }
  }
}
