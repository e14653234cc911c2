package io.corgipile.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A file's open stream lent to a reader that closes what it is given (Parquet's reader of the file,
 * Spark's reader initialized on it): its close leaves the stream open for the file's next block;
 * its owner, the {@link FileHandle}, closes it. Opening the file for each block would cost a
 * file-system open (on the local file system, of the checksum file too) per block.
 */
final class BorrowedStream extends SeekableInputStream {
  private final SeekableInputStream stream;

  BorrowedStream(SeekableInputStream stream) {
    this.stream = stream;
  }

  @Override
  public long getPos() throws IOException {
    return stream.getPos();
  }

  @Override
  public void seek(long newPos) throws IOException {
    stream.seek(newPos);
  }

  @Override
  public void readFully(byte[] bytes) throws IOException {
    stream.readFully(bytes);
  }

  @Override
  public void readFully(byte[] bytes, int start, int len) throws IOException {
    stream.readFully(bytes, start, len);
  }

  @Override
  public int read(ByteBuffer buf) throws IOException {
    return stream.read(buf);
  }

  @Override
  public void readFully(ByteBuffer buf) throws IOException {
    stream.readFully(buf);
  }

  @Override
  public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator)
      throws IOException {
    stream.readVectored(ranges, allocator);
  }

  @Override
  public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
    return stream.readVectoredAvailable(allocator);
  }

  @Override
  public int read() throws IOException {
    return stream.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return stream.read(b, off, len);
  }

  @Override
  public long skip(long n) throws IOException {
    return stream.skip(n);
  }

  @Override
  public int available() throws IOException {
    return stream.available();
  }

  /** Returns the stream to its owner, open. */
  @Override
  public void close() {}
}
