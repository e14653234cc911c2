package io.corgipile.examples;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.exp;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.randn;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Generated data shaped like HIGGS (the UCI physics benchmark, not obtainable here): a double label
 * in {0, 1} and 28 double features, 21 "low-level" ones (normal, or positive and skewed like
 * momenta) and 7 "high-level" ones (positive, around 1). The label follows a logistic model of 7
 * features, about 53% ones as in HIGGS, so no linear model is perfect.
 */
public final class HiggsShapedData {
  public static final int FEATURES = 28;

  private HiggsShapedData() {}

  /** {@code f1 .. f28}. */
  public static String[] featureNames() {
    String[] names = new String[FEATURES];
    for (int i = 1; i <= FEATURES; i++) {
      names[i - 1] = "f" + i;
    }
    return names;
  }

  /**
   * Fresh, unfitted stages that turn {@code f1 .. f28} into a standardized vector {@code features}.
   */
  public static PipelineStage[] featureStages() {
    return new PipelineStage[] {
      new VectorAssembler().setInputCols(featureNames()).setOutputCol("raw"),
      new StandardScaler().setInputCol("raw").setOutputCol("features")
    };
  }

  /**
   * The feature stages followed by {@code estimator}, which reads {@code features} and {@code
   * label}.
   */
  public static Pipeline pipeline(PipelineStage estimator) {
    PipelineStage[] stages = Arrays.copyOf(featureStages(), 3);
    stages[2] = estimator;
    return new Pipeline().setStages(stages);
  }

  /**
   * Columns {@code id, label, f1 .. f28}, in id order; the same rows for the same seed and
   * partitions.
   */
  public static Dataset<Row> generate(SparkSession spark, long rows, long seed, int partitions) {
    List<Column> columns = new ArrayList<>(List.of(col("id")));
    for (int i = 1; i <= FEATURES; i++) {
      Column z = randn(seed * 1000 + i);
      Column feature;
      if (i > 21) {
        feature = exp(z.multiply(0.4)); // high-level: positive, log-normal around 1
      } else if (i % 4 == 1) {
        feature = exp(z.multiply(0.6)).multiply(0.8); // momentum-like: positive, skewed
      } else {
        feature = z; // angle-like: centered
      }
      columns.add(feature.as("f" + i));
    }
    Column logit = lit(-1.9); // about 53% ones
    double[] weights = {0.8, -0.5, 0.3, 0.6, -0.4, 0.2, 0.5};
    int[] features = {1, 3, 5, 22, 24, 26, 28};
    for (int k = 0; k < features.length; k++) {
      logit = logit.plus(col("f" + features[k]).multiply(weights[k]));
    }
    Column label =
        when(rand(seed).lt(lit(1.0).divide(lit(1.0).plus(exp(logit.multiply(-1.0))))), lit(1.0))
            .otherwise(lit(0.0));
    List<Column> out = new ArrayList<>(List.of(col("id"), col("label")));
    for (String name : featureNames()) {
      out.add(col(name));
    }
    return spark
        .range(0, rows, 1, partitions)
        .select(columns.toArray(new Column[0]))
        .withColumn("label", label)
        .select(out.toArray(new Column[0]));
  }
}
