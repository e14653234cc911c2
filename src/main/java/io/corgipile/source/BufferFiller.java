package io.corgipile.source;

import io.corgipile.shuffle.FillPlan;
import io.corgipile.shuffle.SplitMix64;
import io.corgipile.shuffle.TupleShuffleBuffer;
import java.io.IOException;
import java.util.function.IntFunction;

/**
 * Pours planned fills ({@link FillPlan}) into {@link TupleShuffleBuffer}s and shuffles them: one
 * buffer per call.
 *
 * <p>A fill is one buffer, unless its rows turn out to exceed the buffer's byte budget (the plan
 * estimates row sizes from the footers): the rest then goes into the next buffer, drawing on from
 * the same fill's random stream, so the planned cut points never move and memory stays within the
 * budget. A row that did not fit stays unread in the decoder and opens the next buffer.
 *
 * <p>Rows move once: the buffer makes room for a run of rows in their random buckets and the
 * decoder writes them there ({@link TupleShuffleBuffer#reserve}). Buffers are filled strictly one
 * after another, so their contents do not depend on threads.
 */
final class BufferFiller {
  /** Rows placed and written at a time: a decoder's run, written straight into the buffer. */
  private static final int RUN_ROWS = 256;

  private final BlockRowStream source;
  private final FillPlan plan;
  private final int endFill;
  private final IntFunction<SplitMix64> randomOfFill;
  private int nextFill;
  private SplitMix64 random;
  private long rowsLeftInFill;

  /** Whether the source's current row is not in a buffer yet. */
  private boolean pendingRow;

  private final byte[][] chunks = new byte[RUN_ROWS][];
  private final int[] offsets = new int[RUN_ROWS];

  /**
   * @param source the rows of fills {@code [firstFill, endFill)} of {@code plan}
   * @param randomOfFill the random stream of each fill, by its index in the plan
   */
  BufferFiller(
      BlockRowStream source,
      FillPlan plan,
      int firstFill,
      int endFill,
      IntFunction<SplitMix64> randomOfFill) {
    this.source = source;
    this.plan = plan;
    this.nextFill = firstFill;
    this.endFill = endFill;
    this.randomOfFill = randomOfFill;
  }

  /** Fills {@code buffer} from scratch; false, leaving it empty, when no rows were left. */
  boolean fill(TupleShuffleBuffer buffer) throws IOException {
    if (rowsLeftInFill == 0 && nextFill < endFill) {
      random = randomOfFill.apply(nextFill);
      rowsLeftInFill = plan.rows(nextFill++);
    }
    buffer.startFill(random, rowsLeftInFill);
    while (rowsLeftInFill > 0 && (pendingRow || source.next())) {
      pendingRow = false;
      int run = source.runLength((int) Math.min(RUN_ROWS, rowsLeftInFill));
      int placed = buffer.reserve(source.runRowBytes(), run, chunks, offsets);
      if (placed == 0) {
        if (buffer.isEmpty()) {
          throw new IllegalStateException("Cannot add a row to an empty tuple buffer");
        }
        pendingRow = true; // the current row opens the next buffer
        break;
      }
      source.writeRun(placed, chunks, offsets);
      rowsLeftInFill -= placed;
      if (placed < run) {
        break; // full: the rows after the last one written open the next buffer
      }
    }
    buffer.shuffle();
    return !buffer.isEmpty();
  }

  /** Whether every row of the last fill is in a buffer: the next {@link #fill} finds none left. */
  boolean filledAll() {
    return rowsLeftInFill == 0 && nextFill >= endFill;
  }
}
