package io.corgipile.source;

import java.io.Serializable;
import java.util.Arrays;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

/**
 * The deleted rows of one block (a table format's deletes: Delta's deletion vectors, Iceberg's
 * position, vector and equality deletes), as positions from the block's first row: the block
 * carries its own, so the plan never holds a file's whole list in one array. A compressed bitmap
 * (RoaringBitmap, which Spark ships), as Delta's and Iceberg's own deletion vectors are: the plan
 * travels in every task, and a bitmap holds a run of deleted rows in a few bytes and a scattered
 * deleted row in about two, where an array of positions takes eight each.
 */
final class DeletedRows implements Serializable {
  private static final long serialVersionUID = 2L;

  static final DeletedRows NONE = new DeletedRows(new RoaringBitmap());

  private final RoaringBitmap positions;

  private DeletedRows(RoaringBitmap positions) {
    this.positions = positions;
  }

  /**
   * The positions of {@code filePositions} (ascending rows of a file) in rows {@code [from, to)} of
   * the file, counted from {@code from}; a block has fewer than 2^31 rows.
   */
  static DeletedRows in(long[] filePositions, long from, long to) {
    int first = insertionPoint(filePositions, from);
    int end = insertionPoint(filePositions, to);
    if (first == end) {
      return NONE;
    }
    RoaringBitmapWriter<RoaringBitmap> writer =
        RoaringBitmapWriter.writer().runCompress(true).get();
    for (int i = first; i < end; i++) {
      writer.add(Math.toIntExact(filePositions[i] - from));
    }
    return new DeletedRows(writer.get());
  }

  /** These rows within {@code [from, to)} of the block, counted from {@code from}. */
  DeletedRows slice(long from, long to) {
    RoaringBitmap within = RoaringBitmap.and(positions, RoaringBitmap.bitmapOfRange(from, to));
    return within.isEmpty() ? NONE : new DeletedRows(RoaringBitmap.addOffset(within, -from));
  }

  private static int insertionPoint(long[] sorted, long position) {
    int i = Arrays.binarySearch(sorted, position);
    return i >= 0 ? i : -i - 1;
  }

  int count() {
    return positions.getCardinality();
  }

  boolean isEmpty() {
    return positions.isEmpty();
  }

  /** The deleted positions from the block's first row, ascending. */
  PeekableIntIterator iterator() {
    return positions.getIntIterator();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletedRows d && positions.equals(d.positions);
  }

  @Override
  public int hashCode() {
    return positions.hashCode();
  }

  @Override
  public String toString() {
    return count() + " deleted";
  }
}
