package io.corgipile.ml.sgd;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.when;

import io.corgipile.ml.SGDParams;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.functions;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.shared.HasFeaturesCol;
import org.apache.spark.ml.param.shared.HasLabelCol;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code featuresCols}: numeric columns a stage trains on and predicts from instead of the vector
 * column {@code featuresCol}. Training reads them as double fields ({@link TrainingRow}); a model
 * puts them into a vector column of its own name for the time of MLlib's transform, so its output
 * columns and their metadata are exactly those MLlib gives for a vector of the same values.
 */
public final class FeatureColumns {
  private FeatureColumns() {}

  public static boolean used(SGDParams stage) {
    return stage.getFeaturesCols().length > 0;
  }

  /** {@code stage}'s output schema for {@code schema}, whose feature columns it checks. */
  public static StructType transformSchema(PipelineStage stage, StructType schema) {
    check(stage, schema);
    String vector = vectorColumn(stage);
    StructType out =
        stage
            .copy(vectorParams(stage))
            .transformSchema(schema.add(vector, SQLDataTypes.VectorType(), false));
    return new StructType(
        Arrays.stream(out.fields())
            .filter(f -> !f.name().equals(vector))
            .toArray(StructField[]::new));
  }

  /** The model's output for {@code dataset}: as for a vector of the feature columns' values. */
  public static Dataset<Row> transform(Transformer model, Dataset<?> dataset) {
    check(model, dataset.schema());
    String[] names = ((SGDParams) model).getFeaturesCols();
    Column[] values = new Column[names.length];
    for (int k = 0; k < names.length; k++) {
      values[k] =
          when(
                  col(names[k]).isNull(),
                  raise_error(
                      lit(cannot(model) + "a row has a null in feature column '" + names[k] + "'")))
              .otherwise(col(names[k]).cast("double"));
    }
    String vector = vectorColumn(model);
    Dataset<Row> withVector = dataset.withColumn(vector, functions.array_to_vector(array(values)));
    return ((Transformer) model.copy(vectorParams(model))).transform(withVector).drop(vector);
  }

  /**
   * Fails unless every feature column is a numeric (or boolean) column of {@code schema}, named
   * once, and, when training, not the label.
   */
  private static void check(PipelineStage stage, StructType schema) {
    String[] names = ((SGDParams) stage).getFeaturesCols();
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      Optional<StructField> field = TrainingRow.field(schema, name);
      if (field.isEmpty()) {
        throw new IllegalArgumentException(
            cannot(stage)
                + "featuresCols names '"
                + name
                + "', which is not a"
                + " column; the columns are "
                + Arrays.toString(schema.fieldNames()));
      }
      if (!(field.get().dataType() instanceof NumericType
          || field.get().dataType() instanceof BooleanType)) {
        throw new IllegalArgumentException(
            cannot(stage)
                + "feature column '"
                + name
                + "' has type "
                + field.get().dataType().simpleString()
                + "; featuresCols must be numeric or boolean columns");
      }
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException(
            cannot(stage) + "featuresCols names '" + name + "' twice");
      }
      if (stage instanceof Estimator
          && name.equalsIgnoreCase(((HasLabelCol) stage).getLabelCol())) {
        throw new IllegalArgumentException(
            cannot(stage) + "featuresCols names '" + name + "', the label column");
      }
    }
  }

  /** "Cannot train SGDClassifier: ", "Cannot transform with SGDClassificationModel: ". */
  private static String cannot(PipelineStage stage) {
    return (stage instanceof Estimator ? "Cannot train " : "Cannot transform with ")
        + stage.getClass().getSimpleName()
        + ": ";
  }

  /** The name of the vector column the features make for the stage's own transform. */
  private static String vectorColumn(PipelineStage stage) {
    return "_corgipile_features_" + stage.uid();
  }

  /** The stage's params, made to read that vector column. */
  private static ParamMap vectorParams(PipelineStage stage) {
    return new ParamMap()
        .put(((SGDParams) stage).featuresCols(), new String[0])
        .put(((HasFeaturesCol) stage).featuresCol(), vectorColumn(stage));
  }
}
