package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The view's reads: dense features copied bit for bit into its array, from {@link
 * org.apache.spark.sql.catalyst.expressions.UnsafeRow}s (bulk copies of their bytes) and other rows
 * alike; sparse vectors read in place.
 */
class FeatureVectorTest {
  /**
   * Values whose bits a copy through arithmetic could change: signed zero, NaN, subnormal,
   * infinity.
   */
  private static final double[] VALUES = {
    1.5, -0.0, 0.0, Double.NaN, Double.MIN_VALUE, Double.NEGATIVE_INFINITY, -3e300
  };

  private static final int FIRST = 2;

  /** {@code (label, weight, f0..fn)}, as TrainingRow lays out feature columns. */
  private static InternalRow columnsRow(double[] values, boolean unsafe) {
    Object[] fields = new Object[FIRST + values.length];
    StructType schema =
        new StructType().add("label", DataTypes.DoubleType).add("weight", DataTypes.DoubleType);
    fields[0] = 1.0;
    fields[1] = 2.0;
    for (int k = 0; k < values.length; k++) {
      fields[FIRST + k] = values[k];
      schema = schema.add("f" + k, DataTypes.DoubleType);
    }
    return unsafe(new GenericInternalRow(fields), schema, unsafe);
  }

  /** {@code (label, weight, vector)}, the vector in VectorUDT's form. */
  private static InternalRow vectorRow(InternalRow vector, boolean unsafe) {
    StructType schema =
        new StructType()
            .add("label", DataTypes.DoubleType)
            .add("weight", DataTypes.DoubleType)
            .add("features", SQLDataTypes.VectorType());
    return unsafe(new GenericInternalRow(new Object[] {1.0, 2.0, vector}), schema, unsafe);
  }

  private static InternalRow unsafe(InternalRow row, StructType schema, boolean unsafe) {
    return unsafe ? UnsafeProjection.create(schema).apply(row).copy() : row;
  }

  private static InternalRow dense(double[] values) {
    return new GenericInternalRow(
        new Object[] {(byte) 1, null, null, UnsafeArrayData.fromPrimitiveArray(values)});
  }

  private static InternalRow sparse(int size, int[] indices, double[] values) {
    return new GenericInternalRow(
        new Object[] {
          (byte) 0,
          size,
          UnsafeArrayData.fromPrimitiveArray(indices),
          UnsafeArrayData.fromPrimitiveArray(values)
        });
  }

  private static long[] bits(double[] values) {
    return Arrays.stream(values).mapToLong(Double::doubleToRawLongBits).toArray();
  }

  /** The entries as index and value reads them, value bits at the index. */
  private static long[] readBits(FeatureVector x) {
    long[] bits = new long[x.size()];
    for (int k = 0; k < x.numStored(); k++) {
      bits[x.index(k)] = Double.doubleToRawLongBits(x.value(k));
    }
    return bits;
  }

  @Test
  void featureColumnsAreCopiedBitForBit() {
    for (boolean unsafe : new boolean[] {true, false}) {
      FeatureVector x = FeatureVector.ofColumns(FIRST, VALUES.length);
      x.pointTo(columnsRow(VALUES, unsafe));
      assertThat(x.size()).isEqualTo(VALUES.length);
      assertThat(x.numStored()).isEqualTo(VALUES.length);
      assertThat(bits(x.denseValues())).as("unsafe %s", unsafe).containsExactly(bits(VALUES));
      assertThat(readBits(x)).containsExactly(bits(VALUES));
    }
  }

  @Test
  void aDenseVectorIsCopiedBitForBitAndReadsAsTheSameValuesInColumns() {
    FeatureVector columns = FeatureVector.ofColumns(FIRST, VALUES.length);
    columns.pointTo(columnsRow(VALUES, true));
    for (boolean unsafe : new boolean[] {true, false}) {
      FeatureVector x = FeatureVector.ofVector(FIRST);
      x.pointTo(vectorRow(dense(VALUES), unsafe));
      assertThat(x.size()).isEqualTo(VALUES.length);
      assertThat(x.numStored()).isEqualTo(VALUES.length);
      assertThat(bits(x.denseValues()))
          .as("unsafe %s", unsafe)
          .containsExactly(bits(columns.denseValues()));
      assertThat(readBits(x)).containsExactly(bits(VALUES));
    }
  }

  /**
   * Sparse vectors have no dense array; a view moving between dense and sparse rows of any size
   * reads each right.
   */
  @Test
  void aSparseVectorIsReadInPlaceAndTheViewFollowsEveryKindOfRow() {
    for (boolean unsafe : new boolean[] {true, false}) {
      FeatureVector x = FeatureVector.ofVector(FIRST);
      x.pointTo(vectorRow(dense(VALUES), unsafe));
      x.pointTo(vectorRow(sparse(100, new int[] {3, 70}, new double[] {-0.0, 2.5}), unsafe));
      assertThat(x.denseValues()).isNull();
      assertThat(x.size()).isEqualTo(100);
      assertThat(x.numStored()).isEqualTo(2);
      assertThat(new int[] {x.index(0), x.index(1)}).containsExactly(3, 70);
      assertThat(bits(new double[] {x.value(0), x.value(1)}))
          .containsExactly(bits(new double[] {-0.0, 2.5}));
      x.pointTo(vectorRow(dense(new double[] {4, 5}), unsafe));
      assertThat(x.denseValues()).containsExactly(4, 5);
      assertThat(x.size()).isEqualTo(2);
      x.pointTo(vectorRow(dense(new double[0]), unsafe));
      assertThat(x.denseValues()).isEmpty();
      assertThat(x.numStored()).isZero();
    }
  }

  /** The bulk copy out of an UnsafeRow would read past its bytes: the view refuses instead. */
  @Test
  void featureColumnsPastTheRowsFieldsAreRefused() {
    FeatureVector x = FeatureVector.ofColumns(FIRST, VALUES.length + 1);
    assertThatThrownBy(() -> x.pointTo(columnsRow(VALUES, true)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot view features in fields 2 to 9: the row has 9 fields");
  }
}
