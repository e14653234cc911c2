package io.corgipile.source;

import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.Closeable;
import java.io.IOException;

/**
 * A slice whose first buffer is filled ahead ({@link RoundLookahead}): the reader's state, handed
 * to the task that reads the slice, which goes on from there.
 *
 * @param hasRows false when the slice had no rows, leaving the buffer empty
 */
record FilledSlice(
    BlockRowStream source,
    BufferFiller filler,
    TupleShuffleBuffer buffer,
    boolean hasRows,
    ReaderMetrics metrics)
    implements Closeable {
  @Override
  public void close() throws IOException {
    source.close();
  }
}
