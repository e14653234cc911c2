package io.corgipile.source;

import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

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
    UnsafeRows.view(row, buffer.pageOf(i), buffer.offsetOf(i), buffer.lengthOf(i));
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
