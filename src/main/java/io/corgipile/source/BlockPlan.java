package io.corgipile.source;

import io.corgipile.spark.DataFile;
import java.io.Serializable;
import java.util.List;

/**
 * The files of a scan and their blocks (row groups or parts of them), in storage order, after
 * filter pushdown.
 */
record BlockPlan(List<DataFile> files, List<Block> blocks) implements Serializable {
  BlockPlan {
    files = List.copyOf(files);
    blocks = List.copyOf(blocks);
  }

  /** Whether any block has deleted rows. */
  boolean hasDeletes() {
    return blocks.stream().anyMatch(b -> !b.deleted().isEmpty());
  }

  /** Each block's live rows: the counts every epoch's order and every buffer is planned from. */
  long[] blockRows() {
    long[] rows = new long[blocks.size()];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = blocks.get(i).liveRows();
    }
    return rows;
  }

  /**
   * The row groups the blocks hold, a part of one counting as its share of the row group's rows.
   */
  double rowGroups() {
    double sum = 0;
    for (Block b : blocks) {
      sum += b.rowGroupShare();
    }
    return sum;
  }

  /** The live rows of all blocks. */
  long totalRows() {
    long sum = 0;
    for (Block b : blocks) {
      sum += b.liveRows();
    }
    return sum;
  }

  String describe(Block block) {
    String rows =
        block.wholeRowGroup()
            ? ""
            : "rows " + block.firstRow() + " to " + (block.firstRow() + block.rows() - 1) + " of ";
    return rows
        + "row group "
        + block.rowGroup()
        + " (offset "
        + block.offset()
        + ", "
        + block.groupRows()
        + " rows) of "
        + files.get(block.file()).path();
  }
}
