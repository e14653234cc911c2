package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.execution.vectorized.Dictionary;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;
import org.junit.jupiter.api.Test;

/** The encoder writes, byte for byte, the rows Spark's UnsafeProjection writes. */
class FixedWidthRowEncoderTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("bool", DataTypes.BooleanType)
          .add("b", DataTypes.ByteType)
          .add("sh", DataTypes.ShortType)
          .add("i", DataTypes.IntegerType)
          .add("dt", DataTypes.DateType)
          .add("l", DataTypes.LongType)
          .add("ts", DataTypes.TimestampType)
          .add("ntz", DataTypes.TimestampNTZType)
          .add("f", DataTypes.FloatType)
          .add("d", DataTypes.DoubleType);

  private static ColumnarBatch batch(StructType schema, int rows, long seed) {
    Random random = new Random(seed);
    double[] specials = {
      Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, Double.MIN_VALUE
    };
    ColumnVector[] columns = new ColumnVector[schema.size()];
    for (int c = 0; c < schema.size(); c++) {
      OnHeapColumnVector v = new OnHeapColumnVector(rows, schema.fields()[c].dataType());
      for (int r = 0; r < rows; r++) {
        if (random.nextInt(7) == 0) {
          v.putNull(r);
          continue;
        }
        switch (schema.fields()[c].dataType().typeName()) {
          case "boolean" -> v.putBoolean(r, random.nextBoolean());
          case "byte" -> v.putByte(r, (byte) random.nextInt());
          case "short" -> v.putShort(r, (short) random.nextInt());
          case "integer", "date" -> v.putInt(r, random.nextInt());
          case "float" ->
              v.putFloat(r, random.nextInt(5) == 0 ? Float.NaN : random.nextFloat() - 0.5f);
          case "double" ->
              v.putDouble(
                  r,
                  random.nextInt(3) == 0
                      ? specials[random.nextInt(specials.length)]
                      : random.nextGaussian());
          default -> v.putLong(r, random.nextLong());
        }
      }
      columns[c] = v;
    }
    return new ColumnarBatch(columns, rows);
  }

  @Test
  void writesTheBytesOfUnsafeProjection() {
    int rows = 500;
    ColumnarBatch batch = batch(SCHEMA, rows, 1);
    int[] identity = java.util.stream.IntStream.range(0, SCHEMA.size()).toArray();
    FixedWidthRowEncoder encoder = FixedWidthRowEncoder.forSchema(SCHEMA, identity);
    assertThat(encoder).isNotNull();
    byte[] encoded = new byte[rows * encoder.rowBytes()];
    Arrays.fill(encoded, (byte) 0x5a); // stale bytes from an earlier batch must not leak through
    encoder.encode(batch, encoded);

    UnsafeProjection projection = UnsafeProjection.create(SCHEMA);
    for (int r = 0; r < rows; r++) {
      UnsafeRow expected = projection.apply(batch.getRow(r));
      assertThat(encoder.rowBytes()).isEqualTo(expected.getSizeInBytes());
      byte[] actual = new byte[encoder.rowBytes()];
      Platform.copyMemory(
          encoded,
          Platform.BYTE_ARRAY_OFFSET + (long) r * encoder.rowBytes(),
          actual,
          Platform.BYTE_ARRAY_OFFSET,
          actual.length);
      assertThat(actual).as("row %d", r).isEqualTo(expected.getBytes());
    }
  }

  @Test
  void neverReadsTheValueOfANullInADictionaryEncodedVector() {
    // As Spark's reader leaves a dictionary-encoded page: a null's id is whatever was there, here
    // one
    // the dictionary does not have (Parquet's dictionaries throw on it, as page_v2_empty_compressed
    // showed).
    double[] values = {1.5, -2.0, 7.25};
    Dictionary dictionary =
        new Dictionary() {
          @Override
          public int decodeToInt(int id) {
            throw new AssertionError("int");
          }

          @Override
          public long decodeToLong(int id) {
            throw new AssertionError("long");
          }

          @Override
          public float decodeToFloat(int id) {
            throw new AssertionError("float");
          }

          @Override
          public double decodeToDouble(int id) {
            return values[id]; // out of bounds for a null's id
          }

          @Override
          public byte[] decodeToBinary(int id) {
            throw new AssertionError("binary");
          }
        };
    StructType schema = new StructType().add("d", DataTypes.DoubleType);
    int rows = 100;
    OnHeapColumnVector v = new OnHeapColumnVector(rows, DataTypes.DoubleType);
    v.setDictionary(dictionary);
    WritableColumnVector ids = v.reserveDictionaryIds(rows);
    for (int r = 0; r < rows; r++) {
      if (r % 3 == 1) {
        v.putNull(r);
        ids.putInt(r, Integer.MIN_VALUE);
      } else {
        ids.putInt(r, r % values.length);
      }
    }
    ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {v}, rows);
    FixedWidthRowEncoder encoder = FixedWidthRowEncoder.forSchema(schema, new int[] {0});
    byte[] encoded = new byte[rows * encoder.rowBytes()];
    Arrays.fill(encoded, (byte) 0x5a);
    encoder.encode(batch, encoded);
    UnsafeProjection projection = UnsafeProjection.create(schema);
    for (int r = 0; r < rows; r++) {
      byte[] actual =
          Arrays.copyOfRange(encoded, r * encoder.rowBytes(), (r + 1) * encoder.rowBytes());
      assertThat(actual).as("row %d", r).isEqualTo(projection.apply(batch.getRow(r)).getBytes());
    }
  }

  @Test
  void writesRowsFromInsideTheBatch() {
    int rows = 300;
    ColumnarBatch batch = batch(SCHEMA, rows, 3);
    int[] identity = java.util.stream.IntStream.range(0, SCHEMA.size()).toArray();
    FixedWidthRowEncoder encoder = FixedWidthRowEncoder.forSchema(SCHEMA, identity);
    int first = 37;
    int n = 200; // more than a tile, from inside the batch
    byte[] encoded = new byte[n * encoder.rowBytes()];
    Arrays.fill(encoded, (byte) 0x5a);
    encoder.encode(batch, first, n, encoded);

    UnsafeProjection projection = UnsafeProjection.create(SCHEMA);
    for (int i = 0; i < n; i++) {
      byte[] actual =
          Arrays.copyOfRange(encoded, i * encoder.rowBytes(), (i + 1) * encoder.rowBytes());
      assertThat(actual)
          .as("row %d", first + i)
          .isEqualTo(projection.apply(batch.getRow(first + i)).getBytes());
    }
  }

  @Test
  void picksFieldsByColumnIndexAndHandlesMoreThan64Fields() {
    StructType wide = new StructType();
    StructType output = new StructType();
    int[] reversed = new int[70];
    for (int i = 0; i < 70; i++) {
      wide = wide.add("d" + i, DataTypes.DoubleType);
      reversed[i] = 69 - i;
      output = output.add("d" + (69 - i), DataTypes.DoubleType);
    }
    ColumnarBatch batch = batch(wide, 50, 2);
    FixedWidthRowEncoder encoder = FixedWidthRowEncoder.forSchema(output, reversed);
    byte[] encoded = new byte[50 * encoder.rowBytes()];
    encoder.encode(batch, encoded);
    UnsafeRow row = new UnsafeRow(70);
    for (int r = 0; r < 50; r++) {
      row.pointTo(
          encoded, Platform.BYTE_ARRAY_OFFSET + (long) r * encoder.rowBytes(), encoder.rowBytes());
      for (int f = 0; f < 70; f++) {
        ColumnVector source = batch.column(69 - f);
        assertThat(row.isNullAt(f)).isEqualTo(source.isNullAt(r));
        if (!source.isNullAt(r)) {
          assertThat(Double.doubleToRawLongBits(row.getDouble(f)))
              .isEqualTo(Double.doubleToRawLongBits(source.getDouble(r)));
        }
      }
    }
  }

  @Test
  void leavesFieldsWithoutAColumnZeroAndNotNull() {
    StructType output =
        new StructType().add("d", DataTypes.DoubleType).add("constant", DataTypes.DoubleType);
    ColumnarBatch batch = batch(SCHEMA, 200, 3);
    FixedWidthRowEncoder encoder =
        FixedWidthRowEncoder.forSchema(output, new int[] {9, FixedWidthRowEncoder.NO_COLUMN});
    byte[] encoded = new byte[200 * encoder.rowBytes()];
    Arrays.fill(encoded, (byte) 0x5a);
    encoder.encode(batch, encoded);
    UnsafeRow row = new UnsafeRow(2);
    for (int r = 0; r < 200; r++) {
      row.pointTo(
          encoded, Platform.BYTE_ARRAY_OFFSET + (long) r * encoder.rowBytes(), encoder.rowBytes());
      assertThat(row.isNullAt(0)).isEqualTo(batch.column(9).isNullAt(r));
      assertThat(row.isNullAt(1)).isFalse();
      assertThat(row.getLong(1)).isZero();
    }
  }

  @Test
  void writesArenaRowsAsItWritesTheirColumns() {
    int rows = 300;
    ColumnarBatch batch = batch(SCHEMA, rows, 4);
    // The arena's rows: the batch's rows as UnsafeProjection writes them, viewed in reverse order.
    UnsafeProjection projection = UnsafeProjection.create(SCHEMA);
    RowArenaColumnVector.Rows arena = new RowArenaColumnVector.Rows(SCHEMA.size(), rows);
    for (int r = 0; r < rows; r++) {
      arena.set(rows - 1 - r, projection.apply(batch.getRow(r)).copy());
    }
    int[] picked = {9, 3, FixedWidthRowEncoder.NO_COLUMN, 0, 8, 9};
    StructType output = new StructType();
    for (int i = 0; i < picked.length; i++) {
      output =
          output.add(
              "f" + i,
              picked[i] < 0 ? DataTypes.DoubleType : SCHEMA.fields()[picked[i]].dataType());
    }
    FixedWidthRowEncoder encoder = FixedWidthRowEncoder.forSchema(output, picked);
    byte[] fromArena = new byte[rows * encoder.rowBytes()];
    Arrays.fill(fromArena, (byte) 0x5a);
    encoder.encode(arena, 0, rows, fromArena);
    byte[] fromColumns = new byte[rows * encoder.rowBytes()];
    encoder.encode(batch, fromColumns);
    for (int r = 0; r < rows; r++) {
      byte[] expected =
          Arrays.copyOfRange(
              fromColumns, (rows - 1 - r) * encoder.rowBytes(), (rows - r) * encoder.rowBytes());
      byte[] actual =
          Arrays.copyOfRange(fromArena, r * encoder.rowBytes(), (r + 1) * encoder.rowBytes());
      assertThat(actual).as("row %d", r).isEqualTo(expected);
    }
  }

  @Test
  void convertsOnlyNumbersAndBooleansAndOnlyToDouble() {
    StructType d = new StructType().add("x", DataTypes.DoubleType);
    int[] first = {0};
    for (DataType from :
        new DataType[] {
          DataTypes.BooleanType,
          DataTypes.ByteType,
          DataTypes.ShortType,
          DataTypes.IntegerType,
          DataTypes.LongType,
          DataTypes.FloatType
        }) {
      assertThat(FixedWidthRowEncoder.forProjection(d, first, new DataType[] {from}))
          .as("from %s", from)
          .isNotNull();
    }
    for (DataType from :
        new DataType[] {
          DataTypes.DateType,
          DataTypes.TimestampType,
          DataTypes.StringType,
          DataTypes.createDecimalType(10, 2)
        }) {
      assertThat(FixedWidthRowEncoder.forProjection(d, first, new DataType[] {from}))
          .as("from %s", from)
          .isNull();
    }
    assertThat(
            FixedWidthRowEncoder.forProjection(
                new StructType().add("x", DataTypes.LongType),
                first,
                new DataType[] {DataTypes.IntegerType}))
        .as("int to long")
        .isNull();
  }

  @Test
  void declinesSchemasWithVariableWidthOrDecimalFields() {
    assertThat(
            FixedWidthRowEncoder.forSchema(
                new StructType().add("s", DataTypes.StringType), new int[] {0}))
        .isNull();
    assertThat(
            FixedWidthRowEncoder.forSchema(
                new StructType().add("x", DataTypes.createDecimalType(10, 2)), new int[] {0}))
        .isNull();
  }
}
