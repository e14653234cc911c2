package io.corgipile.spark;

import java.io.Closeable;
import java.io.IOException;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The decoded column batches of one block (a row group, or a range of its rows), in the scan's read
 * schema.
 */
public interface BlockBatches extends Closeable {
  /** The next batch, or null at the end of the block; reused by the next call. */
  ColumnarBatch nextBatch() throws IOException;
}
