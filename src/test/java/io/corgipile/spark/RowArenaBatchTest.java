package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.junit.jupiter.api.Test;

/** A batch viewing rows where they lie, and the loading of its rows ahead of Spark's reads. */
class RowArenaBatchTest {
  @Test
  void loadReadsOneLongOfEveryCacheLineOfEveryRowAndTheBatchViewsTheRows() {
    StructType schema = new StructType();
    for (int i = 0; i < 28; i++) {
      schema = schema.add("x" + i, DataTypes.DoubleType);
    }
    int rowBytes = UnsafeRows.fixedWidthBytes(schema.size()); // 8 + 28 * 8 = 232
    byte[] arena = new byte[3 * rowBytes];
    for (int i = 0; i < 28; i++) {
      Platform.putDouble(arena, Platform.BYTE_ARRAY_OFFSET + 8 + 8 * i, i);
      Platform.putDouble(arena, Platform.BYTE_ARRAY_OFFSET + 2 * rowBytes + 8 + 8 * i, -i);
    }
    RowArenaBatch batch = new RowArenaBatch(schema, 4);
    UnsafeRow row = new UnsafeRow(schema.size());
    for (int i = 0; i < 2; i++) { // the arena's third row, then its first
      UnsafeRows.view(row, arena, (2 - 2 * i) * rowBytes, rowBytes);
      batch.set(i, row);
    }
    batch.setNumRows(2);

    long expected = 0;
    for (int start : new int[] {2 * rowBytes, 0}) {
      for (int line = 0; line < rowBytes; line += 64) {
        expected += Platform.getLong(arena, Platform.BYTE_ARRAY_OFFSET + start + line);
      }
    }
    assertThat(batch.load(2, rowBytes)).isEqualTo(expected).isNotZero();
    assertThat(batch.batch().numRows()).isEqualTo(2);
    assertThat(batch.batch().column(5).getDouble(0)).isEqualTo(-5.0);
    assertThat(batch.batch().column(5).getDouble(1)).isEqualTo(5.0);
  }
}
