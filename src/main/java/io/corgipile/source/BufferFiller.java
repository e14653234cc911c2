package io.corgipile.source;

import io.corgipile.shuffle.FillPlan;
import io.corgipile.shuffle.SplitMix64;
import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.UnsafeRows;
import java.io.IOException;
import java.util.function.IntFunction;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * Pours planned fills ({@link FillPlan}) into {@link TupleShuffleBuffer}s and shuffles them: one
 * buffer per call.
 *
 * <p>A fill is one buffer, unless its rows turn out to exceed the buffer's byte budget (the plan
 * estimates row sizes from the footers): the rest then goes into the next buffer, drawing on from the
 * same fill's random stream, so the planned cut points never move and memory stays within the
 * budget. A row that did not fit is kept (the decoder's row stays valid until it is advanced) and
 * opens the next buffer. Buffers are filled strictly one after another, so their contents do not
 * depend on threads.
 */
final class BufferFiller {
  private final BlockRowStream source;
  private final FillPlan plan;
  private final int endFill;
  private final IntFunction<SplitMix64> randomOfFill;
  private int nextFill;
  private SplitMix64 random;
  private long rowsLeftInFill;
  private boolean pendingRow;

  /**
   * @param source the rows of fills {@code [firstFill, endFill)} of {@code plan}
   * @param randomOfFill the random stream of each fill, by its index in the plan
   */
  BufferFiller(BlockRowStream source, FillPlan plan, int firstFill, int endFill, IntFunction<SplitMix64> randomOfFill) {
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
    if (pendingRow) {
      if (!add(buffer)) {
        throw new IllegalStateException("Cannot add a row to an empty tuple buffer");
      }
      pendingRow = false;
      rowsLeftInFill--;
    }
    while (rowsLeftInFill > 0 && source.next()) {
      if (!add(buffer)) {
        pendingRow = true;
        break;
      }
      rowsLeftInFill--;
    }
    buffer.shuffle();
    return !buffer.isEmpty();
  }

  private boolean add(TupleShuffleBuffer buffer) {
    UnsafeRow row = source.row();
    return buffer.tryAdd(UnsafeRows.bytesOf(row), UnsafeRows.offsetOf(row), row.getSizeInBytes());
  }
}
