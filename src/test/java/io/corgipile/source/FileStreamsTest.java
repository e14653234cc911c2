package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.FilterInputStream;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Seekable;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A task opens each file it reads once, however many blocks (row groups, parts of row groups) it
 * reads from it, keeps no more than {@link BlockOpener#OPEN_STREAMS} open at once, and closes every
 * file it opened, also when the query stops reading early.
 */
class FileStreamsTest {
  private static final int FILES = 2;
  private static String table;

  /** More files than a task keeps open. */
  private static String manyFiles;

  /**
   * The local file system under the scheme {@code counting}, counting what the scan's blocks open
   * and close.
   */
  public static final class CountingFileSystem extends RawLocalFileSystem {
    static final List<String> OPENED = Collections.synchronizedList(new ArrayList<>());
    static final AtomicInteger CLOSED = new AtomicInteger();
    static final AtomicInteger OPEN_NOW = new AtomicInteger();
    static final AtomicInteger MOST_OPEN = new AtomicInteger();

    @Override
    public URI getUri() {
      return URI.create("counting:///");
    }

    @Override
    public String getScheme() {
      return "counting";
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
      FSDataInputStream in = super.open(f, bufferSize);
      // only the opens of the blocks' reads, not the planner's (footers, offset indexes)
      if (StackWalker.getInstance()
          .walk(
              s -> s.anyMatch(frame -> frame.getClassName().equals(BlockOpener.class.getName())))) {
        OPENED.add(f.getName());
        MOST_OPEN.accumulateAndGet(OPEN_NOW.incrementAndGet(), Math::max);
        return new FSDataInputStream(new Counted(in));
      }
      return in;
    }
  }

  /** A stream that counts its first close. */
  private static final class Counted extends FilterInputStream
      implements Seekable, PositionedReadable {
    private final FSDataInputStream in;
    private boolean closed;

    Counted(FSDataInputStream in) {
      super(in);
      this.in = in;
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        CountingFileSystem.CLOSED.incrementAndGet();
        CountingFileSystem.OPEN_NOW.decrementAndGet();
      }
      super.close();
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) throws IOException {
      return in.seekToNewSource(targetPos);
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) throws IOException {
      return in.read(position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      in.readFully(position, buffer, offset, length);
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      in.readFully(position, buffer);
    }
  }

  /** Two files of 4 row groups of 1000 rows in pages of 100. */
  @BeforeAll
  static void writeTable() {
    Configuration hadoop = spark().sparkContext().hadoopConfiguration();
    hadoop.set("fs.counting.impl", CountingFileSystem.class.getName());
    hadoop.setBoolean("fs.counting.impl.disable.cache", true);
    table = TestTables.tempDir("streams").resolve("t").toString();
    spark()
        .range(0, 8000, 1, FILES)
        .selectExpr("id", "cast(id % 2 as int) as label", "cast(id as double) as x")
        .write()
        .option("parquet.block.row.count.limit", 1000)
        .option("parquet.page.row.count.limit", 100)
        .parquet(table);
    manyFiles = TestTables.tempDir("streams").resolve("many").toString();
    spark()
        .range(0, 4000, 1, 2 * BlockOpener.OPEN_STREAMS)
        .selectExpr("id", "cast(id % 2 as int) as label", "cast(id as double) as x")
        .write()
        .option("parquet.block.row.count.limit", 50)
        .parquet(manyFiles);
  }

  @BeforeEach
  void resetCounts() {
    CountingFileSystem.OPENED.clear();
    CountingFileSystem.CLOSED.set(0);
    CountingFileSystem.OPEN_NOW.set(0);
    CountingFileSystem.MOST_OPEN.set(0);
  }

  private static List<Row> read(String shuffle, String blockSize, int limit) {
    return read(table, shuffle, blockSize, limit);
  }

  private static List<Row> read(String path, String shuffle, String blockSize, int limit) {
    var df =
        corgipile("shuffle", shuffle, "blockSize", blockSize, "partitions", "1", "seed", "3")
            .load("counting://" + path);
    return limit > 0 ? df.limit(limit).collectAsList() : df.collectAsList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "block", "corgipile", "window"})
  void eachFileIsOpenedOnceByTheTaskAndClosed(String shuffle) {
    assertThat(read(shuffle, "250", 0)).hasSize(8000); // 32 blocks, 16 per file

    assertThat(CountingFileSystem.OPENED).hasSize(FILES).doesNotHaveDuplicates();
    assertThat(CountingFileSystem.CLOSED.get()).isEqualTo(FILES);
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "corgipile"})
  void filesAreClosedWhenTheQueryStopsEarly(String shuffle) {
    assertThat(read(shuffle, "rowGroup", 10)).hasSize(10);

    assertThat(CountingFileSystem.OPENED).isNotEmpty();
    assertThat(CountingFileSystem.CLOSED.get()).isEqualTo(CountingFileSystem.OPENED.size());
  }

  @Test
  void aTaskKeepsABoundedNumberOfFilesOpen() {
    // 32 files of 3 row groups each, read in a random order by one task: files are opened again
    // after
    // their stream closed, never more than the bound at once
    assertThat(read(manyFiles, "corgipile", "rowGroup", 0)).hasSize(4000);

    assertThat(CountingFileSystem.MOST_OPEN.get()).isEqualTo(BlockOpener.OPEN_STREAMS);
    assertThat(CountingFileSystem.OPENED).hasSizeGreaterThan(2 * BlockOpener.OPEN_STREAMS);
    assertThat(CountingFileSystem.CLOSED.get()).isEqualTo(CountingFileSystem.OPENED.size());
  }
}
