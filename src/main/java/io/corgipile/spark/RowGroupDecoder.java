package io.corgipile.spark;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.ZoneId;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.parquet.hadoop.ParquetRecordReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.Option;

/**
 * Decodes a task's row groups on an executor with Spark's own Parquet readers.
 *
 * <p>It opens one row group (or a range of its rows) at a time, on one thread at a time.
 */
public final class RowGroupDecoder {
  private final ScanSettings settings;
  // Looking up generated code costs about a millisecond, so one projection serves every row group;
  // a row group's rows are consumed before the next one opens.
  private final UnsafeProjection projection;
  private final FixedWidthRowEncoder encoder;
  // A task attempt context copies the whole Hadoop configuration: once per task, not per row group.
  private final TaskAttemptContextImpl context;

  public RowGroupDecoder(ScanSettings settings) {
    this.settings = settings;
    StructType readSchema = settings.readSchema();
    this.projection = UnsafeProjection.create(readSchema);
    this.encoder = FixedWidthRowEncoder.forSchema(readSchema, IntStream.range(0, readSchema.size()).toArray());
    this.context = new TaskAttemptContextImpl(settings.hadoopConf(), new TaskAttemptID());
  }

  /**
   * Why {@link #open} cannot read part of a row group of this scan, if it cannot: Spark reads the
   * schema with Parquet's record reader, or its vectorized reader is not the one this was built for.
   */
  public static Optional<String> rowRangesUnsupported(ScanSettings settings) {
    return settings.vectorized() ? RowRangeReaders.unsupported()
        : Optional.of("Spark reads this schema with Parquet's record reader, which reads whole row groups");
  }

  /**
   * Opens rows {@code [firstRow, firstRow + rows)} of one row group with Spark's vectorized reader;
   * only for schemas it supports. Part of a row group needs the offset index of every column read.
   *
   * @param input the file
   * @param stream the file's stream, opened once per task: the block's reader borrows it and leaves it open
   * @param footer the file's footer, reduced to the one row group to read
   */
  public RowGroupBatches openBatches(DataFile file, HadoopInputFile input, SeekableInputStream stream,
      ParquetMetadata footer, long firstRow, long rows) throws IOException {
    BlockMetaData block = footer.getBlocks().get(0);
    if (firstRow < 0 || rows < 1 || firstRow + rows > block.getRowCount()) {
      throw new IllegalArgumentException("Cannot read rows [" + firstRow + ", " + (firstRow + rows)
          + ") of a row group of " + block.getRowCount() + " rows");
    }
    FileMetaData meta = footer.getFileMetaData();
    RebaseDateTime.RebaseSpec datetimeRebase = settings.datetimeRebaseSpec(meta);
    RebaseDateTime.RebaseSpec int96Rebase = settings.int96RebaseSpec(meta);
    // Small blocks get small column vectors.
    int capacity = (int) Math.max(1, Math.min(settings.batchSize(), rows));
    VectorizedParquetRecordReader reader = new VectorizedParquetRecordReader(convertTz(meta),
        datetimeRebase.mode().toString(), datetimeRebase.timeZone(),
        int96Rebase.mode().toString(), int96Rebase.timeZone(),
        settings.offHeap() && TaskContext.get() != null, capacity);
    try {
      reader.initialize(split(input, block), context, Option.apply(input), Option.apply(new BorrowedStream(stream)),
          Option.apply(footer));
      if (rows < block.getRowCount()) {
        RowRangeReaders.narrow(reader, firstRow, rows, block.getRowCount());
      }
      reader.initBatch(settings.readPartitionSchema(), partitionValues(file));
      reader.enableReturningBatches();
    } catch (IOException | InterruptedException | RuntimeException e) {
      reader.close();
      throw asIOException(e);
    }
    return new RowGroupBatches() {
      @Override
      public ColumnarBatch nextBatch() throws IOException {
        return reader.nextKeyValue() ? (ColumnarBatch) reader.getCurrentValue() : null;
      }

      @Override
      public void close() throws IOException {
        reader.close();
      }
    };
  }

  /**
   * Opens rows {@code [firstRow, firstRow + rows)} of one row group with Spark's vectorized reader,
   * or the whole row group with its record reader where Spark would fall back to it, and returns
   * them in the read schema. {@code stream} is as for {@link #openBatches}, and unused (it may be
   * null) where the record reader reads: that opens the file itself.
   */
  public RowGroupRows open(DataFile file, HadoopInputFile input, SeekableInputStream stream, ParquetMetadata footer,
      long firstRow, long rows) throws IOException {
    if (settings.vectorized()) {
      return new BatchRows(openBatches(file, input, stream, footer, firstRow, rows), projection, encoder,
          settings.readSchema().size());
    }
    if (firstRow != 0 || rows != footer.getBlocks().get(0).getRowCount()) {
      throw new IllegalArgumentException("Cannot read part of a row group with Parquet's record reader, "
          + "which Spark uses for this schema: read whole row groups");
    }
    FileMetaData meta = footer.getFileMetaData();
    ParquetRecordReader<InternalRow> reader = new ParquetRecordReader<>(new ParquetReadSupport(
        Option.apply(convertTz(meta)), false, settings.datetimeRebaseSpec(meta), settings.int96RebaseSpec(meta)));
    try {
      reader.initialize(split(input, footer.getBlocks().get(0)), context);
    } catch (IOException | InterruptedException | RuntimeException e) {
      reader.close();
      throw asIOException(e);
    }
    return new RecordRows(reader, partitionValues(file), projection);
  }

  private FileSplit split(HadoopInputFile input, BlockMetaData block) {
    return new FileSplit(input.getPath(), block.getStartingPos(), block.getCompressedSize(), new String[0]);
  }

  /** As Spark: INT96 timestamps are converted to the session zone unless parquet-mr wrote them. */
  private ZoneId convertTz(FileMetaData meta) {
    String createdBy = meta.getCreatedBy();
    return settings.int96Conversion() && (createdBy == null || !createdBy.startsWith("parquet-mr"))
        ? DateTimeUtils.getZoneId(settings.sessionTimeZone()) : null;
  }

  private InternalRow partitionValues(DataFile file) {
    int[] ordinals = settings.readPartitionOrdinals();
    StructType schema = settings.readPartitionSchema();
    Object[] values = new Object[ordinals.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = file.partitionValues().get(ordinals[i], schema.fields()[i].dataType());
    }
    return new GenericInternalRow(values);
  }

  private static IOException asIOException(Exception e) {
    if (e instanceof RuntimeException) {
      throw (RuntimeException) e;
    }
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return new InterruptedIOException(e.getMessage());
    }
    return (IOException) e;
  }
}
