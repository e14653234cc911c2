package io.corgipile.source;

import io.corgipile.spark.DataFile;
import java.io.Serializable;
import java.util.List;

/** The files of a scan and their row groups (blocks), in storage order, after filter pushdown. */
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

  long totalRows() {
    long sum = 0;
    for (Block b : blocks) {
      sum += b.rows();
    }
    return sum;
  }

  String describe(Block block) {
    return "row group " + block.rowGroup() + " (offset " + block.offset() + ", " + block.rows() + " rows) of "
        + files.get(block.file()).path();
  }
}
