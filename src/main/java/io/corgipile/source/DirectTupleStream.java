package io.corgipile.source;

import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * Rows straight from the decoder, in block order, decoded on the task's thread: the {@code none}
 * and {@code block} modes when Spark takes rows rather than column batches.
 */
final class DirectTupleStream implements TupleStream {
  private final BlockRowStream source;

  DirectTupleStream(BlockRowStream source) {
    this.source = source;
  }

  @Override
  public boolean next() throws IOException {
    return source.next();
  }

  @Override
  public UnsafeRow get() {
    return source.row();
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
