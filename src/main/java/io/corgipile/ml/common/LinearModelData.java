package io.corgipile.ml.common;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
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
 * How the SGD models are saved: MLlib's metadata (class, uid, params) in {@code metadata/}, and one
 * row as Parquet in {@code data/}, as MLlib's linear models do: {@code intercept, coefficients} for
 * a model of one margin (the layout of every model saved before multinomial models existed, so
 * those still load), {@code numClasses, interceptVector, coefficientMatrix} for a multinomial one,
 * the names {@code LogisticRegressionModel} gives them.
 */
public final class LinearModelData {
  private static final StructType ONE_MARGIN =
      new StructType()
          .add("intercept", DataTypes.DoubleType, false)
          .add("coefficients", SQLDataTypes.VectorType(), false);
  private static final StructType MULTINOMIAL =
      new StructType()
          .add("numClasses", DataTypes.IntegerType, false)
          .add("interceptVector", SQLDataTypes.VectorType(), false)
          .add("coefficientMatrix", SQLDataTypes.MatrixType(), false);

  private LinearModelData() {}

  /** Makes a model from its uid and fit. */
  public interface Factory<M> {
    M create(String uid, LinearFit fit);
  }

  public static final class Writer extends MLWriter {
    private final Params model;
    private final LinearFit fit;

    public Writer(Params model, LinearFit fit) {
      this.model = model;
      this.fit = fit;
    }

    @Override
    public void saveImpl(String path) {
      DefaultParamsWriter.saveMetadata(model, path, sparkSession());
      Row row =
          fit.multinomial()
              ? RowFactory.create(fit.numMargins(), fit.interceptVector(), fit.coefficientMatrix())
              : RowFactory.create(fit.intercept(model.uid()), fit.coefficients(model.uid()));
      sparkSession()
          .createDataFrame(List.of(row), fit.multinomial() ? MULTINOMIAL : ONE_MARGIN)
          .repartition(1)
          .write()
          .parquet(new org.apache.hadoop.fs.Path(path, "data").toString());
    }
  }

  public static final class Reader<M extends Params> extends MLReader<M> {
    private final Class<M> modelClass;
    private final Factory<M> factory;

    public Reader(Class<M> modelClass, Factory<M> factory) {
      this.modelClass = modelClass;
      this.factory = factory;
    }

    @Override
    public M load(String path) {
      DefaultParamsReader.Metadata metadata =
          DefaultParamsReader.loadMetadata(path, sparkSession(), modelClass.getName());
      var data =
          sparkSession().read().parquet(new org.apache.hadoop.fs.Path(path, "data").toString());
      LinearFit fit;
      if (Arrays.asList(data.columns()).contains("coefficientMatrix")) {
        Row row = data.select("interceptVector", "coefficientMatrix").head();
        fit = LinearFit.of(row.getAs(1), row.getAs(0));
      } else {
        Row row = data.select("intercept", "coefficients").head();
        fit = LinearFit.of(row.getAs(1), row.getDouble(0));
      }
      M model = factory.create(metadata.uid(), fit);
      metadata.getAndSetParams(model, Option.empty());
      return model;
    }
  }
}
