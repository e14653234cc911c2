package io.corgipile.source;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/** A partition's rows in the order of its shuffle mode. */
interface TupleStream extends Closeable {
  boolean next() throws IOException;

  /** The current row; valid until the next call to {@link #next()}. */
  UnsafeRow get();
}
