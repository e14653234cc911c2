package io.corgipile.source;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The deleted rows of one block (a table format's deletes: Delta's deletion vectors), as positions
 * from the block's first row, ascending: the block carries its own, so the plan never holds a
 * file's whole list in one array.
 */
final class DeletedRows implements Serializable {
  private static final long serialVersionUID = 1L;

  static final DeletedRows NONE = new DeletedRows(new long[0]);

  private final long[] positions;

  private DeletedRows(long[] positions) {
    this.positions = positions;
  }

  /**
   * The positions of {@code filePositions} (ascending rows of a file) in rows {@code [from, to)} of
   * the file, counted from {@code from}.
   */
  static DeletedRows in(long[] filePositions, long from, long to) {
    int first = insertionPoint(filePositions, from);
    int end = insertionPoint(filePositions, to);
    if (first == end) {
      return NONE;
    }
    long[] positions = new long[end - first];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = filePositions[first + i] - from;
    }
    return new DeletedRows(positions);
  }

  /** These rows within {@code [from, to)} of the block, counted from {@code from}. */
  DeletedRows slice(long from, long to) {
    return in(positions, from, to);
  }

  private static int insertionPoint(long[] sorted, long position) {
    int i = Arrays.binarySearch(sorted, position);
    return i >= 0 ? i : -i - 1;
  }

  int count() {
    return positions.length;
  }

  boolean isEmpty() {
    return positions.length == 0;
  }

  /** The {@code i}-th deleted position from the block's first row, ascending. */
  long position(int i) {
    return positions[i];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletedRows d && Arrays.equals(positions, d.positions);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(positions);
  }

  @Override
  public String toString() {
    return positions.length + " deleted";
  }
}
