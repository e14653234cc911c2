package io.corgipile.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/**
 * The label and feature columns the arguments name, held to the input's columns: before Spark
 * starts ({@link Preflight}, from a data file and the partition folders) and on Spark's schema
 * ({@link TrainingJob}), with the same messages.
 *
 * @param types each column's type by name, in the input's order; null where it is not known yet (a
 *     partition folder's, which Spark infers)
 */
record InputColumns(String input, Map<String, DataType> types) {

  static InputColumns of(String input, StructType schema) {
    return of(input, schema, List.of());
  }

  /**
   * The columns of {@code schema}, then those of {@code untyped} it lacks, their types not known.
   */
  static InputColumns of(String input, StructType schema, List<String> untyped) {
    Map<String, DataType> types = new LinkedHashMap<>();
    for (var field : schema.fields()) {
      types.put(field.name(), field.dataType());
    }
    untyped.forEach(c -> types.putIfAbsent(c, null));
    return new InputColumns(input, types);
  }

  /**
   * Checks the columns of the label and the features.
   *
   * @throws UsageException naming the column the input lacks, or a feature neither numeric nor one
   *     vector
   */
  void check(String label, List<String> features) {
    List<String> columns = new ArrayList<>(types.keySet());
    if (!types.containsKey(label)) {
      throw new UsageException(
          "Cannot use --label '"
              + label
              + "': "
              + input
              + " has no such column;"
              + " its columns are "
              + String.join(", ", columns));
    }
    for (String feature : features) {
      if (!types.containsKey(feature)) {
        throw new UsageException(
            "Cannot use --features: "
                + input
                + " has no column '"
                + feature
                + "'; its columns are "
                + String.join(", ", columns));
      }
    }
    if (isOneVector(features)) {
      return;
    }
    for (String feature : features) {
      DataType type = types.get(feature);
      if (type != null && !(type instanceof NumericType)) {
        throw new UsageException(
            "Cannot use --features: column '"
                + feature
                + "' is "
                + type.simpleString()
                + "; features are numeric columns or one vector column");
      }
    }
  }

  /** Whether the features are one vector column, not numeric ones. */
  boolean isOneVector(List<String> features) {
    return features.size() == 1 && SQLDataTypes.VectorType().equals(types.get(features.get(0)));
  }
}
