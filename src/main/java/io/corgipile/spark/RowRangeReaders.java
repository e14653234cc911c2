package io.corgipile.spark;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.spark.sql.execution.datasources.parquet.SpecificParquetRecordReaderBase;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;

/**
 * Narrows Spark's vectorized Parquet reader, initialized on one row group, to a range of that row
 * group's rows. Parquet then reads only the pages that hold them (located by the offset index) and
 * Spark's reader skips the other rows of those pages, as it does when Parquet's column indexes
 * filter rows.
 *
 * <p>Spark keeps its row-group reader in a field of a package-private type, so this swaps it by
 * reflection for a proxy that reads the range. Where this Spark's reader lacks those fields,
 * {@link #unsupported} says so and the scan reads whole row groups.
 */
final class RowRangeReaders {
  private static final Internals INTERNALS = Internals.find();

  private RowRangeReaders() {}

  /**
   * Makes {@code reader} return rows {@code [firstRow, firstRow + rows)} of its row group of
   * {@code groupRows} rows, and no others.
   *
   * @throws IllegalStateException when this Spark's reader cannot be narrowed ({@link #unsupported})
   */
  static void narrow(VectorizedParquetRecordReader reader, long firstRow, long rows, long groupRows) {
    unsupported().ifPresent(reason -> {
      throw new IllegalStateException("Cannot read part of a Parquet row group: " + reason);
    });
    try {
      Object own = INTERNALS.rowGroupReader.get(reader);
      ParquetFileReader file = (ParquetFileReader) INTERNALS.fileReader.get(own);
      RowRanges range = RowRanges.create(groupRows, IntStream.of(0).iterator(), new RangeIndex(firstRow, rows));
      Object narrowed = Proxy.newProxyInstance(INTERNALS.rowGroupReaderType.getClassLoader(),
          new Class<?>[] {INTERNALS.rowGroupReaderType}, new RangeReader(file, range));
      INTERNALS.rowGroupReader.set(reader, narrowed);
      INTERNALS.totalRowCount.setLong(reader, rows);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot read part of a Parquet row group: " + e.getMessage(), e);
    }
  }

  /** Why this Spark's reader cannot be narrowed, if it cannot. */
  static Optional<String> unsupported() {
    return INTERNALS.failure == null ? Optional.empty()
        : Optional.of("this Spark's vectorized Parquet reader is not the one corgipile-spark was built for ("
            + INTERNALS.failure + ")");
  }

  /** Spark's fields, looked up once; {@code failure} says what is missing when one is. */
  private record Internals(Class<?> rowGroupReaderType, Field rowGroupReader, Field fileReader, Field totalRowCount,
      String failure) {
    static Internals find() {
      try {
        Class<?> base = SpecificParquetRecordReaderBase.class;
        Field rowGroupReader = accessible(base.getDeclaredField("reader"));
        Field totalRowCount = accessible(base.getDeclaredField("totalRowCount"));
        Class<?> impl = Class.forName(base.getName() + "$ParquetRowGroupReaderImpl", false, base.getClassLoader());
        Field fileReader = accessible(impl.getDeclaredField("reader"));
        if (!rowGroupReader.getType().isInterface() || !rowGroupReader.getType().isAssignableFrom(impl)
            || fileReader.getType() != ParquetFileReader.class || totalRowCount.getType() != long.class) {
          return new Internals(null, null, null, null, "its row-group reader fields have other types");
        }
        return new Internals(rowGroupReader.getType(), rowGroupReader, fileReader, totalRowCount, null);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return new Internals(null, null, null, null, e.toString());
      }
    }

    private static Field accessible(Field f) {
      f.setAccessible(true);
      return f;
    }
  }

  /** Spark's row-group reader over one range of the file's only row group. */
  private static final class RangeReader implements InvocationHandler {
    private final ParquetFileReader file;
    private final RowRanges range;
    private boolean read;

    RangeReader(ParquetFileReader file, RowRanges range) {
      this.file = file;
      this.range = range;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws IOException {
      switch (method.getName()) {
        case "readNextRowGroup":
          if (read) {
            return null;
          }
          read = true;
          return file.readFilteredRowGroup(0, range);
        case "close":
          file.close();
          return null;
        case "hashCode":
          return System.identityHashCode(proxy);
        case "equals":
          return proxy == args[0];
        case "toString":
          return "rows " + range + " of " + file.getFile();
        default:
          throw new UnsupportedOperationException(method.toString());
      }
    }
  }

  /** An offset index of one page holding the range's rows: how {@link RowRanges} is made of rows. */
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
