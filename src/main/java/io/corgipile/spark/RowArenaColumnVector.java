package io.corgipile.spark;

import io.corgipile.shuffle.TupleShuffleBuffer;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.bitset.BitSetMethods;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * One column of a {@link RowArenaBatch}: {@code UnsafeRow}s read in place where a {@link
 * TupleShuffleBuffer} or a sliding window holds them, in the order they are emitted. Only for
 * fields {@code UnsafeRow} keeps in their 8-byte slot (primitives, dates, timestamps), which is
 * what {@link FixedWidthRowEncoder} writes.
 */
final class RowArenaColumnVector extends ColumnVector {
  /** Where the rows of the current batch are; shared by the batch's columns. */
  static final class Rows {
    private static final int CACHE_LINE_BYTES = 64;
    private final int numFields;
    private final int bitSetBytes;
    private final Object[] bases;
    private final long[] offsets;

    Rows(int numFields, int capacity) {
      this.numFields = numFields;
      this.bitSetBytes = UnsafeRows.bitSetBytes(numFields);
      this.bases = new Object[capacity];
      this.offsets = new long[capacity];
    }

    /** Points the batch at rows {@code [start, start + n)} of {@code buffer}. */
    void point(TupleShuffleBuffer buffer, int start, int n) {
      for (int i = 0; i < n; i++) {
        long position = buffer.positionOf(start + i);
        bases[i] = buffer.chunkOf(position);
        offsets[i] = Platform.BYTE_ARRAY_OFFSET + (int) position;
      }
    }

    /** Points row {@code i} of the batch at {@code row}'s bytes. */
    void set(int i, UnsafeRow row) {
      bases[i] = row.getBaseObject();
      offsets[i] = row.getBaseOffset();
    }

    /**
     * Loads every cache line of rows {@code [0, n)} and returns a sum of what it read, for the
     * caller to keep so the loads are not dropped. Rows scattered over memory larger than the cache
     * miss once each: loaded here, one independent load after another, the CPU overlaps the misses,
     * where a reader taking each row's fields in turn waits for one miss at a time.
     */
    long load(int n, int rowBytes) {
      long sum = 0;
      for (int i = 0; i < n; i++) {
        Object base = bases[i];
        long offset = offsets[i];
        for (int line = 0; line < rowBytes; line += CACHE_LINE_BYTES) {
          sum += Platform.getLong(base, offset + line);
        }
      }
      return sum;
    }

    /** The object row {@code i} of the batch lies in. */
    Object base(int i) {
      return bases[i];
    }

    /** Where row {@code i} of the batch starts in {@link #base}. */
    long offset(int i) {
      return offsets[i];
    }

    /** Fields of a row. */
    int numFields() {
      return numFields;
    }

    /** Bytes of a row's null bit set; its slots follow. */
    int bitSetBytes() {
      return bitSetBytes;
    }
  }

  private final Rows rows;
  private final int field;
  private final long slot;

  RowArenaColumnVector(DataType type, Rows rows, int field) {
    super(type);
    this.rows = rows;
    this.field = field;
    this.slot = rows.bitSetBytes + 8L * field;
  }

  /** The rows this column's batch views. */
  Rows rows() {
    return rows;
  }

  @Override
  public boolean hasNull() {
    return true; // not tracked; Spark then asks isNullAt, which is exact
  }

  @Override
  public int numNulls() {
    throw new UnsupportedOperationException("Cannot count nulls of a shuffled row column");
  }

  @Override
  public boolean isNullAt(int rowId) {
    return BitSetMethods.isSet(rows.bases[rowId], rows.offsets[rowId], field);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return Platform.getBoolean(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public byte getByte(int rowId) {
    return Platform.getByte(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public short getShort(int rowId) {
    return Platform.getShort(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public int getInt(int rowId) {
    return Platform.getInt(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public long getLong(int rowId) {
    return Platform.getLong(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public float getFloat(int rowId) {
    return Platform.getFloat(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public double getDouble(int rowId) {
    return Platform.getDouble(rows.bases[rowId], rows.offsets[rowId] + slot);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw unsupported("decimals");
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported("strings");
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported("binaries");
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported("arrays");
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw unsupported("maps");
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported("structs");
  }

  @Override
  public void close() {
    // views only: the buffer owns the memory
  }

  private UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(
        "Cannot read "
            + what
            + " from a column of fixed-width rows ("
            + dataType().simpleString()
            + ")");
  }
}
