package io.corgipile.spark;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.execution.datasources.parquet.SpecificParquetRecordReaderBase;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Spark's vectorized Parquet reader, initialized once and then fed block after block: each block is
 * a range of rows of one row group of any file read the same way ({@code key}: same file schema,
 * writer, rebase modes and partition values). Parquet reads only the pages that hold the range
 * (located by the offset index) and Spark's reader skips the other rows of those pages, as it does
 * when Parquet's column indexes filter rows. Initializing Spark's reader for every block (requested
 * schema parsed, schemas converted, column vectors allocated) cost about 0.4 ms a block, a fifth of
 * what a 2,500-row part of the 1M peers table cost the thread that fills the buffers.
 *
 * <p>Spark keeps its row-group reader in a field of a package-private type, so this swaps it by
 * reflection for a proxy that returns the next block's pages, and moves the reader's row count on
 * by each block's rows. Where this Spark's reader lacks those fields, {@link #unsupported} says so
 * and the scan reads whole row groups, a new Spark reader each.
 */
final class ReusedVectorizedReader implements Closeable {
  private static final Internals INTERNALS = Internals.find();

  private final VectorizedParquetRecordReader reader;
  private final Object key;
  private final int capacity;
  private final MessageType requestedSchema;
  private final NextBlock next = new NextBlock();

  /** Rows of the blocks read to their end: where Spark's reader stands. */
  private long rowsRead;

  private boolean reading;

  /** A block was left unfinished or failed: Spark's reader is somewhere within it. */
  private boolean broken;

  private ReusedVectorizedReader(
      VectorizedParquetRecordReader reader, Object key, int capacity, MessageType requestedSchema) {
    this.reader = reader;
    this.key = key;
    this.capacity = capacity;
    this.requestedSchema = requestedSchema;
  }

  /**
   * Takes over {@code reader}, initialized (and its batch) on a row group read as {@code key}
   * describes, with column vectors of {@code capacity} rows; Spark's own row-group reader is closed
   * unread. Only where {@link #unsupported} is empty.
   */
  static ReusedVectorizedReader adopt(
      VectorizedParquetRecordReader reader, Object key, int capacity) {
    try {
      Closeable own = (Closeable) INTERNALS.rowGroupReader.get(reader);
      ReusedVectorizedReader reused =
          new ReusedVectorizedReader(
              reader, key, capacity, (MessageType) INTERNALS.requestedSchema.get(reader));
      INTERNALS.rowGroupReader.set(
          reader,
          Proxy.newProxyInstance(
              INTERNALS.rowGroupReaderType.getClassLoader(),
              new Class<?>[] {INTERNALS.rowGroupReaderType},
              reused.next));
      INTERNALS.totalRowCount.setLong(reader, 0);
      own.close();
      return reused;
    } catch (IllegalAccessException | IOException e) {
      throw new IllegalStateException(
          "Cannot read part of a Parquet row group: " + e.getMessage(), e);
    }
  }

  /** Why this Spark's reader cannot be fed blocks, if it cannot. */
  static Optional<String> unsupported() {
    return INTERNALS.failure == null
        ? Optional.empty()
        : Optional.of(
            "this Spark's vectorized Parquet reader is not the one corgipile-spark was built for ("
                + INTERNALS.failure
                + ")");
  }

  /**
   * Whether the next block can be read by this reader: read as {@code key}, batches of at most
   * {@code capacity}.
   */
  boolean accepts(Object key, int capacity) {
    return !broken && !reading && this.capacity >= capacity && this.key.equals(key);
  }

  /**
   * Rows {@code [firstRow, firstRow + rows)} of row group {@code rowGroup} of {@code file}, whose
   * rows number {@code groupRows}; read each batch, or close, before the next call.
   */
  BlockBatches read(FileHandle file, int rowGroup, long groupRows, long firstRow, long rows)
      throws IOException {
    if (reading) {
      throw new IllegalStateException("Cannot read a block before the previous one is closed");
    }
    file.reader().setRequestedSchema(requestedSchema);
    next.set(
        file,
        rowGroup,
        RowRanges.create(groupRows, IntStream.of(0).iterator(), new RangeIndex(firstRow, rows)));
    try {
      INTERNALS.totalRowCount.setLong(reader, rowsRead + rows);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(
          "Cannot read part of a Parquet row group: " + e.getMessage(), e);
    }
    reading = true;
    return new BlockBatches() {
      private long left = rows;

      @Override
      public ColumnarBatch nextBatch() throws IOException {
        try {
          if (!reader.nextKeyValue()) {
            return null;
          }
          ColumnarBatch batch = (ColumnarBatch) reader.getCurrentValue();
          left -= batch.numRows();
          return batch;
        } catch (IOException | RuntimeException e) {
          broken = true;
          throw e;
        }
      }

      @Override
      public void close() {
        if (reading) {
          reading = false;
          if (left == 0) {
            rowsRead += rows;
          } else {
            broken = true;
          }
        }
      }
    };
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  /** Spark's fields, looked up once; {@code failure} says what is missing when one is. */
  private record Internals(
      Class<?> rowGroupReaderType,
      Field rowGroupReader,
      Field totalRowCount,
      Field requestedSchema,
      String failure) {
    static Internals find() {
      try {
        Class<?> base = SpecificParquetRecordReaderBase.class;
        Field rowGroupReader = accessible(base.getDeclaredField("reader"));
        Field totalRowCount = accessible(base.getDeclaredField("totalRowCount"));
        Field requestedSchema = accessible(base.getDeclaredField("requestedSchema"));
        Class<?> type = rowGroupReader.getType();
        Method read = type.isInterface() ? type.getMethod("readNextRowGroup") : null;
        if (read == null
            || read.getReturnType() != PageReadStore.class
            || !Closeable.class.isAssignableFrom(type)
            || totalRowCount.getType() != long.class
            || requestedSchema.getType() != MessageType.class) {
          return new Internals(
              null, null, null, null, "its row-group reader fields have other types");
        }
        return new Internals(type, rowGroupReader, totalRowCount, requestedSchema, null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return new Internals(null, null, null, null, e.toString());
      }
    }

    private static Field accessible(Field f) {
      f.setAccessible(true);
      return f;
    }
  }

  /**
   * Spark's row-group reader: the pages of the next block, once, checked so that a damaged page
   * fails instead of hanging Spark's decoder or exhausting the heap. Files are closed by their
   * owner.
   */
  private final class NextBlock implements InvocationHandler {
    private FileHandle file;
    private int rowGroup;
    private RowRanges range;

    void set(FileHandle file, int rowGroup, RowRanges range) {
      this.file = file;
      this.rowGroup = rowGroup;
      this.range = range;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws IOException {
      switch (method.getName()) {
        case "readNextRowGroup":
          if (file == null) {
            return null;
          }
          FileHandle reading = file;
          file = null;
          ParquetFileReader parquet = reading.reader();
          // Once per row group a task reads: its parts read the same chunk.
          if (!reading.headersChecked(rowGroup)) {
            LastChunkHeaders.check(
                parquet, reading.stream(), reading.input().getLength(), rowGroup, requestedSchema);
            reading.markHeadersChecked(rowGroup);
          }
          return new CheckedPages(
              parquet.readFilteredRowGroup(rowGroup, range),
              parquet.getRowGroups().get(rowGroup),
              reading.checksumsVerified());
        case "close":
          file = null;
          return null;
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        case "toString":
          return "rows " + range + " of row group " + rowGroup;
        default:
          throw new UnsupportedOperationException(method.toString());
      }
    }
  }

  /**
   * An offset index of one page holding the range's rows: how {@link RowRanges} is made of rows.
   */
  private record RangeIndex(long firstRow, long rows) implements OffsetIndex {
    @Override
    public int getPageCount() {
      return 1;
    }

    @Override
    public long getFirstRowIndex(int pageIndex) {
      return firstRow;
    }

    @Override
    public long getLastRowIndex(int pageIndex, long rowGroupRowCount) {
      return firstRow + rows - 1;
    }

    @Override
    public long getOffset(int pageIndex) {
      throw new UnsupportedOperationException("a range of rows has no page offset");
    }

    @Override
    public int getCompressedPageSize(int pageIndex) {
      throw new UnsupportedOperationException("a range of rows has no page size");
    }
  }
}
