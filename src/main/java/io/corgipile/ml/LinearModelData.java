package io.corgipile.ml;

import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * How the SGD models are saved: MLlib's metadata (class, uid, params) in {@code metadata/}, and
 * one row of {@code intercept, coefficients} as Parquet in {@code data/}, as MLlib's linear models do.
 */
final class LinearModelData {
  private static final StructType SCHEMA = new StructType()
      .add("intercept", DataTypes.DoubleType, false)
      .add("coefficients", SQLDataTypes.VectorType(), false);

  private LinearModelData() {}

  /** Makes a model from its uid, coefficients and intercept. */
  interface Factory<M> {
    M create(String uid, Vector coefficients, double intercept);
  }

  static final class Writer extends MLWriter {
    private final Params model;
    private final Vector coefficients;
    private final double intercept;

    Writer(Params model, Vector coefficients, double intercept) {
      this.model = model;
      this.coefficients = coefficients;
      this.intercept = intercept;
    }

    @Override
    public void saveImpl(String path) {
      DefaultParamsWriter.saveMetadata(model, path, sparkSession());
      sparkSession().createDataFrame(List.of(RowFactory.create(intercept, coefficients)), SCHEMA)
          .repartition(1).write().parquet(new org.apache.hadoop.fs.Path(path, "data").toString());
    }
  }

  static final class Reader<M extends Params> extends MLReader<M> {
    private final Class<M> modelClass;
    private final Factory<M> factory;

    Reader(Class<M> modelClass, Factory<M> factory) {
      this.modelClass = modelClass;
      this.factory = factory;
    }

    @Override
    public M load(String path) {
      DefaultParamsReader.Metadata metadata =
          DefaultParamsReader.loadMetadata(path, sparkSession(), modelClass.getName());
      Row data = sparkSession().read().parquet(new org.apache.hadoop.fs.Path(path, "data").toString())
          .select("intercept", "coefficients").head();
      M model = factory.create(metadata.uid(), data.getAs(1), data.getDouble(0));
      metadata.getAndSetParams(model, Option.empty());
      return model;
    }
  }
}
