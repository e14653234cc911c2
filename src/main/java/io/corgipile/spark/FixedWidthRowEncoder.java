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
 * <p>For a projection ({@link ScanProjection}) a double field may come from a column of another
 * numeric type or a boolean, converted as Spark's cast to double converts it; and a field whose
 * column is {@link #NO_COLUMN} is left zero and not null, for the caller to write (a constant).
 */
public final class FixedWidthRowEncoder {
  private enum Kind {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE
  }

  /**
   * Rows written at a time: few enough that a tile of rows stays in the L1 cache while every column
   * is written into it, and while its rows are read or copied on ({@link BatchRows}, {@link
   * ProjectedBatchRows}).
   */
  static final int TILE_ROWS = 64;

  /** The column of a field the encoder leaves to its caller. */
  static final int NO_COLUMN = -1;

  private final Kind[] kinds;

  /** The kind each field is read as from its column: its own kind, or one converted to a double. */
  private final Kind[] sourceKinds;

  private final int[] columns;
  private final int bitSetBytes;
  private final int rowBytes;

  /** See {@link #runs()}. */
  private final int[] runs;

  /** The fields in no run: constants and converted ones, written one at a time. */
  private final int[] notInRuns;

  private FixedWidthRowEncoder(Kind[] kinds, Kind[] sourceKinds, int[] columns) {
    this.kinds = kinds;
    this.sourceKinds = sourceKinds;
    this.columns = columns;
    this.bitSetBytes = UnsafeRows.bitSetBytes(kinds.length);
    this.rowBytes = UnsafeRows.fixedWidthBytes(kinds.length);
    this.runs = runs();
    this.notInRuns =
        java.util.stream.IntStream.range(0, columns.length)
            .filter(field -> columns[field] == NO_COLUMN || converted(field))
            .toArray();
  }

  /**
   * The fields copied as they are, as runs of consecutive fields from consecutive columns, three
   * ints a run: first field, first column, length. Fields without a column or converted are in
   * none.
   */
  private int[] runs() {
    int[] runs = new int[3 * columns.length];
    int n = 0;
    for (int field = 0; field < columns.length; field++) {
      if (columns[field] == NO_COLUMN || converted(field)) {
        continue;
      }
      if (n > 0
          && runs[n - 3] + runs[n - 1] == field
          && runs[n - 2] + runs[n - 1] == columns[field]) {
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
   * Whether the rows this encoder writes from rows of {@code numFields} fields (a {@link
   * RowArenaBatch}'s) are those rows' bytes as they are: every field its own column, none converted
   * or constant. Such rows can then be read in place instead.
   */
  boolean writesRowsAsTheyAre(int numFields) {
    return numFields == columns.length
        && runs.length == 3
        && runs[0] == 0
        && runs[1] == 0
        && runs[2] == columns.length;
  }

  /**
   * An encoder for rows of {@code output}, whose field {@code i} is column {@code columns[i]} of
   * the batches (or {@link #NO_COLUMN}); null when some field is not a fixed-width primitive.
   */
  public static FixedWidthRowEncoder forSchema(StructType output, int[] columns) {
    return forProjection(output, columns, new DataType[columns.length]);
  }

  /**
   * As {@link #forSchema}, field {@code i} converted from a column of type {@code sources[i]} when
   * that is not null: to a double field from a boolean or a numeric type other than decimal; null
   * when some conversion is not one of those.
   */
  static FixedWidthRowEncoder forProjection(StructType output, int[] columns, DataType[] sources) {
    StructField[] fields = output.fields();
    Kind[] kinds = new Kind[fields.length];
    Kind[] sourceKinds = new Kind[fields.length];
    for (int i = 0; i < fields.length; i++) {
      kinds[i] = kindOf(fields[i].dataType());
      if (kinds[i] == null) {
        return null;
      }
      sourceKinds[i] = kinds[i];
      if (sources[i] != null && !sources[i].equals(fields[i].dataType())) {
        boolean number =
            sources[i] instanceof BooleanType
                || sources[i] instanceof ByteType
                || sources[i] instanceof ShortType
                || sources[i] instanceof IntegerType
                || sources[i] instanceof LongType
                || sources[i] instanceof FloatType;
        if (kinds[i] != Kind.DOUBLE || !number) {
          return null;
        }
        sourceKinds[i] = kindOf(sources[i]);
      }
    }
    return new FixedWidthRowEncoder(kinds, sourceKinds, columns.clone());
  }

  private boolean converted(int field) {
    return sourceKinds[field] != kinds[field];
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
    } else if (t instanceof LongType
        || t instanceof TimestampType
        || t instanceof TimestampNTZType) {
      return Kind.LONG;
    } else if (t instanceof FloatType) {
      return Kind.FLOAT;
    } else if (t instanceof DoubleType) {
      return Kind.DOUBLE;
    }
    return null;
  }

  /** Bytes of every row. */
  public int rowBytes() {
    return rowBytes;
  }

  /** Writes the batch's rows one after another into {@code target}, from its start. */
  void encode(ColumnarBatch batch, byte[] target) {
    encode(batch, 0, batch.numRows(), target);
  }

  /**
   * Writes rows {@code [first, first + n)} of the batch one after another into {@code target}, from
   * its start.
   */
  public void encode(ColumnarBatch batch, int first, int n, byte[] target) {
    // Tiles of rows small enough to stay in the L1 cache while every column is written into them.
    for (int from = 0; from < n; from += TILE_ROWS) {
      int to = Math.min(n, from + TILE_ROWS);
      for (int i = from; i < to; i++) {
        long row = Platform.BYTE_ARRAY_OFFSET + (long) i * rowBytes;
        for (int word = 0; word < bitSetBytes; word += 8) {
          Platform.putLong(target, row + word, 0L);
        }
      }
      for (int field = 0; field < kinds.length; field++) {
        if (columns[field] == NO_COLUMN) {
          long slot = Platform.BYTE_ARRAY_OFFSET + bitSetBytes + 8L * field;
          for (int i = from; i < to; i++) {
            Platform.putLong(target, slot + (long) i * rowBytes, 0L);
          }
        } else if (converted(field)) {
          encodeAsDouble(batch.column(columns[field]), field, first, from, to, target);
        } else {
          encodeColumn(batch.column(columns[field]), field, first, from, to, target);
        }
      }
    }
  }

  /**
   * Writes rows {@code [first, first + n)} of a {@link RowArenaBatch} one after another into {@code
   * target}, from its start, field {@code i} from field {@code columns[i]} of the rows it views:
   * each row's slots copied as they are (a fixed-width field's slot is the same bytes in any such
   * row), a run of consecutive fields in one copy, its null bits moved with them. A row at a time,
   * as the rows lie apart in the arena.
   */
  void encode(RowArenaColumnVector.Rows rows, int first, int n, byte[] target) {
    int sourceBitSetBytes = rows.bitSetBytes();
    for (int r = 0; r < n; r++) {
      Object base = rows.base(first + r);
      long offset = rows.offset(first + r);
      long row = Platform.BYTE_ARRAY_OFFSET + (long) r * rowBytes;
      for (int word = 0; word < bitSetBytes; word += 8) {
        Platform.putLong(target, row + word, 0L);
      }
      long sourceSlots = offset + sourceBitSetBytes;
      for (int field : notInRuns) {
        if (columns[field] == NO_COLUMN) {
          Platform.putLong(target, row + bitSetBytes + 8L * field, 0L);
        } else { // converted; a null's slot is zero, read as 0.0: zero again
          Platform.putDouble(
              target,
              row + bitSetBytes + 8L * field,
              slotAsDouble(sourceKinds[field], base, sourceSlots + 8L * columns[field]));
        }
      }
      for (int i = 0; i < runs.length; i += 3) {
        Platform.copyMemory(
            base,
            sourceSlots + 8L * runs[i + 1],
            target,
            row + bitSetBytes + 8L * runs[i],
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

  /** A slot of a field of {@code kind}, as Spark's cast to double converts its value. */
  private static double slotAsDouble(Kind kind, Object base, long slot) {
    switch (kind) {
      case BOOLEAN:
        return Platform.getBoolean(base, slot) ? 1.0 : 0.0;
      case BYTE:
        return Platform.getByte(base, slot);
      case SHORT:
        return Platform.getShort(base, slot);
      case INT:
        return Platform.getInt(base, slot);
      case LONG:
        return Platform.getLong(base, slot);
      case FLOAT:
        return Platform.getFloat(base, slot);
      default:
        return Platform.getDouble(base, slot);
    }
  }

  /** A column of a type other than double into a double field, as Spark's cast converts it. */
  private void encodeAsDouble(
      ColumnVector v, int field, int first, int from, int to, byte[] target) {
    long slot = Platform.BYTE_ARRAY_OFFSET + bitSetBytes + 8L * field;
    boolean nulls = v.hasNull();
    Kind kind = sourceKinds[field];
    for (int i = from; i < to; i++) {
      int r = first + i;
      if (nulls && v.isNullAt(r)) {
        markNull(field, i, target);
        continue;
      }
      double value =
          switch (kind) {
            case BOOLEAN -> v.getBoolean(r) ? 1.0 : 0.0;
            case BYTE -> v.getByte(r);
            case SHORT -> v.getShort(r);
            case INT -> v.getInt(r);
            case LONG -> v.getLong(r);
            case FLOAT -> v.getFloat(r);
            case DOUBLE -> v.getDouble(r);
          };
      Platform.putDouble(target, slot + (long) i * rowBytes, value);
    }
  }

  /**
   * A column into its own kind of field: one write per value of a double or a long. A null's value
   * is never read: a dictionary-encoded vector has no valid id there.
   */
  private void encodeColumn(ColumnVector v, int field, int first, int from, int to, byte[] target) {
    long slot = Platform.BYTE_ARRAY_OFFSET + bitSetBytes + 8L * field;
    boolean nulls = v.hasNull();
    Kind kind = kinds[field];
    for (int i = from; i < to; i++) {
      int r = first + i;
      if (nulls && v.isNullAt(r)) {
        markNull(field, i, target);
        continue;
      }
      long at = slot + (long) i * rowBytes;
      switch (kind) {
        case DOUBLE -> Platform.putDouble(target, at, v.getDouble(r));
        case LONG -> Platform.putLong(target, at, v.getLong(r));
        default -> {
          Platform.putLong(target, at, 0L); // as UnsafeRowWriter: a narrow field's other bytes zero
          switch (kind) {
            case INT -> Platform.putInt(target, at, v.getInt(r));
            case FLOAT -> Platform.putFloat(target, at, v.getFloat(r));
            case SHORT -> Platform.putShort(target, at, v.getShort(r));
            case BYTE -> Platform.putByte(target, at, v.getByte(r));
            case BOOLEAN -> Platform.putBoolean(target, at, v.getBoolean(r));
            default ->
                throw new IllegalStateException(
                    "Cannot encode field " + field + ": unexpected kind " + kind);
          }
        }
      }
    }
  }

  /**
   * Row {@code i}'s field {@code field} as UnsafeRowWriter writes a null: its bit set, its slot
   * zero.
   */
  private void markNull(int field, int i, byte[] target) {
    long row = Platform.BYTE_ARRAY_OFFSET + (long) i * rowBytes;
    Platform.putLong(target, row + bitSetBytes + 8L * field, 0L);
    BitSetMethods.set(target, row, field);
  }
}
