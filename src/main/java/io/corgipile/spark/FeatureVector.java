package io.corgipile.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;

/**
 * A reusable view of the features in an {@link InternalRow}, read in place: an MLlib vector stored
 * in one field, or consecutive double fields, one per feature.
 *
 * <p>No {@code Vector} or {@code Row} object per row. The vector's SQL form (VectorUDT) is a struct
 * of {@code type} (0 sparse, 1 dense), {@code size}, {@code indices} and {@code values}; a dense
 * vector keeps only {@code values}. For the {@link UnsafeRow}s Spark plans produce, the view points
 * reused objects at the row's bytes, so reading a row allocates nothing.
 *
 * <p>Dense features (a dense vector, or columns) are copied once per row into a reused array,
 * {@link #denseValues()}, so SGD's loops over them read a plain array rather than the row once per
 * use.
 */
public final class FeatureVector {
  private static final int VECTOR_FIELDS = 4;
  private static final byte SPARSE = 0;

  private final int ordinal;

  /** The double fields that are the features, from {@link #ordinal}; 0 for a vector field. */
  private final int columns;

  private final UnsafeRow struct = new UnsafeRow(VECTOR_FIELDS);
  private final UnsafeArrayData unsafeIndices = new UnsafeArrayData();
  private final UnsafeArrayData unsafeValues = new UnsafeArrayData();
  private ArrayData indices;
  private ArrayData values;

  /**
   * A dense row's values, exactly {@link #size} of them; null while the view is at a sparse vector.
   */
  private double[] dense;

  private double[] denseBuffer = new double[0];
  private int size;

  /** A view of the vector in field {@code ordinal}. */
  public static FeatureVector ofVector(int ordinal) {
    return new FeatureVector(ordinal, 0);
  }

  /**
   * A view of {@code count} double fields from {@code first}, feature {@code k} in field {@code
   * first + k}.
   */
  public static FeatureVector ofColumns(int first, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("Cannot view features in columns: no columns");
    }
    return new FeatureVector(first, count);
  }

  private FeatureVector(int ordinal, int columns) {
    this.ordinal = ordinal;
    this.columns = columns;
  }

  /**
   * Points this view at the features of {@code row}: its vector field, which must not be null, or
   * its feature fields, none of which may be null.
   */
  public void pointTo(InternalRow row) {
    if (columns > 0) {
      size = columns;
      copyColumns(row, denseArray());
      return;
    }
    InternalRow vector;
    if (row instanceof UnsafeRow unsafe) {
      UnsafeRows.pointToStruct(unsafe, ordinal, struct);
      vector = struct;
    } else {
      vector = row.getStruct(ordinal, VECTOR_FIELDS);
    }
    values = array(vector, 3, unsafeValues);
    if (vector.getByte(0) == SPARSE) {
      size = vector.getInt(1);
      indices = array(vector, 2, unsafeIndices);
      dense = null;
    } else {
      size = values.numElements();
      indices = null;
      copyValues(values, denseArray());
    }
  }

  /** Points {@link #dense} at the reused array, made anew only when the size changes. */
  private double[] denseArray() {
    if (denseBuffer.length != size) {
      denseBuffer = new double[size];
    }
    dense = denseBuffer;
    return dense;
  }

  private void copyColumns(InternalRow row, double[] to) {
    if (row instanceof UnsafeRow unsafe) {
      if (ordinal + columns > unsafe.numFields()) { // the bulk copy would read past the row's bytes
        throw new IllegalArgumentException(
            "Cannot view features in fields "
                + ordinal
                + " to "
                + (ordinal + columns - 1)
                + ": the row has "
                + unsafe.numFields()
                + " fields");
      }
      UnsafeRows.copyDoubles(unsafe, ordinal, to);
      return;
    }
    for (int k = 0; k < to.length; k++) {
      to[k] = row.getDouble(ordinal + k);
    }
  }

  private static void copyValues(ArrayData values, double[] to) {
    if (values instanceof UnsafeArrayData unsafe) {
      UnsafeRows.copyDoubles(unsafe, to);
      return;
    }
    for (int k = 0; k < to.length; k++) {
      to[k] = values.getDouble(k);
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

  /** Stored entries: the non-zeros of a sparse vector, every entry of a dense one or of columns. */
  public int numStored() {
    return dense != null ? size : values.numElements();
  }

  /** The feature index of stored entry {@code k}. */
  public int index(int k) {
    return dense != null ? k : indices.getInt(k);
  }

  public double value(int k) {
    return dense != null ? dense[k] : values.getDouble(k);
  }

  /**
   * The features of a dense row, feature {@code j} at {@code j}, in an array the view reuses (read
   * it, never write it); null for a sparse vector, read through {@link #index} and {@link #value}.
   */
  public double[] denseValues() {
    return dense;
  }
}
