package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.spark.DataFile;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;

/** How {@link BlockPlanner#cutAtPages} cuts one row group, and the parts' rows and bytes. */
class BlockCutTest {
  /** A row group of 1000 rows, 1000 bytes on disk and 3000 decoded, in file 2 at offset 4. */
  private static final Block GROUP = Block.rowGroup(2, 5, 4, 1000, 3000, 1000, DeletedRows.NONE);

  /** Pages starting every {@code rows} rows of a row group of {@code groupRows}. */
  private static OffsetIndex pagesOf(long rows, long groupRows) {
    int count = (int) ((groupRows + rows - 1) / rows);
    return new OffsetIndex() {
      @Override
      public int getPageCount() {
        return count;
      }

      @Override
      public long getOffset(int page) {
        return 4 + page * 100L;
      }

      @Override
      public int getCompressedPageSize(int page) {
        return 100;
      }

      @Override
      public long getFirstRowIndex(int page) {
        return page * rows;
      }
    };
  }

  private static List<String> ranges(List<Block> parts) {
    return parts.stream()
        .map(b -> b.firstRow() + "-" + (b.firstRow() + b.rows()))
        .collect(Collectors.toList());
  }

  @Test
  void cutsAtTheFirstPageBoundaryAtLeastTheRowsPastTheLastCutLeavingHalfToTheLastPart() {
    // 900 is 300 past 600 but leaves 100, fewer than half of 250: the last part runs to the end.
    assertThat(ranges(BlockPlanner.cutAtPages(GROUP, pagesOf(100, 1000), 250)))
        .containsExactly("0-300", "300-600", "600-1000");
    assertThat(ranges(BlockPlanner.cutAtPages(GROUP, pagesOf(100, 1000), 1))).hasSize(10);
    // pages larger than the least rows: one part a page
    assertThat(ranges(BlockPlanner.cutAtPages(GROUP, pagesOf(400, 1000), 10)))
        .containsExactly("0-400", "400-800", "800-1000");
  }

  @Test
  void keepsTheRowGroupWholeWithoutPagesOrWhenNoCutLeavesEnoughRows() {
    assertThat(BlockPlanner.cutAtPages(GROUP, null, 100)).containsExactly(GROUP);
    assertThat(BlockPlanner.cutAtPages(GROUP, pagesOf(1000, 1000), 100)).containsExactly(GROUP);
    assertThat(BlockPlanner.cutAtPages(GROUP, pagesOf(100, 1000), 800)).containsExactly(GROUP);
  }

  @Test
  void partsShareTheRowGroupsBytesByRowsAndKnowTheirRowGroup() {
    List<Block> parts = BlockPlanner.cutAtPages(GROUP, pagesOf(100, 1000), 300);
    assertThat(parts.stream().mapToLong(Block::compressedBytes).sum()).isEqualTo(1000);
    assertThat(parts.stream().mapToLong(Block::uncompressedBytes).sum()).isEqualTo(3000);
    assertThat(parts)
        .allSatisfy(
            p -> {
              assertThat(p.file()).isEqualTo(2);
              assertThat(p.rowGroup()).isEqualTo(5);
              assertThat(p.offset()).isEqualTo(4);
              assertThat(p.groupRows()).isEqualTo(1000);
              assertThat(p.wholeRowGroup()).isFalse();
              assertThat(p.compressedBytes()).isEqualTo(p.rows());
            });
    BlockPlan plan = new BlockPlan(List.of(), parts);
    assertThat(plan.rowGroups()).isEqualTo(1.0);
    assertThat(plan.totalRows()).isEqualTo(1000);
  }

  @Test
  void errorsNameAPartsRowsAndItsRowGroup() {
    List<DataFile> files =
        List.of(
            new DataFile("/t/a.parquet", 1, 0, InternalRow.empty()),
            new DataFile("/t/b.parquet", 1, 0, InternalRow.empty()),
            new DataFile("/t/c.parquet", 9, 0, InternalRow.empty()));
    BlockPlan plan = new BlockPlan(files, List.of(GROUP, GROUP.part(300, 600)));
    assertThat(plan.describe(GROUP)).isEqualTo("row group 5 (offset 4, 1000 rows) of /t/c.parquet");
    assertThat(plan.describe(GROUP.part(300, 600)))
        .isEqualTo("rows 300 to 599 of row group 5 (offset 4, 1000 rows) of /t/c.parquet");
  }

  @Test
  void aPartIsCutOnlyFromAWholeRowGroupWithinItsRows() {
    Block part = GROUP.part(0, 500);
    assertThatThrownBy(() -> part.part(0, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot cut rows [0, 100) from Block[");
    assertThatThrownBy(() -> GROUP.part(500, 1001)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GROUP.part(300, 300)).isInstanceOf(IllegalArgumentException.class);
  }
}
