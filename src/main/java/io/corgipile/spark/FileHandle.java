package io.corgipile.spark;

import java.io.Closeable;
import java.io.IOException;
import java.util.BitSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.util.functional.FutureIO;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet file as one task reads it: its handle and footer, and, while it is open, its stream and
 * Parquet's reader over the whole footer, which every block of the file read while it stays open
 * shares (one file-system open, and each row group's offset indexes read once). Closing it closes
 * the stream; reading a block of it again opens it again.
 */
public final class FileHandle implements Closeable {
  /**
   * The stream buffer: a part of a row group seeks once per column, and the local file system's
   * checksummed stream refills its whole buffer at every seek. With Spark's 64 KiB ({@code
   * spark.buffer.size}) a 2,500-row part of the 1M peers table copied about three times its bytes.
   * Reads larger than the buffer bypass it.
   */
  static final int STREAM_BUFFER_BYTES = 4096;

  /**
   * Parquet's own read policy (its {@code HadoopInputFile}): object stores read ranges, not the
   * whole file.
   */
  private static final String READ_POLICY = "parquet, vector, random, adaptive";

  private final FileStatus status;
  private final HadoopInputFile input;
  private final ParquetMetadata footer;
  private final Configuration conf;
  private SeekableInputStream stream;
  private ParquetFileReader reader;
  private boolean checksumsVerified;

  /**
   * Row groups whose last chunk's page headers passed {@link LastChunkHeaders}: every block of a
   * row group reads that chunk, and a handle serves one scan's columns.
   */
  private final BitSet headersChecked = new BitSet();

  /**
   * @param input the file as Parquet reads it, made of {@code status}
   */
  public FileHandle(
      FileStatus status, HadoopInputFile input, ParquetMetadata footer, Configuration conf) {
    this.status = status;
    this.input = input;
    this.footer = footer;
    this.conf = conf;
  }

  public HadoopInputFile input() {
    return input;
  }

  public ParquetMetadata footer() {
    return footer;
  }

  /** The file's stream, opened now unless it is open. */
  SeekableInputStream stream() throws IOException {
    if (stream == null) {
      FileSystem fs = status.getPath().getFileSystem(conf);
      // The file status spares object stores a request for it.
      stream =
          HadoopStreams.wrap(
              FutureIO.awaitFuture(
                  fs.openFile(status.getPath())
                      .withFileStatus(status)
                      .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, READ_POLICY)
                      .optLong(
                          Options.OpenFileOptions.FS_OPTION_OPENFILE_BUFFER_SIZE,
                          STREAM_BUFFER_BYTES)
                      .build()));
    }
    return stream;
  }

  /** Parquet's reader of every row group of the file, on its stream. */
  ParquetFileReader reader() throws IOException {
    if (reader == null) {
      // No record filter and no range: block i of the reader is row group i of the footer.
      ParquetReadOptions options =
          HadoopReadOptions.builder(conf, input.getPath())
              .withRecordFilter(FilterCompat.NOOP)
              .build();
      reader = new ParquetFileReader(input, footer, options, new BorrowedStream(stream()));
      checksumsVerified = options.usePageChecksumVerification();
    }
    return reader;
  }

  /** Whether {@link #reader} verifies the checksums of the pages that carry one. */
  boolean checksumsVerified() throws IOException {
    reader();
    return checksumsVerified;
  }

  /** Whether row group {@code rowGroup}'s last chunk passed {@link LastChunkHeaders} already. */
  boolean headersChecked(int rowGroup) {
    return headersChecked.get(rowGroup);
  }

  /** Notes that row group {@code rowGroup}'s last chunk passed {@link LastChunkHeaders}. */
  void markHeadersChecked(int rowGroup) {
    headersChecked.set(rowGroup);
  }

  /** Closes the stream (and the reader on it); the file opens again when read again. */
  @Override
  public void close() throws IOException {
    try {
      if (reader != null) {
        reader.close();
      }
    } finally {
      reader = null;
      SeekableInputStream closing = stream;
      stream = null;
      if (closing != null) {
        closing.close();
      }
    }
  }
}
