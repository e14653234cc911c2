package io.corgipile.spark;

import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.InputAdapter;
import org.apache.spark.sql.execution.ProjectExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A plan that only picks columns of one columnar scan, casts numbers to doubles and adds double
 * constants (the shape of a training {@code select} over a table of numeric columns), read straight
 * from the scan's column batches: the rows are the bytes Spark's generated column-to-row conversion
 * and projection would write, in the same order, without their calls per value.
 *
 * <p>The conversion reads every value through a virtual {@code isNullAt} and {@code getDouble}; for
 * the rows a {@code corgipile} buffer holds, each of those computes the row's address again and the
 * first one waits for the row's cache lines. Here a row of the buffer is copied slot by slot in one
 * go, and a batch of Spark's own columns a column at a time ({@link FixedWidthRowEncoder}).
 */
final class ScanProjection {
  private final BatchScanExec scan;
  private final StructType schema;

  /**
   * The scan column of each output field, or {@link FixedWidthRowEncoder#NO_COLUMN} for a constant.
   */
  private final int[] columns;

  /** The type each field is cast from, or null when it is its column's value as it is. */
  private final DataType[] sources;

  /** The constant of each field whose column is {@link FixedWidthRowEncoder#NO_COLUMN}. */
  private final double[] constants;

  private ScanProjection(
      BatchScanExec scan,
      StructType schema,
      int[] columns,
      DataType[] sources,
      double[] constants) {
    this.scan = scan;
    this.schema = schema;
    this.columns = columns;
    this.sources = sources;
    this.constants = constants;
  }

  /**
   * The projection {@code plan} executes, when it is a columnar V2 scan under at most one
   * projection of its columns, their casts to double from numbers or booleans, and double
   * constants, every field kept in an 8-byte slot; empty otherwise (a filter, another cast or
   * expression, a vector column, another source), for Spark to run as it is.
   */
  static Optional<ScanProjection> of(SparkPlan plan) {
    ProjectExec project = null;
    SparkPlan node = plan;
    while (!(node instanceof ColumnarToRowExec)) {
      if (node instanceof WholeStageCodegenExec codegen) {
        node = codegen.child();
      } else if (node instanceof InputAdapter adapter) {
        node = adapter.child();
      } else if (node instanceof ProjectExec p && project == null) {
        project = p;
        node = p.child();
      } else {
        return Optional.empty();
      }
    }
    SparkPlan input = ((ColumnarToRowExec) node).child();
    if (input
        instanceof
        InputAdapter adapter) { // whole-stage codegen's boundary before the columnar scan
      input = adapter.child();
    }
    if (!(input instanceof BatchScanExec scan) || !scan.supportsColumnar()) {
      return Optional.empty();
    }
    List<AttributeReference> scanOutput = CollectionConverters.asJava(scan.output());
    // NamedExpression is a Scala trait over the class Expression, which Java does not see: hence
    // Object.
    List<?> fields =
        project == null ? scanOutput : CollectionConverters.asJava(project.projectList());
    int[] columns = new int[fields.size()];
    DataType[] sources = new DataType[fields.size()];
    double[] constants = new double[fields.size()];
    for (int i = 0; i < columns.length; i++) {
      Object e = fields.get(i) instanceof Alias alias ? alias.child() : fields.get(i);
      if (e instanceof Cast cast
          && cast.dataType() instanceof DoubleType
          && cast.child() instanceof Attribute a) {
        sources[i] =
            a.dataType(); // a number or boolean to double: the encoder converts it, or declines
        e = a;
      }
      if (e instanceof Attribute attribute) {
        columns[i] = indexOf(scanOutput, attribute);
        if (columns[i] < 0) {
          return Optional.empty();
        }
      } else if (e instanceof Literal literal
          && literal.dataType() instanceof DoubleType
          && literal.value() != null) {
        columns[i] = FixedWidthRowEncoder.NO_COLUMN;
        constants[i] = (Double) literal.value();
      } else {
        return Optional.empty();
      }
    }
    StructType schema = plan.schema();
    if (FixedWidthRowEncoder.forProjection(schema, columns, sources) == null) {
      return Optional.empty();
    }
    return Optional.of(new ScanProjection(scan, schema, columns, sources, constants));
  }

  private static int indexOf(List<AttributeReference> output, Attribute attribute) {
    for (int i = 0; i < output.size(); i++) {
      if (output.get(i).exprId().equals(attribute.exprId())) {
        return i;
      }
    }
    return -1;
  }

  /** The plan's rows, partition for partition and in the order the plan gives them. */
  RDD<InternalRow> rows() {
    return scan.executeColumnar()
        .toJavaRDD()
        .mapPartitions(new Rows(schema, columns, sources, constants))
        .rdd();
  }

  /** One partition's batches as rows: one reused {@code UnsafeRow}, valid until the next. */
  private static final class Rows implements FlatMapFunction<Iterator<ColumnarBatch>, InternalRow> {
    private static final long serialVersionUID = 1L;

    private final StructType schema;
    private final int[] columns;
    private final DataType[] sources;
    private final double[] constants;

    Rows(StructType schema, int[] columns, DataType[] sources, double[] constants) {
      this.schema = schema;
      this.columns = columns;
      this.sources = sources;
      this.constants = constants;
    }

    @Override
    public Iterator<InternalRow> call(Iterator<ColumnarBatch> batches) {
      return new ProjectedBatchRows(
          batches,
          FixedWidthRowEncoder.forProjection(schema, columns, sources),
          columns,
          constants);
    }
  }
}
