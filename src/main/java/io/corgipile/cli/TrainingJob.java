package io.corgipile.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.corgipile.cli.TrainArguments.Task;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDParamSetters;
import io.corgipile.ml.SGDRegressionModel;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.SGDTrainingSummary;
import io.corgipile.source.ReadOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.evaluation.BinaryClassificationEvaluator;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/**
 * What {@link Train} does once its arguments are valid: reads the input through {@code corgipile},
 * fits feature assembly + SGD as one pipeline, evaluates it on the test data, and saves the model
 * and the metrics, each whole or not at all.
 */
final class TrainingJob {
  private static final ObjectWriter JSON = new ObjectMapper().writerWithDefaultPrettyPrinter();

  private final SparkSession spark;
  private final TrainArguments args;

  TrainingJob(SparkSession spark, TrainArguments args) {
    this.spark = spark;
    this.args = args;
  }

  /** Trains, evaluates and writes; returns the metrics it wrote (or would write, without --metrics). */
  Map<String, Object> run() throws Exception {
    OutputPath modelOutput = args.model() == null ? null
        : new OutputPath(spark, "model", args.model(), args.overwrite());
    OutputPath metricsOutput = args.metrics() == null ? null
        : new OutputPath(spark, "metrics", args.metrics(), args.overwrite());
    for (OutputPath output : new OutputPath[] {modelOutput, metricsOutput}) { // before hours of training, not after
      if (output != null) {
        output.checkWritable();
      }
    }
    Dataset<Row> train = read();
    Pipeline pipeline = new Pipeline().setStages(stages(train.schema()));
    long start = System.nanoTime();
    PipelineModel model = pipeline.fit(train);
    double seconds = (System.nanoTime() - start) / 1e9;

    Map<String, Object> metrics = new LinkedHashMap<>();
    metrics.put("input", args.input());
    metrics.put("task", args.task().optionValue());
    metrics.put("label", args.label());
    metrics.put("features", args.features());
    metrics.put("settings", settings(model));
    metrics.put("training", training(summary(model), seconds));
    if (args.test() != null) {
      metrics.put("test", evaluate(model, spark.read().parquet(args.test())));
    }
    if (modelOutput != null) {
      metrics.put("model", args.model());
      modelOutput.write(path -> model.write().save(path));
    }
    if (metricsOutput != null) {
      metricsOutput.writeText(JSON.writeValueAsString(metrics) + "\n");
    }
    return metrics;
  }

  private Dataset<Row> read() {
    DataFrameReader reader = spark.read().format("corgipile")
        .option(ReadOptions.SHUFFLE, args.shuffle().optionValue())
        .option(ReadOptions.BUFFER_SIZE, args.buffer());
    if (args.partitions() != null) {
      reader = reader.option(ReadOptions.PARTITIONS, args.partitions());
    }
    return reader.load(args.input());
  }

  /**
   * Assembly (numeric columns into a vector) and scaling to unit variance, which SGD's step size
   * assumes; without centring, so sparse vectors stay sparse. Then the estimator.
   */
  private PipelineStage[] stages(StructType schema) {
    List<String> columns = Arrays.asList(schema.fieldNames());
    if (!columns.contains(args.label())) {
      throw new UsageException("Cannot use --label '" + args.label() + "': " + args.input() + " has no such column;"
          + " its columns are " + String.join(", ", columns));
    }
    for (String feature : args.features()) {
      if (!columns.contains(feature)) {
        throw new UsageException("Cannot use --features: " + args.input() + " has no column '" + feature
            + "'; its columns are " + String.join(", ", columns));
      }
    }
    List<PipelineStage> stages = new ArrayList<>();
    String vector;
    DataType first = schema.apply(args.features().get(0)).dataType();
    if (args.features().size() == 1 && first.equals(SQLDataTypes.VectorType())) {
      vector = args.features().get(0);
    } else {
      for (String feature : args.features()) {
        DataType type = schema.apply(feature).dataType();
        if (!(type instanceof NumericType)) {
          throw new UsageException("Cannot use --features: column '" + feature + "' is " + type.simpleString()
              + "; features are numeric columns or one vector column");
        }
      }
      vector = unusedName(columns, "assembled_features");
      stages.add(new VectorAssembler().setInputCols(args.features().toArray(new String[0])).setOutputCol(vector));
    }
    String features = unusedName(columns, "features");
    stages.add(new StandardScaler().setWithMean(false).setWithStd(true).setInputCol(vector).setOutputCol(features));
    stages.add(estimator(features));
    return stages.toArray(new PipelineStage[0]);
  }

  private static String unusedName(List<String> columns, String name) {
    String candidate = name;
    for (int i = 1; columns.contains(candidate); i++) {
      candidate = name + "_" + i;
    }
    return candidate;
  }

  private PipelineStage estimator(String features) {
    return args.task() == Task.CLASSIFICATION
        ? configure(new SGDClassifier().setLabelCol(args.label()).setFeaturesCol(features))
        : configure(new SGDRegressor().setLabelCol(args.label()).setFeaturesCol(features));
  }

  private <E extends PipelineStage & SGDParamSetters<E>> E configure(E estimator) {
    estimator.setMaxIter(args.epochs());
    if (args.loss() != null) {
      estimator.setLoss(args.loss());
    }
    if (args.seed() != null) {
      estimator.setSeed(args.seed());
    }
    return estimator;
  }

  private Map<String, Object> settings(PipelineModel model) {
    Transformer sgd = model.stages()[model.stages().length - 1];
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("estimator", args.task() == Task.CLASSIFICATION ? "SGDClassifier" : "SGDRegressor");
    s.put("loss", sgd.getOrDefault(sgd.getParam("loss")));
    s.put("maxEpochs", args.epochs());
    s.put("shuffle", args.shuffle().optionValue());
    s.put("buffer", args.buffer());
    s.put("partitions", args.partitions());
    s.put("seed", args.seed());
    return s;
  }

  private static SGDTrainingSummary summary(PipelineModel model) {
    Transformer last = model.stages()[model.stages().length - 1];
    return last instanceof SGDClassificationModel c ? c.summary() : ((SGDRegressionModel) last).summary();
  }

  private static Map<String, Object> training(SGDTrainingSummary summary, double seconds) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("rowsPerEpoch", summary.rowsPerEpoch()[summary.totalIterations() - 1]);
    t.put("skippedRowsPerEpoch", summary.skippedRows());
    t.put("epochs", summary.totalIterations());
    t.put("seconds", seconds);
    t.put("objectiveHistory", summary.objectiveHistory());
    t.put("secondsPerEpoch", summary.secondsPerEpoch());
    t.put("rowsPerSecond", summary.rowsPerSecond());
    return t;
  }

  private Map<String, Object> evaluate(PipelineModel model, Dataset<Row> test) {
    Dataset<Row> predictions = model.transform(test).cache();
    try {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("path", args.test());
      m.put("rows", predictions.count());
      String label = args.label();
      if (args.task() == Task.CLASSIFICATION) {
        for (String metric : List.of("accuracy", "logLoss")) {
          m.put(metric, new MulticlassClassificationEvaluator().setLabelCol(label).setMetricName(metric)
              .evaluate(predictions));
        }
        m.put("areaUnderROC", new BinaryClassificationEvaluator().setLabelCol(label).setMetricName("areaUnderROC")
            .evaluate(predictions));
      } else {
        for (String metric : List.of("rmse", "mae", "r2")) {
          m.put(metric, new RegressionEvaluator().setLabelCol(label).setMetricName(metric).evaluate(predictions));
        }
      }
      return m;
    } finally {
      predictions.unpersist();
    }
  }

  /** One line for the console: what was trained and how well. */
  static String result(Map<String, Object> metrics) {
    @SuppressWarnings("unchecked")
    Map<String, Object> training = (Map<String, Object>) metrics.get("training");
    @SuppressWarnings("unchecked")
    Map<String, Object> settings = (Map<String, Object>) metrics.get("settings");
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "Trained %s on %,d rows in %d epochs (%.1f s).",
        settings.get("estimator"), (Long) training.get("rowsPerEpoch"), (Integer) training.get("epochs"),
        (Double) training.get("seconds")));
    @SuppressWarnings("unchecked")
    Map<String, Object> test = (Map<String, Object>) metrics.get("test");
    if (test != null) {
      s.append(String.format(Locale.ROOT, " Test (%,d rows):", (Long) test.get("rows")));
      test.forEach((k, v) -> {
        if (v instanceof Double d) {
          s.append(String.format(Locale.ROOT, " %s %.4f", k, d));
        }
      });
      s.append('.');
    }
    if (metrics.containsKey("model")) {
      s.append(" Model: ").append(metrics.get("model")).append('.');
    }
    return s.toString();
  }
}
