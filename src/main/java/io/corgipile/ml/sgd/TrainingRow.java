package io.corgipile.ml.sgd;

import static org.apache.spark.sql.functions.col;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.spark.FeatureVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The layout of a row as training reads it, {@code (label, weight, features...)} with a weight
 * column, {@code (label, features...)} without: the features are one vector field, or one double
 * field per column of {@code featuresCols}. Without a constant weight field, a scan whose columns
 * are the label and the features in that order gives rows in this layout already, which training
 * then reads where the {@code corgipile} buffer holds them. The one home of that layout and of what
 * makes a row unusable, for the feature summary, the SGD pass and the step calibration alike.
 */
public final class TrainingRow {
  static final int LABEL = 0;

  /** The weight column's value, with a weight column. */
  static final int WEIGHT = 1;

  private TrainingRow() {}

  /**
   * The columns that make {@code dataset}'s rows into training rows, checked against its schema.
   * The feature columns' names and types are checked when the stage's schema is ({@link
   * FeatureColumns}).
   */
  public static Column[] columns(SGDConfig config, Dataset<?> dataset) {
    List<Column> columns = new ArrayList<>(List.of(col(config.labelCol()).cast("double")));
    if (config.weighted()) {
      Optional<StructField> weight = field(dataset.schema(), config.weightCol());
      if (weight.isEmpty()) {
        throw new InvalidTrainingDataException(
            config.cannotTrain()
                + "weightCol '"
                + config.weightCol()
                + "' is not a column; the columns are "
                + Arrays.toString(dataset.columns()));
      }
      if (!(weight.get().dataType() instanceof NumericType)) {
        throw new InvalidTrainingDataException(
            config.cannotTrain()
                + "weightCol '"
                + config.weightCol()
                + "' has type "
                + weight.get().dataType().simpleString()
                + "; it must be numeric");
      }
      columns.add(col(config.weightCol()).cast("double"));
    }
    if (config.featureColumns()) {
      for (String name : config.featuresCols()) {
        columns.add(col(name).cast("double"));
      }
    } else {
      columns.add(col(config.featuresCol()));
    }
    return columns.toArray(new Column[0]);
  }

  /** The field {@code name} resolves to, ignoring case as Spark's default resolution does. */
  static Optional<StructField> field(StructType schema, String name) {
    return Arrays.stream(schema.fields()).filter(f -> f.name().equalsIgnoreCase(name)).findFirst();
  }

  /** The vector field, or the first of the feature columns. */
  public static int featuresField(SGDConfig config) {
    return config.weighted() ? WEIGHT + 1 : WEIGHT;
  }

  /** A view of a training row's features. */
  public static FeatureVector features(SGDConfig config) {
    return config.featureColumns()
        ? FeatureVector.ofColumns(featuresField(config), config.featuresCols().length)
        : FeatureVector.ofVector(featuresField(config));
  }

  /**
   * What makes the row unusable, or null. Features are checked for finiteness by {@link
   * #nonFiniteFeature}.
   */
  public static String problem(SGDConfig config, InternalRow row) {
    if (row.anyNull()) {
      String nulls = nulls(config, row);
      if (nulls != null) {
        return nulls;
      }
    }
    double label = row.getDouble(LABEL);
    if (config.task() == SGDTask.CLASSIFICATION
        ? !isClass(label, config.numClasses())
        : !Double.isFinite(label)) {
      return "a row has label "
          + label
          + " in column '"
          + config.labelCol()
          + "'; "
          + (config.task() == SGDTask.CLASSIFICATION
              ? allowedLabels(config.numClasses())
              : "labels must be finite");
    }
    if (config.weighted()) {
      double weight = row.getDouble(WEIGHT);
      if (!(weight >= 0) || Double.isInfinite(weight)) {
        return "a row has weight "
            + weight
            + " in column '"
            + config.weightCol()
            + "'; weights must be finite and >= 0";
      }
    }
    return null;
  }

  /** The first null the row holds, as a problem. */
  private static String nulls(SGDConfig config, InternalRow row) {
    if (row.isNullAt(LABEL)) {
      return "a row has a null label in column '" + config.labelCol() + "'";
    }
    if (config.weighted() && row.isNullAt(WEIGHT)) {
      return "a row has a null weight in column '" + config.weightCol() + "'";
    }
    int features = featuresField(config);
    if (!config.featureColumns()) {
      return row.isNullAt(features)
          ? "a row has null features in column '" + config.featuresCol() + "'"
          : null;
    }
    for (int k = 0; k < config.featuresCols().length; k++) {
      if (row.isNullAt(features + k)) {
        return "a row has a null in feature column '" + config.featuresCols()[k] + "'";
      }
    }
    return null;
  }

  /** Whether {@code label} is one of the integers 0..numClasses-1. */
  static boolean isClass(double label, int numClasses) {
    return label >= 0 && label < numClasses && label == Math.rint(label);
  }

  /** What a classifier's labels may be, for messages: "allowed labels are 0 and 1". */
  static String allowedLabels(int numClasses) {
    return numClasses == 2
        ? "allowed labels are 0 and 1"
        : "allowed labels are the integers 0 to " + (numClasses - 1);
  }

  /** The row's label. */
  public static double label(InternalRow row) {
    return row.getDouble(LABEL);
  }

  /** The row's weight: 1 without a weight column ({@code weighted} false). */
  public static double weight(InternalRow row, boolean weighted) {
    return weighted ? row.getDouble(WEIGHT) : 1.0;
  }

  /** A feature that is NaN or infinite, as a problem, or null. */
  public static String nonFiniteFeature(SGDConfig config, FeatureVector x) {
    for (int k = 0, n = x.numStored(); k < n; k++) {
      if (!Double.isFinite(x.value(k))) {
        return config.featureColumns()
            ? "a row has " + x.value(k) + " in feature column '" + config.featuresCols()[k] + "'"
            : "a row has feature "
                + x.index(k)
                + " = "
                + x.value(k)
                + " in column '"
                + config.featuresCol()
                + "'";
      }
    }
    return null;
  }

  /** The error for an unusable row when {@code handleInvalid} is {@code error}. */
  public static InvalidTrainingDataException invalid(SGDConfig config, String problem) {
    return new InvalidTrainingDataException(
        config.cannotTrain() + problem + "; set handleInvalid to 'skip' to leave such rows out");
  }
}
