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

  long[] blockRows() {
    long[] rows = new long[blocks.size()];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = blocks.get(i).rows();
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

  long totalRows() {
    long sum = 0;
    for (Block b : blocks) {
      sum += b.rows();
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
