package io.corgipile.source;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/** A partition's rows in the order of its shuffle mode. */
interface TupleStream extends Closeable {
  boolean next() throws IOException;

  /** The current row; valid until the next call to {@link #next()}. */
  UnsafeRow get();

  /** The byte array behind an {@link UnsafeRow} made by a projection, which is always on-heap. */
  static byte[] bytesOf(UnsafeRow row) {
    return (byte[]) row.getBaseObject();
  }

  /** The offset of the row in {@link #bytesOf(UnsafeRow)}. */
  static int offsetOf(UnsafeRow row) {
    return (int) (row.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET);
  }
}
