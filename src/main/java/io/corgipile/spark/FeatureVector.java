package io.corgipile.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;

/**
 * A reusable view of an MLlib vector stored in an {@link InternalRow}, read in place.
 *
 * <p>No {@code Vector} or {@code Row} object per row. The vector's SQL form (VectorUDT) is a struct of
 * {@code type} (0 sparse, 1 dense), {@code size}, {@code indices} and {@code values}; a dense
 * vector keeps only {@code values}. For the {@link UnsafeRow}s Spark plans produce, the view points
 * reused objects at the row's bytes, so reading a row allocates nothing.
 */
public final class FeatureVector {
  private static final int VECTOR_FIELDS = 4;
  private static final byte SPARSE = 0;

  private final UnsafeRow struct = new UnsafeRow(VECTOR_FIELDS);
  private final UnsafeArrayData unsafeIndices = new UnsafeArrayData();
  private final UnsafeArrayData unsafeValues = new UnsafeArrayData();
  private ArrayData indices;
  private ArrayData values;
  private boolean sparse;
  private int size;

  /** Points this view at the vector in field {@code ordinal} of {@code row}, which must not be null. */
  public void pointTo(InternalRow row, int ordinal) {
    InternalRow vector;
    if (row instanceof UnsafeRow unsafe) {
      UnsafeRows.pointToStruct(unsafe, ordinal, struct);
      vector = struct;
    } else {
      vector = row.getStruct(ordinal, VECTOR_FIELDS);
    }
    sparse = vector.getByte(0) == SPARSE;
    values = array(vector, 3, unsafeValues);
    if (sparse) {
      size = vector.getInt(1);
      indices = array(vector, 2, unsafeIndices);
    } else {
      size = values.numElements();
      indices = null;
    }
  }

  private static ArrayData array(InternalRow vector, int ordinal, UnsafeArrayData reused) {
    if (vector instanceof UnsafeRow unsafe) {
      UnsafeRows.pointToArray(unsafe, ordinal, reused);
      return reused;
    }
    return vector.getArray(ordinal);
  }

  /** The vector's dimension. */
  public int size() {
    return size;
  }

  /** Stored entries: the non-zeros of a sparse vector, every entry of a dense one. */
  public int numStored() {
    return values.numElements();
  }

  /** The feature index of stored entry {@code k}. */
  public int index(int k) {
    return sparse ? indices.getInt(k) : k;
  }

  public double value(int k) {
    return values.getDouble(k);
  }
}
