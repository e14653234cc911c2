package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.randn;

import io.corgipile.SharedSpark;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/** Generated training data with a known linear model behind it. */
public final class TrainingData {
  private TrainingData() {}

  public static SparkSession spark() {
    return SharedSpark.get();
  }

  /** The true weight of feature {@code i}: alternating signs, magnitudes 0.5 to 1.5. */
  static double trueWeight(int i, int numFeatures) {
    return (i % 2 == 0 ? 1 : -1) * (0.5 + (double) i / numFeatures);
  }

  /**
   * Columns {@code id}, {@code x0..x<n-1>} (standard normal), {@code margin} (the true model's) and
   * {@code label}: 1 with probability sigmoid(margin), so the Bayes accuracy is well below 1.
   */
  public static Dataset<Row> logisticColumns(
      long rows, int numFeatures, long seed, int partitions) {
    List<Column> columns = new ArrayList<>(List.of(col("id")));
    StringBuilder margin = new StringBuilder("0.2");
    for (int i = 0; i < numFeatures; i++) {
      columns.add(randn(seed * 1000 + i).as("x" + i));
      margin.append(" + ").append(trueWeight(i, numFeatures)).append(" * x").append(i);
    }
    return spark()
        .range(0, rows, 1, partitions)
        .select(columns.toArray(new Column[0]))
        .withColumn("margin", expr(margin.toString()))
        .withColumn(
            "label",
            expr("cast(rand(" + (seed * 1000 + 999) + ") < 1 / (1 + exp(-margin)) as double)"));
  }

  /** {@link #logisticColumns} with the x columns assembled into {@code features}. */
  public static Dataset<Row> logistic(long rows, int numFeatures, long seed, int partitions) {
    return assemble(logisticColumns(rows, numFeatures, seed, partitions), numFeatures);
  }

  /**
   * {@link #logisticColumns} with {@code label = margin + noise} (noise standard deviation 0.5).
   */
  public static Dataset<Row> linearColumns(long rows, int numFeatures, long seed, int partitions) {
    return logisticColumns(rows, numFeatures, seed, partitions)
        .withColumn("label", expr("margin").plus(randn(seed * 1000 + 998).multiply(0.5)));
  }

  /** Columns {@code features} and {@code label = margin + noise} (noise standard deviation 0.5). */
  public static Dataset<Row> linear(long rows, int numFeatures, long seed, int partitions) {
    return assemble(linearColumns(rows, numFeatures, seed, partitions), numFeatures);
  }

  static Dataset<Row> assemble(Dataset<Row> columns, int numFeatures) {
    return new VectorAssembler()
        .setInputCols(featureNames(numFeatures))
        .setOutputCol("features")
        .transform(columns)
        .select("id", "features", "label");
  }

  /** {@code x0..x<n-1>}. */
  public static String[] featureNames(int numFeatures) {
    String[] names = new String[numFeatures];
    for (int i = 0; i < numFeatures; i++) {
      names[i] = "x" + i;
    }
    return names;
  }

  /**
   * The usual pipeline over raw columns: the x columns assembled into {@code rawFeatures},
   * standardized into {@code features}, then {@code predictor}.
   */
  static Pipeline scaledPipeline(int numFeatures, PipelineStage predictor) {
    return new Pipeline()
        .setStages(
            new PipelineStage[] {
              new VectorAssembler()
                  .setInputCols(featureNames(numFeatures))
                  .setOutputCol("rawFeatures"),
              new StandardScaler()
                  .setInputCol("rawFeatures")
                  .setOutputCol("features")
                  .setWithMean(true),
              predictor
            });
  }
}
