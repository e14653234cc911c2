package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.spark.BlockRows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.PeekableIntIterator;

/** A block's deleted rows: cut with the block, counted out of its rows, skipped when read. */
class DeletedRowsTest {
  /** Rows 10, 11, 15 and 19 of a file, 20-29 of whose rows are the row group. */
  private static final long[] FILE = {3, 10, 11, 15, 19, 20, 25, 40};

  @Test
  void aRowGroupTakesItsOwnPositionsFromItsFirstRow() {
    DeletedRows group = DeletedRows.in(FILE, 10, 20);
    assertThat(group.count()).isEqualTo(4);
    List<Integer> positions = new ArrayList<>();
    for (PeekableIntIterator i = group.iterator(); i.hasNext(); ) {
      positions.add(i.next());
    }
    assertThat(positions).containsExactly(0, 1, 5, 9);
    assertThat(DeletedRows.in(FILE, 30, 40)).isSameAs(DeletedRows.NONE);
  }

  @Test
  void aPartKeepsItsShareAndCountsLiveRows() {
    Block group = Block.rowGroup(0, 1, 4, 1000, 3000, 10, DeletedRows.in(FILE, 10, 20));
    assertThat(group.liveRows()).isEqualTo(6);
    Block part = group.part(5, 10);
    assertThat(part.deleted()).isEqualTo(DeletedRows.in(FILE, 15, 20));
    assertThat(part.liveRows()).isEqualTo(3);
    assertThat(group.part(2, 5).deleted().isEmpty()).isTrue();
    assertThat(new BlockPlan(List.of(), List.of(group, part)).totalRows()).isEqualTo(9);
  }

  @Test
  void liveRowsSkipTheDeletedPositions() throws IOException {
    CountingRows rows = new CountingRows(10);
    LiveRows live = new LiveRows(rows, DeletedRows.in(FILE, 10, 20));
    List<Long> read = new ArrayList<>();
    while (live.next()) {
      read.add(rows.position);
    }
    assertThat(read).containsExactly(2L, 3L, 4L, 6L, 7L, 8L);
  }

  /** {@code n} rows, the current one's position in {@link #position}. */
  private static final class CountingRows implements BlockRows {
    private final long n;
    long position = -1;

    CountingRows(long n) {
      this.n = n;
    }

    @Override
    public boolean next() {
      if (position + 1 == n) {
        return false;
      }
      position++;
      return true;
    }

    @Override
    public UnsafeRow row() {
      return null;
    }

    @Override
    public void close() {}
  }

  /**
   * A row's size in a buffer is estimated from the live rows' share of the bytes: a block with half
   * its rows deleted holds half its bytes in a buffer, so its rows are no larger than a whole
   * one's.
   */
  @Test
  void aRowsSizeCountsTheLiveRowsBytes() {
    long[] half = new long[50];
    for (int i = 0; i < half.length; i++) {
      half[i] = 2L * i;
    }
    Block whole = Block.rowGroup(0, 0, 4, 1000, 20_000, 100, DeletedRows.NONE);
    Block halved = Block.rowGroup(0, 1, 4, 1000, 20_000, 100, DeletedRows.in(half, 0, 100));
    assertThat(FillLayout.tupleBytes(new BlockPlan(List.of(), List.of(whole, halved)), 2))
        .isEqualTo(200.0);
    assertThat(FillLayout.tupleBytes(new BlockPlan(List.of(), List.of(halved)), 2))
        .isEqualTo(200.0);
    assertThat(FillLayout.tupleBytes(new BlockPlan(List.of(), List.of(halved)), 40))
        .as("at least a word a column and one for the null bits")
        .isEqualTo(328.0);
  }

  /**
   * A block's deletes travel in every task: a run of deleted rows takes a few bytes, scattered ones
   * about two each, not the eight of a long (100,000 rows deleted of a million-row row group).
   */
  @Test
  void deletesAreCompactInThePlan() throws IOException {
    long[] run = new long[100_000];
    long[] scattered = new long[100_000];
    for (int i = 0; i < run.length; i++) {
      run[i] = 500_000 + i;
      scattered[i] = 10L * i + 3;
    }
    assertThat(serializedSize(DeletedRows.in(run, 0, 1_000_000))).isLessThan(1_000);
    assertThat(serializedSize(DeletedRows.in(scattered, 0, 1_000_000))).isLessThan(250_000);
    Block group =
        Block.rowGroup(0, 1, 4, 1000, 3000, 1_000_000, DeletedRows.in(scattered, 0, 1_000_000));
    assertThat(group.part(250_000, 500_000).deleted().count()).isEqualTo(25_000);
  }

  private static int serializedSize(Object o) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    return bytes.size();
  }
}
