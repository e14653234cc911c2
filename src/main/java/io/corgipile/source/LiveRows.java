package io.corgipile.source;

import io.corgipile.spark.BlockRows;
import java.io.IOException;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.roaringbitmap.PeekableIntIterator;

/**
 * A block's rows less its deleted ones: the decoder's rows, in order, with those at the deleted
 * positions skipped. Rows come one at a time (runs of 1), so a run never spans a deleted row.
 */
final class LiveRows implements BlockRows {
  private final BlockRows rows;

  /** The deleted positions not yet passed. */
  private final PeekableIntIterator deleted;

  /** The position of the next row in the block. */
  private int position;

  LiveRows(BlockRows rows, DeletedRows deleted) {
    this.rows = rows;
    this.deleted = deleted.iterator();
  }

  @Override
  public boolean next() throws IOException {
    while (rows.next()) {
      int at = position++;
      if (deleted.hasNext() && deleted.peekNext() == at) {
        deleted.next();
        continue;
      }
      return true;
    }
    return false;
  }

  @Override
  public UnsafeRow row() {
    return rows.row();
  }

  @Override
  public void close() throws IOException {
    rows.close();
  }
}
