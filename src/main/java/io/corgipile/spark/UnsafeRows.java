package io.corgipile.spark;

import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * The {@code UnsafeRow} byte layout: where a row's bytes are, how wide its null bit set is, and
 * pointing reused rows at bytes. Static helpers the JIT inlines: the row paths call them per row.
 */
public final class UnsafeRows {
  private UnsafeRows() {}

  /** Points a reused {@code row} at bytes {@code [offset, offset + length)} of {@code bytes}. */
  public static void view(UnsafeRow row, byte[] bytes, int offset, int length) {
    row.pointTo(bytes, Platform.BYTE_ARRAY_OFFSET + offset, length);
  }

  /** The byte array behind an {@code UnsafeRow} made by a projection, which is always on-heap. */
  public static byte[] bytesOf(UnsafeRow row) {
    return (byte[]) row.getBaseObject();
  }

  /** The offset of the row in {@link #bytesOf(UnsafeRow)}. */
  public static int offsetOf(UnsafeRow row) {
    return (int) (row.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
  }

  /**
   * Bytes of a row of {@code numFields} fields all kept in their 8-byte slots: the bit set, then
   * the slots.
   */
  public static int fixedWidthBytes(int numFields) {
    return bitSetBytes(numFields) + 8 * numFields;
  }

  /**
   * Bytes of a row's null bit set: one bit per field, in whole 8-byte words; the slots follow it.
   */
  static int bitSetBytes(int numFields) {
    return UnsafeRow.calculateBitSetWidthInBytes(numFields);
  }

  /**
   * Points {@code struct} at the struct in field {@code ordinal} of {@code row}, which must not be
   * null.
   */
  static void pointToStruct(UnsafeRow row, int ordinal, UnsafeRow struct) {
    long offsetAndSize = row.getLong(ordinal);
    struct.pointTo(
        row.getBaseObject(), row.getBaseOffset() + (offsetAndSize >> 32), (int) offsetAndSize);
  }

  /**
   * Points {@code array} at the array in field {@code ordinal} of {@code row}, which must not be
   * null.
   */
  static void pointToArray(UnsafeRow row, int ordinal, UnsafeArrayData array) {
    long offsetAndSize = row.getLong(ordinal);
    array.pointTo(
        row.getBaseObject(), row.getBaseOffset() + (offsetAndSize >> 32), (int) offsetAndSize);
  }

  /**
   * Copies {@code to.length} double fields from field {@code ordinal} of {@code row}: consecutive
   * 8-byte slots.
   */
  static void copyDoubles(UnsafeRow row, int ordinal, double[] to) {
    long from = row.getBaseOffset() + bitSetBytes(row.numFields()) + 8L * ordinal;
    Platform.copyMemory(
        row.getBaseObject(), from, to, Platform.DOUBLE_ARRAY_OFFSET, 8L * to.length);
  }

  /**
   * Copies the first {@code to.length} elements of a double {@code array}: they follow its header.
   */
  static void copyDoubles(UnsafeArrayData array, double[] to) {
    long from =
        array.getBaseOffset() + UnsafeArrayData.calculateHeaderPortionInBytes(array.numElements());
    Platform.copyMemory(
        array.getBaseObject(), from, to, Platform.DOUBLE_ARRAY_OFFSET, 8L * to.length);
  }
}
