package io.corgipile.source;

import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/** The rows of a partition's shuffled buffers, in buffer order: {@code corgipile} as rows. */
final class BufferedTupleStream implements TupleStream {
  private final ShuffledBuffers buffers;
  private final UnsafeRow row;

  BufferedTupleStream(ShuffledBuffers buffers, int numFields) {
    this.buffers = buffers;
    this.row = new UnsafeRow(numFields);
  }

  @Override
  public boolean next() throws IOException {
    if (buffers.nextRun(1) == 0) {
      return false;
    }
    TupleShuffleBuffer buffer = buffers.current();
    int i = buffers.runStart();
    row.pointTo(buffer.pageOf(i), Platform.BYTE_ARRAY_OFFSET + buffer.offsetOf(i), buffer.lengthOf(i));
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
