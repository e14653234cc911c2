package io.corgipile.spark;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/** The decoded rows of one row group, in the scan's output schema. */
public interface RowGroupRows extends Closeable {
  /** Advances to the next row; false at the end of the row group. */
  boolean next() throws IOException;

  /** The current row; reused by the next call to {@link #next()}. */
  UnsafeRow row();
}
