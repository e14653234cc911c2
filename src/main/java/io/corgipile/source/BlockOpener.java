package io.corgipile.source;

import io.corgipile.spark.DataFile;
import io.corgipile.spark.RowGroupBatches;
import io.corgipile.spark.RowGroupDecoder;
import io.corgipile.spark.RowGroupRows;
import io.corgipile.spark.ScanSettings;
import java.io.Closeable;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Opens the blocks of one task: takes each file's footer from the {@link FooterCache} (reading it
 * when the executor has not read this version of the file yet), checks the file and row group are
 * the ones planned, counts what is read, and names the row group and file in any error. A file's
 * blocks are read through one stream, opened at its first block, one block at a time; at most
 * {@value #OPEN_STREAMS} files a task stay open (the least recently read closes first), as a task
 * reads blocks from all over a large table; closing the opener closes them all.
 */
final class BlockOpener implements Closeable {
  /**
   * Streams a task keeps open: enough for the parts of the files a buffer is filling from to share
   * a stream, few beside an executor's file handles and an object store's connection pool.
   */
  static final int OPEN_STREAMS = 16;

  private final BlockPlan plan;
  private final RowGroupDecoder decoder;
  private final ScanSettings settings;
  private final ReaderMetrics metrics;
  private final Map<Integer, OpenFile> files = new HashMap<>();
  /** The open streams by file, least recently read first. */
  private final LinkedHashMap<Integer, SeekableInputStream> streams = new LinkedHashMap<>(16, 0.75f, true);

  /** A file's handle and footer. */
  private record OpenFile(HadoopInputFile input, ParquetMetadata footer) {}

  BlockOpener(BlockPlan plan, ScanSettings settings, ReaderMetrics metrics) {
    this.plan = plan;
    this.settings = settings;
    this.decoder = new RowGroupDecoder(settings);
    this.metrics = metrics;
  }

  Block block(int index) {
    return plan.blocks().get(index);
  }

  RowGroupRows rows(Block block) throws IOException {
    return open(block, decoder::open);
  }

  RowGroupBatches batches(Block block) throws IOException {
    return open(block, decoder::openBatches);
  }

  /** How the decoder opens a block's rows as rows or as batches. */
  @FunctionalInterface
  private interface Open<T> {
    T open(DataFile file, HadoopInputFile input, SeekableInputStream stream, ParquetMetadata footer, long firstRow,
        long rows) throws IOException;
  }

  private <T> T open(Block block, Open<T> how) throws IOException {
    try {
      OpenFile file = open(block);
      // Parquet's record reader, where Spark falls back to it, opens the file itself.
      SeekableInputStream stream = settings.vectorized() ? stream(block.file(), file.input()) : null;
      T opened = how.open(plan.files().get(block.file()), file.input(), stream, footer(block), block.firstRow(),
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
    if (e instanceof RowGroupReadException named) {
      return named;
    }
    return new RowGroupReadException("Cannot read " + plan.describe(block) + ": " + BlockPlanner.message(e), e);
  }

  /** The file's footer reduced to the block's row group, as Spark's readers expect it. */
  private ParquetMetadata footer(Block block) throws IOException {
    ParquetMetadata footer = open(block).footer();
    List<BlockMetaData> groups = footer.getBlocks();
    if (block.rowGroup() >= groups.size() || groups.get(block.rowGroup()).getStartingPos() != block.offset()
        || groups.get(block.rowGroup()).getRowCount() != block.groupRows()) {
      throw new CorgiPileReadException("the file changed since the scan was planned");
    }
    return new ParquetMetadata(footer.getFileMetaData(), List.of(groups.get(block.rowGroup())));
  }

  private OpenFile open(Block block) throws IOException {
    OpenFile open = files.get(block.file());
    if (open == null) {
      DataFile file = plan.files().get(block.file());
      Path path = new Path(file.path());
      FileStatus status = path.getFileSystem(settings.hadoopConf()).getFileStatus(path);
      if (status.getLen() != file.length()) {
        throw new CorgiPileReadException("the file changed since the scan was planned: it is " + status.getLen()
            + " bytes long, " + file.length() + " when planned");
      }
      // A file replaced at the same length, between two epochs of a fit: its rows could be others
      // than those planned, or as many in other places, with nothing left to notice it.
      if (status.getModificationTime() != file.modificationTime()) {
        throw new CorgiPileReadException("the file changed since the scan was planned: it was modified at "
            + Instant.ofEpochMilli(status.getModificationTime()) + ", at " + Instant.ofEpochMilli(file.modificationTime())
            + " when planned");
      }
      HadoopInputFile input = HadoopInputFile.fromStatus(status, settings.hadoopConf());
      // Keyed by the file as it is now, which the checks above hold to the file as planned.
      FooterCache.Key key = new FooterCache.Key(file.path(), status.getLen(), status.getModificationTime());
      open = new OpenFile(input, FooterCache.JVM.footer(key, () -> {
        metrics.footersRead.incrementAndGet();
        return BlockPlanner.readFooter(input);
      }));
      files.put(block.file(), open);
    }
    return open;
  }

  /** File {@code index}'s stream, opened now unless it is open; the least recently read closes beyond the bound. */
  private SeekableInputStream stream(int index, HadoopInputFile input) throws IOException {
    SeekableInputStream stream = streams.get(index);
    if (stream == null) {
      if (streams.size() == OPEN_STREAMS) {
        Iterator<SeekableInputStream> oldest = streams.values().iterator();
        SeekableInputStream closing = oldest.next();
        oldest.remove();
        closing.close();
      }
      stream = input.newStream();
      streams.put(index, stream);
    }
    return stream;
  }

  /** Closes every file still open; the first failure is thrown once all are closed. */
  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (SeekableInputStream stream : streams.values()) {
      try {
        stream.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    streams.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
