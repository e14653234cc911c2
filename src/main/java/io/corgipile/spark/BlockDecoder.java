package io.corgipile.spark;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.parquet.schema.MessageType;
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
 * Decodes a task's blocks on an executor with Spark's own Parquet readers.
 *
 * <p>It opens one block (a row group, or a range of its rows) at a time, on one thread at a time;
 * closing it closes the Spark reader its blocks shared.
 */
public final class BlockDecoder implements Closeable {
  private final ScanSettings settings;
  // Looking up generated code costs about a millisecond, so one projection serves every block; a
  // block's rows are consumed before the next one opens.
  private final UnsafeProjection projection;
  private final FixedWidthRowEncoder encoder;
  // A task attempt context copies the whole Hadoop configuration: once per task, not per block.
  private final TaskAttemptContextImpl context;

  /** The contexts of files read by name ({@link ScanSettings#hadoopConf(MessageType)}). */
  private final Map<MessageType, TaskAttemptContextImpl> byNameContexts = new HashMap<>();

  /** Told of every Spark reader set up. */
  private final Runnable readerOpened;

  private ReusedVectorizedReader reused;

  /**
   * @param readerOpened told of every Spark reader the decoder sets up
   */
  public BlockDecoder(ScanSettings settings, Runnable readerOpened) {
    this.settings = settings;
    this.readerOpened = readerOpened;
    StructType readSchema = settings.readSchema();
    this.projection = UnsafeProjection.create(readSchema);
    this.encoder =
        FixedWidthRowEncoder.forSchema(readSchema, IntStream.range(0, readSchema.size()).toArray());
    this.context = new TaskAttemptContextImpl(settings.hadoopConf(), new TaskAttemptID());
  }

  /**
   * Why {@link #open} cannot read part of a row group of this scan, if it cannot: Spark reads the
   * schema with Parquet's record reader, or its vectorized reader is not the one this was built
   * for.
   */
  public static Optional<String> rowRangesUnsupported(ScanSettings settings) {
    return settings.vectorized()
        ? ReusedVectorizedReader.unsupported()
        : Optional.of(
            "Spark reads this schema with Parquet's record reader, which reads whole row groups");
  }

  /**
   * Opens rows {@code [firstRow, firstRow + rows)} of row group {@code rowGroup} of {@code file}
   * with Spark's vectorized reader; only for schemas it supports. Part of a row group needs the
   * offset index of every column read. The batches are read, or closed, before the next block
   * opens: the blocks of a task share one Spark reader where they can.
   */
  public BlockBatches openBatches(
      DataFile file, FileHandle handle, int rowGroup, long firstRow, long rows) throws IOException {
    BlockMetaData block = handle.footer().getBlocks().get(rowGroup);
    if (firstRow < 0 || rows < 1 || firstRow + rows > block.getRowCount()) {
      throw new IllegalArgumentException(
          "Cannot read rows ["
              + firstRow
              + ", "
              + (firstRow + rows)
              + ") of a row group of "
              + block.getRowCount()
              + " rows");
    }
    FileMetaData meta = handle.footer().getFileMetaData();
    RebaseDateTime.RebaseSpec datetimeRebase = settings.datetimeRebaseSpec(meta);
    RebaseDateTime.RebaseSpec int96Rebase = settings.int96RebaseSpec(meta);
    ZoneId convertTz = convertTz(meta);
    InternalRow partitionValues = partitionValues(file);
    // What Spark's reader takes from the file it is initialized on, and so what every block it
    // reads must share.
    ReaderKey key =
        new ReaderKey(
            meta.getSchema(),
            meta.getCreatedBy(),
            datetimeRebase,
            int96Rebase,
            convertTz,
            partitionValues);
    // Small blocks get small column vectors.
    int capacity = (int) Math.max(1, Math.min(settings.batchSize(), rows));
    if (reused != null && !reused.accepts(key, capacity)) {
      closeReused();
    }
    if (reused != null) {
      return reused.read(handle, rowGroup, block.getRowCount(), firstRow, rows);
    }
    Optional<String> unshareable = ReusedVectorizedReader.unsupported();
    // Spark's reader then reads whole row groups only, itself: parts were not planned
    // (rowRangesUnsupported).
    if (unshareable.isPresent() && rows != block.getRowCount()) {
      throw new IllegalStateException(
          "Cannot read part of a Parquet row group: " + unshareable.get());
    }
    VectorizedParquetRecordReader reader =
        new VectorizedParquetRecordReader(
            convertTz,
            datetimeRebase.mode().toString(),
            datetimeRebase.timeZone(),
            int96Rebase.mode().toString(),
            int96Rebase.timeZone(),
            settings.offHeap() && TaskContext.get() != null,
            capacity);
    readerOpened.run();
    try {
      reader.initialize(
          split(handle.input(), block),
          context(meta.getSchema()),
          Option.apply(handle.input()),
          Option.apply(new BorrowedStream(handle.stream())),
          Option.apply(new ParquetMetadata(meta, List.of(block))));
      reader.initBatch(settings.readPartitionSchema(), partitionValues);
      reader.enableReturningBatches();
      if (unshareable.isEmpty()) {
        ReusedVectorizedReader adopted = ReusedVectorizedReader.adopt(reader, key, capacity);
        BlockBatches batches = adopted.read(handle, rowGroup, block.getRowCount(), firstRow, rows);
        reused = adopted; // only once it read: a failure above closes the reader
        return batches;
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      reader.close();
      throw asIOException(e);
    }
    return new BlockBatches() {
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
   * Opens rows {@code [firstRow, firstRow + rows)} of row group {@code rowGroup} of {@code file}
   * with Spark's vectorized reader, or the whole row group with its record reader where Spark would
   * fall back to it (which opens the file itself), and returns them in the read schema.
   */
  public BlockRows open(DataFile file, FileHandle handle, int rowGroup, long firstRow, long rows)
      throws IOException {
    if (settings.vectorized()) {
      return new BatchRows(
          openBatches(file, handle, rowGroup, firstRow, rows),
          projection,
          encoder,
          settings.readSchema().size());
    }
    BlockMetaData block = handle.footer().getBlocks().get(rowGroup);
    if (firstRow != 0 || rows != block.getRowCount()) {
      throw new IllegalArgumentException(
          "Cannot read part of a row group with Parquet's record reader, "
              + "which Spark uses for this schema: read whole row groups");
    }
    FileMetaData meta = handle.footer().getFileMetaData();
    ParquetRecordReader<InternalRow> reader =
        new ParquetRecordReader<>(
            new ParquetReadSupport(
                Option.apply(convertTz(meta)),
                false,
                settings.datetimeRebaseSpec(meta),
                settings.int96RebaseSpec(meta)));
    readerOpened.run();
    try {
      reader.initialize(split(handle.input(), block), context(meta.getSchema()));
    } catch (IOException | InterruptedException | RuntimeException e) {
      reader.close();
      throw asIOException(e);
    }
    return new RecordRows(reader, partitionValues(file), projection);
  }

  /** The task attempt context to read a file of schema {@code file} with. */
  private TaskAttemptContextImpl context(MessageType file) {
    return settings.readsByName(file)
        ? byNameContexts.computeIfAbsent(
            file, f -> new TaskAttemptContextImpl(settings.hadoopConf(f), new TaskAttemptID()))
        : context;
  }

  /** Closes the Spark reader the blocks shared, if one is open. */
  @Override
  public void close() throws IOException {
    closeReused();
  }

  private void closeReused() throws IOException {
    ReusedVectorizedReader closing = reused;
    reused = null;
    if (closing != null) {
      closing.close();
    }
  }

  /** What a Spark vectorized reader takes from the file it is initialized on. */
  private record ReaderKey(
      MessageType fileSchema,
      String createdBy,
      RebaseDateTime.RebaseSpec datetimeRebase,
      RebaseDateTime.RebaseSpec int96Rebase,
      ZoneId convertTz,
      InternalRow partitionValues) {}

  private FileSplit split(HadoopInputFile input, BlockMetaData block) {
    return new FileSplit(
        input.getPath(), block.getStartingPos(), block.getCompressedSize(), new String[0]);
  }

  /** As Spark: INT96 timestamps are converted to the session zone unless parquet-mr wrote them. */
  private ZoneId convertTz(FileMetaData meta) {
    String createdBy = meta.getCreatedBy();
    return settings.int96Conversion() && (createdBy == null || !createdBy.startsWith("parquet-mr"))
        ? DateTimeUtils.getZoneId(settings.sessionTimeZone())
        : null;
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
