package io.corgipile.source;

import io.corgipile.spark.BlockBatches;
import io.corgipile.spark.BlockDecoder;
import io.corgipile.spark.BlockRows;
import io.corgipile.spark.DataFile;
import io.corgipile.spark.FileHandle;
import io.corgipile.spark.ScanSettings;
import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Opens the blocks of one task: takes each file's footer from the {@link FooterCache} (reading it
 * when the executor has not read this version of the file yet), checks the file and row group are
 * the ones planned, counts what is read, and names the block and its file in any error. A file's
 * blocks are read through one {@link FileHandle}, opened at its first block, one block at a time;
 * at most {@value #OPEN_STREAMS} files a task stay open (the least recently read closes first), as
 * a task reads blocks from all over a large table; closing the opener closes them all, and the
 * Spark reader its blocks shared.
 */
final class BlockOpener implements Closeable {
  /**
   * Streams a task keeps open: enough for the parts of the files a buffer is filling from to share
   * a stream, few beside an executor's file handles and an object store's connection pool.
   */
  static final int OPEN_STREAMS = 16;

  private final BlockPlan plan;
  private final BlockDecoder decoder;
  private final ScanSettings settings;
  private final ReaderMetrics metrics;

  /** Every file this task has read, checked against the plan once. */
  private final Map<Integer, FileHandle> files = new HashMap<>();

  /** The files whose streams are open, least recently read first. */
  private final LinkedHashMap<Integer, FileHandle> openFiles = new LinkedHashMap<>(16, 0.75f, true);

  BlockOpener(BlockPlan plan, ScanSettings settings, ReaderMetrics metrics) {
    this.plan = plan;
    this.settings = settings;
    this.decoder = new BlockDecoder(settings, metrics.readersOpened::incrementAndGet);
    this.metrics = metrics;
  }

  Block block(int index) {
    return plan.blocks().get(index);
  }

  /** The block's live rows: its deleted rows are decoded and skipped. */
  BlockRows rows(Block block) throws IOException {
    BlockRows rows = open(block, decoder::open);
    return block.deleted().isEmpty() ? rows : new LiveRows(rows, block.deleted());
  }

  /**
   * The block's column batches, passed through as Spark's reader decodes them; only for blocks
   * without deleted rows (a scan with deletes reads rows: {@link
   * CorgiPileReaderFactory#supportColumnarReads}).
   */
  BlockBatches batches(Block block) throws IOException {
    return open(block, decoder::openBatches);
  }

  /** How the decoder opens a block's rows as rows or as batches. */
  @FunctionalInterface
  private interface Open<T> {
    T open(DataFile file, FileHandle handle, int rowGroup, long firstRow, long rows)
        throws IOException;
  }

  private <T> T open(Block block, Open<T> how) throws IOException {
    try {
      FileHandle file = file(block);
      checkRowGroup(block, file);
      // Parquet's record reader, where Spark falls back to it, opens the file itself.
      if (settings.vectorized()) {
        keepOpen(block.file(), file);
      }
      T opened =
          how.open(
              plan.files().get(block.file()),
              file,
              block.rowGroup(),
              block.firstRow(),
              block.rows());
      metrics.blocksRead.incrementAndGet();
      metrics.bytesRead.addAndGet(block.compressedBytes());
      return opened;
    } catch (IOException | RuntimeException e) {
      throw failure(block, e);
    }
  }

  /** An error reading {@code block}, naming it and its file, unless {@code e} already does. */
  CorgiPileReadException failure(Block block, Exception e) {
    if (e instanceof BlockReadException named) {
      return named;
    }
    return new BlockReadException(
        "Cannot read " + plan.describe(block) + ": " + BlockPlanner.message(e), e);
  }

  /** Checks the block's row group is the one planned. */
  private static void checkRowGroup(Block block, FileHandle file) {
    List<BlockMetaData> groups = file.footer().getBlocks();
    if (block.rowGroup() >= groups.size()
        || groups.get(block.rowGroup()).getStartingPos() != block.offset()
        || groups.get(block.rowGroup()).getRowCount() != block.groupRows()) {
      throw new CorgiPileReadException("the file changed since the scan was planned");
    }
  }

  private FileHandle file(Block block) throws IOException {
    FileHandle handle = files.get(block.file());
    if (handle == null) {
      DataFile file = plan.files().get(block.file());
      Path path = new Path(file.path());
      FileStatus status = path.getFileSystem(settings.hadoopConf()).getFileStatus(path);
      if (status.getLen() != file.length()) {
        throw new CorgiPileReadException(
            "the file changed since the scan was planned: it is "
                + status.getLen()
                + " bytes long, "
                + file.length()
                + " when planned");
      }
      // A file replaced at the same length, between two epochs of a fit: its rows could be others
      // than those planned, or as many in other places, with nothing left to notice it.
      if (status.getModificationTime() != file.modificationTime()) {
        throw new CorgiPileReadException(
            "the file changed since the scan was planned: it was modified at "
                + Instant.ofEpochMilli(status.getModificationTime())
                + ", at "
                + Instant.ofEpochMilli(file.modificationTime())
                + " when planned");
      }
      // Keyed by the file as it is now, which the checks above hold to the file as planned.
      FooterCache.Key key =
          new FooterCache.Key(file.path(), status.getLen(), status.getModificationTime());
      HadoopInputFile input = HadoopInputFile.fromStatus(status, settings.hadoopConf());
      handle =
          new FileHandle(
              status,
              input,
              FooterCache.JVM.footer(
                  key,
                  () -> {
                    metrics.footersRead.incrementAndGet();
                    return BlockPlanner.readFooter(input);
                  }),
              settings.hadoopConf());
      files.put(block.file(), handle);
    }
    return handle;
  }

  /** Marks file {@code index} as read now; the least recently read closes beyond the bound. */
  private void keepOpen(int index, FileHandle file) throws IOException {
    openFiles.put(index, file);
    if (openFiles.size() > OPEN_STREAMS) {
      Iterator<FileHandle> oldest = openFiles.values().iterator();
      FileHandle closing = oldest.next();
      oldest.remove();
      closing.close();
    }
  }

  /**
   * Closes the shared Spark reader and every file still open; the first failure is thrown once all
   * are closed.
   */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    List<Closeable> closing = new ArrayList<>(openFiles.values());
    closing.add(0, decoder);
    for (Closeable c : closing) {
      try {
        c.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    openFiles.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
