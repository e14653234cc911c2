package io.corgipile.spark;

import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.bitset.BitSetMethods;

/**
 * Writes a batch of decoded columns as {@code UnsafeRow} bytes, one column at a time, when every
 * field is a primitive that {@code UnsafeRow} keeps in its 8-byte slot (booleans, integers,
 * floating point, dates, timestamps): the typical feature table.
 *
 * <p>The bytes are those {@code UnsafeProjection} writes (null bit set and slot zeroed for a null;
 * slot zeroed, then the value, otherwise), at a fraction of its cost: a tight loop per column
 * instead of a virtual call per field per row. Other schemas use the projection.
 *
 * <p>A field whose column is {@link #NO_COLUMN} is left zero and not null, for the caller to write
 * (a constant of a projection, {@link ScanProjection}).
 */
final class FixedWidthRowEncoder {
  private enum Kind { BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE }

  private static final int TILE_ROWS = 64;
  /** The column of a field the encoder leaves to its caller. */
  static final int NO_COLUMN = -1;

  private final Kind[] kinds;
  private final int[] columns;
  private final int bitSetBytes;
  private final int rowBytes;
  /** See {@link #runs(int[])}. */
  private final int[] runs;

  private FixedWidthRowEncoder(Kind[] kinds, int[] columns) {
    this.kinds = kinds;
    this.columns = columns;
    this.bitSetBytes = UnsafeRows.bitSetBytes(kinds.length);
    this.rowBytes = UnsafeRows.fixedWidthBytes(kinds.length);
    this.runs = runs(columns);
  }

  /**
   * The fields as runs of consecutive fields from consecutive columns, three ints a run: first
   * field, first column, length; fields without a column are in no run.
   */
  private static int[] runs(int[] columns) {
    int[] runs = new int[3 * columns.length];
    int n = 0;
    for (int field = 0; field < columns.length; field++) {
      if (columns[field] == NO_COLUMN) {
        continue;
      }
      if (n > 0 && runs[n - 3] + runs[n - 1] == field && runs[n - 2] + runs[n - 1] == columns[field]) {
        runs[n - 1]++;
      } else {
        runs[n++] = field;
        runs[n++] = columns[field];
        runs[n++] = 1;
      }
    }
    return java.util.Arrays.copyOf(runs, n);
  }

  /**
   * An encoder for rows of {@code output}, whose field {@code i} is column {@code columns[i]} of the
   * batches (or {@link #NO_COLUMN}); null when some field is not a fixed-width primitive.
   */
  static FixedWidthRowEncoder forSchema(StructType output, int[] columns) {
    StructField[] fields = output.fields();
    Kind[] kinds = new Kind[fields.length];
    for (int i = 0; i < fields.length; i++) {
      kinds[i] = kindOf(fields[i].dataType());
      if (kinds[i] == null) {
        return null;
      }
    }
    return new FixedWidthRowEncoder(kinds, columns.clone());
  }

  private static Kind kindOf(DataType t) {
    if (t instanceof BooleanType) {
      return Kind.BOOLEAN;
    } else if (t instanceof ByteType) {
      return Kind.BYTE;
    } else if (t instanceof ShortType) {
      return Kind.SHORT;
    } else if (t instanceof IntegerType || t instanceof DateType) {
      return Kind.INT;
    } else if (t instanceof LongType || t instanceof TimestampType || t instanceof TimestampNTZType) {
      return Kind.LONG;
    } else if (t instanceof FloatType) {
      return Kind.FLOAT;
    } else if (t instanceof DoubleType) {
      return Kind.DOUBLE;
    }
    return null;
  }

  /** Bytes of every row. */
  int rowBytes() {
    return rowBytes;
  }

  /** Writes the batch's rows one after another into {@code target}, from its start. */
  void encode(ColumnarBatch batch, byte[] target) {
    int rows = batch.numRows();
    // Tiles of rows small enough to stay in the L1 cache while every column is written into them.
    for (int from = 0; from < rows; from += TILE_ROWS) {
      int to = Math.min(rows, from + TILE_ROWS);
      for (int r = from; r < to; r++) {
        long row = Platform.BYTE_ARRAY_OFFSET + (long) r * rowBytes;
        for (int word = 0; word < bitSetBytes; word += 8) {
          Platform.putLong(target, row + word, 0L);
        }
      }
      for (int field = 0; field < kinds.length; field++) {
        if (columns[field] == NO_COLUMN) {
          for (int r = from; r < to; r++) {
            Platform.putLong(target, Platform.BYTE_ARRAY_OFFSET + (long) r * rowBytes + bitSetBytes + 8L * field, 0L);
          }
        } else {
          encodeColumn(batch.column(columns[field]), field, from, to, target);
        }
      }
    }
  }

  /**
   * Writes the first {@code n} rows of a {@link RowArenaBatch} one after another into {@code target},
   * from its start, field {@code i} from field {@code columns[i]} of the rows it views: each row's
   * slots copied as they are (a fixed-width field's slot is the same bytes in any such row), a run of
   * consecutive fields in one copy, its null bits moved with them. A row at a time, as the rows lie
   * apart in the arena.
   */
  void encode(RowArenaColumnVector.Rows rows, int n, byte[] target) {
    int sourceBitSetBytes = rows.bitSetBytes();
    for (int r = 0; r < n; r++) {
      Object base = rows.base(r);
      long offset = rows.offset(r);
      long row = Platform.BYTE_ARRAY_OFFSET + (long) r * rowBytes;
      for (int word = 0; word < bitSetBytes; word += 8) {
        Platform.putLong(target, row + word, 0L);
      }
      for (int field = 0; field < columns.length; field++) {
        if (columns[field] == NO_COLUMN) {
          Platform.putLong(target, row + bitSetBytes + 8L * field, 0L);
        }
      }
      long sourceSlots = offset + sourceBitSetBytes;
      for (int i = 0; i < runs.length; i += 3) {
        Platform.copyMemory(base, sourceSlots + 8L * runs[i + 1], target, row + bitSetBytes + 8L * runs[i],
            8L * runs[i + 2]);
      }
      if (BitSetMethods.anySet(base, offset, sourceBitSetBytes / 8)) {
        for (int field = 0; field < columns.length; field++) {
          if (columns[field] != NO_COLUMN && BitSetMethods.isSet(base, offset, columns[field])) {
            BitSetMethods.set(target, row, field);
          }
        }
      }
    }
  }

  /** One loop per kind, so the loop body has no branch on the type. */
  private void encodeColumn(ColumnVector v, int field, int from, int to, byte[] target) {
    long slot = Platform.BYTE_ARRAY_OFFSET + bitSetBytes + 8L * field;
    boolean nulls = v.hasNull();
    switch (kinds[field]) {
      case DOUBLE:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putDouble(target, slot + (long) r * rowBytes, v.getDouble(r));
          }
        }
        break;
      case LONG:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putLong(target, slot + (long) r * rowBytes, v.getLong(r));
          }
        }
        break;
      case INT:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putInt(target, slot + (long) r * rowBytes, v.getInt(r));
          }
        }
        break;
      case FLOAT:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putFloat(target, slot + (long) r * rowBytes, v.getFloat(r));
          }
        }
        break;
      case SHORT:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putShort(target, slot + (long) r * rowBytes, v.getShort(r));
          }
        }
        break;
      case BYTE:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putByte(target, slot + (long) r * rowBytes, v.getByte(r));
          }
        }
        break;
      case BOOLEAN:
        for (int r = from; r < to; r++) {
          if (present(v, nulls, r, field, target)) {
            Platform.putBoolean(target, slot + (long) r * rowBytes, v.getBoolean(r));
          }
        }
        break;
      default:
        throw new IllegalStateException("Cannot encode field " + field + ": unexpected kind " + kinds[field]);
    }
  }

  /**
   * Zeroes the field's slot, as UnsafeRowWriter does before a value; for a null, also sets its
   * bit, and returns false so the slot stays zero.
   */
  private boolean present(ColumnVector v, boolean nulls, int r, int field, byte[] target) {
    long row = Platform.BYTE_ARRAY_OFFSET + (long) r * rowBytes;
    Platform.putLong(target, row + bitSetBytes + 8L * field, 0L);
    if (nulls && v.isNullAt(r)) {
      BitSetMethods.set(target, row, field);
      return false;
    }
    return true;
  }
}
