package io.corgipile.source;

import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/** The rows of a partition's shuffled buffers, in buffer order: {@code corgipile} as rows. */
final class BufferedTupleStream implements TupleStream {
  private final ShuffledBuffers buffers;
  private final UnsafeRow row;
  private TupleShuffleBuffer current;
  private int next;

  BufferedTupleStream(ShuffledBuffers buffers, int numFields) {
    this.buffers = buffers;
    this.row = new UnsafeRow(numFields);
  }

  @Override
  public boolean next() throws IOException {
    while (current == null || next >= current.size()) {
      current = buffers.next();
      next = 0;
      if (current == null) {
        return false;
      }
    }
    row.pointTo(current.pageOf(next), Platform.BYTE_ARRAY_OFFSET + current.offsetOf(next), current.lengthOf(next));
    next++;
    return true;
  }

  @Override
  public UnsafeRow get() {
    return row;
  }

  @Override
  public void close() throws IOException {
    buffers.close();
  }
}
