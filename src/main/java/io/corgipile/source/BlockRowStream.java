package io.corgipile.source;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * The rows of a list of blocks, block after block, decoded through {@link SparkParquetAdapter}.
 * Each file's footer is read once per stream. Errors name the row group and file.
 */
final class BlockRowStream implements Closeable {
  private final BlockPlan plan;
  private final int[] order;
  private final SparkParquetAdapter adapter;
  private final ReaderMetrics metrics;
  private final SparkParquetAdapter.Decoder decoder;
  private final Map<Integer, OpenFile> files = new HashMap<>();

  private int nextBlock;
  private Block current;
  private RowGroupRows rows;
  private long rowsSeen;
  private long rowsPublished;
  private long bytesSeen;

  BlockRowStream(BlockPlan plan, int[] order, SparkParquetAdapter adapter, ReaderMetrics metrics) {
    this.plan = plan;
    this.order = order;
    this.adapter = adapter;
    this.metrics = metrics;
    this.decoder = adapter.decoder();
  }

  /** A file's handle and footer, read once per stream. */
  private record OpenFile(HadoopInputFile input, ParquetMetadata footer) {}

  /** Whether another block remains after the current one. */
  boolean hasNextBlock() {
    return nextBlock < order.length;
  }

  /** Rows of the block {@link #openNextBlock()} would open. */
  long nextBlockRows() {
    return plan.blocks().get(order[nextBlock]).rows();
  }

  /** Average bytes of the rows decoded so far, or 0 before the first row. */
  double averageRowBytes() {
    return rowsSeen == 0 ? 0 : (double) bytesSeen / rowsSeen;
  }

  /** Closes the current block and opens the next one. */
  void openNextBlock() throws IOException {
    closeCurrent();
    current = plan.blocks().get(order[nextBlock++]);
    DataFile file = plan.files().get(current.file());
    try {
      OpenFile open = files.get(current.file());
      if (open == null) {
        HadoopInputFile input = HadoopInputFile.fromPath(new Path(file.path()), adapter.hadoopConf());
        open = new OpenFile(input, BlockPlanner.readFooter(input));
        files.put(current.file(), open);
      }
      List<BlockMetaData> groups = open.footer().getBlocks();
      if (current.rowGroup() >= groups.size() || groups.get(current.rowGroup()).getStartingPos() != current.offset()) {
        throw new CorgiPileReadException("the file changed since the scan was planned");
      }
      ParquetMetadata oneGroup = new ParquetMetadata(open.footer().getFileMetaData(), List.of(groups.get(current.rowGroup())));
      rows = decoder.open(file, open.input(), oneGroup);
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
    metrics.rowGroupsRead.incrementAndGet();
    metrics.bytesRead.addAndGet(current.compressedBytes());
  }

  /** Advances to the next row of the current block; false at its end. */
  boolean nextRowInBlock() throws IOException {
    if (rows == null) {
      return false;
    }
    try {
      if (!rows.next()) {
        closeCurrent();
        return false;
      }
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
    rowsSeen++;
    bytesSeen += rows.row().getSizeInBytes();
    return true;
  }

  /** Advances to the next row, opening blocks as needed; false when all blocks are read. */
  boolean next() throws IOException {
    while (!nextRowInBlock()) {
      if (!hasNextBlock()) {
        return false;
      }
      openNextBlock();
    }
    return true;
  }

  /** The current row; valid until the next call that advances the stream. */
  UnsafeRow row() {
    return rows.row();
  }

  private CorgiPileReadException failure(Exception e) {
    if (e instanceof CorgiPileReadException && e.getMessage().startsWith("Cannot read row group")) {
      return (CorgiPileReadException) e;
    }
    return new CorgiPileReadException("Cannot read " + plan.describe(current) + ": " + BlockPlanner.message(e), e);
  }

  private void closeCurrent() throws IOException {
    // Published per block, not per row: an atomic update per row would cost more than the row.
    metrics.rowsRead.addAndGet(rowsSeen - rowsPublished);
    rowsPublished = rowsSeen;
    if (rows != null) {
      RowGroupRows r = rows;
      rows = null;
      r.close();
    }
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
  }
}
