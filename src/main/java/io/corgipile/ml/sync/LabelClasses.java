package io.corgipile.ml.sync;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.SGDClassifierParams;
import io.corgipile.ml.common.FitJobs;
import java.util.Arrays;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.BinaryAttribute;
import org.apache.spark.ml.attribute.NominalAttribute;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * How many classes a classifier's labels name, as MLlib finds it: from the label column's metadata
 * (a {@code StringIndexer}'s output says), else the largest label + 1, from a job that reads the
 * label column alone. Labels that are not classes (negative, fractional, not finite) do not count:
 * training rejects or skips them with the row's value.
 */
public final class LabelClasses {
  private LabelClasses() {}

  /** At least 2; fails above {@link SGDClassifierParams#MAX_CLASSES}. */
  public static int count(Dataset<?> dataset, String labelCol, String estimatorName) {
    if (!Arrays.asList(dataset.columns()).contains(labelCol)) {
      return 2; // training names the missing column
    }
    Attribute attribute = Attribute.fromStructField(dataset.schema().apply(labelCol));
    if (attribute instanceof BinaryAttribute) {
      return 2;
    }
    if (attribute instanceof NominalAttribute nominal && nominal.getNumValues().isDefined()) {
      return check(Math.max(2, (Integer) nominal.getNumValues().get()), labelCol, estimatorName);
    }
    Column label = col(labelCol).cast("double");
    Column isClass =
        label.geq(0).and(label.equalTo(floor(label))).and(label.lt(lit(Double.POSITIVE_INFINITY)));
    FitJobs.describe(
        dataset.sparkSession().sparkContext(),
        estimatorName,
        "classes in column '" + labelCol + "'");
    Row row = dataset.where(isClass).agg(max(label)).head();
    return row.isNullAt(0) ? 2 : check(Math.max(2, row.getDouble(0) + 1), labelCol, estimatorName);
  }

  private static int check(double numClasses, String labelCol, String estimatorName) {
    if (numClasses > SGDClassifierParams.MAX_CLASSES) {
      throw new InvalidTrainingDataException(
          "Cannot train "
              + estimatorName
              + ": column '"
              + labelCol
              + "' has label "
              + (numClasses - 1)
              + ", which makes "
              + String.format("%.0f", numClasses)
              + " classes; at most "
              + SGDClassifierParams.MAX_CLASSES
              + " are supported (labels are 0..K-1)");
    }
    return (int) numClasses;
  }
}
