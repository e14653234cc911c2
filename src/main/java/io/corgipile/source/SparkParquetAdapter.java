package io.corgipile.source;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Serializable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.ParquetRecordReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.datasources.DataSourceUtils;
import org.apache.spark.sql.execution.datasources.FileStatusWithMetadata;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFilters;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.ParquetToSparkSchemaConverter;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;
import org.apache.spark.sql.execution.datasources.parquet.VectorizedParquetRecordReader;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.util.SerializableConfiguration;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The one class that uses Spark-internal APIs ({@code org.apache.spark.sql.execution} and catalyst
 * internals): listing files as {@code spark.read().parquet(...)} lists them, converting Parquet
 * schemas and filters as Spark does, and decoding a row group with Spark's own readers. A Spark
 * upgrade that moves any of these should touch this file only.
 *
 * <p>An instance holds the settings of one scan, captured from the session on the driver, and
 * travels to executors inside the reader factory.
 */
final class SparkParquetAdapter implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Broadcast<SerializableConfiguration> hadoopConf;
  private final StructType requestedDataSchema;
  private final StructType readPartitionSchema;
  private final int[] readPartitionOrdinals;
  private final StructType readSchema;
  private final boolean caseSensitive;
  private final boolean vectorized;
  private final boolean columnar;
  private final boolean offHeap;
  private final int batchSize;
  private final boolean int96Conversion;
  private final String sessionTimeZone;
  private final String datetimeRebaseMode;
  private final String int96RebaseMode;
  private final boolean filterPushDown;
  private final boolean pushDownDate;
  private final boolean pushDownTimestamp;
  private final boolean pushDownDecimal;
  private final boolean pushDownStringPredicate;
  private final int pushDownInFilterThreshold;

  /**
   * Captures a scan's settings.
   *
   * @param options the reader options (Spark's Parquet options such as {@code datetimeRebaseMode} apply)
   * @param partitionSchema the table's partition columns
   * @param requiredSchema the columns the scan must return, a pruned subset of the table schema
   */
  SparkParquetAdapter(
      SparkSession session, Map<String, String> options, StructType partitionSchema, StructType requiredSchema) {
    SQLConf sql = sqlConf(session);
    this.caseSensitive = sql.caseSensitiveAnalysis();
    List<StructField> data = new ArrayList<>();
    for (StructField f : requiredSchema.fields()) {
      if (indexOf(partitionSchema, f.name()) < 0) {
        data.add(f);
      }
    }
    List<StructField> partitions = new ArrayList<>();
    List<Integer> ordinals = new ArrayList<>();
    for (int i = 0; i < partitionSchema.fields().length; i++) {
      if (indexOf(requiredSchema, partitionSchema.fields()[i].name()) >= 0) {
        partitions.add(partitionSchema.fields()[i]);
        ordinals.add(i);
      }
    }
    this.requestedDataSchema = new StructType(data.toArray(new StructField[0]));
    this.readPartitionSchema = new StructType(partitions.toArray(new StructField[0]));
    this.readPartitionOrdinals = ordinals.stream().mapToInt(Integer::intValue).toArray();
    // As Spark's own Parquet scan: data columns, then partition columns, which is how its readers
    // lay out a batch.
    this.readSchema = new StructType(concat(requestedDataSchema.fields(), readPartitionSchema.fields()));
    this.vectorized = ParquetUtils.isBatchReadSupportedForSchema(sql, readSchema);
    this.columnar = vectorized && sql.wholeStageEnabled() && !WholeStageCodegenExec.isTooManyFields(sql, readSchema);
    this.offHeap = sql.offHeapColumnVectorEnabled();
    this.batchSize = sql.parquetVectorizedReaderBatchSize();
    this.int96Conversion = sql.isParquetINT96TimestampConversion();
    this.sessionTimeZone = sql.sessionLocalTimeZone();
    ParquetOptions parquetOptions = new ParquetOptions(scalaMap(options), sql);
    this.datetimeRebaseMode = parquetOptions.datetimeRebaseModeInRead();
    this.int96RebaseMode = parquetOptions.int96RebaseModeInRead();
    this.filterPushDown = sql.parquetFilterPushDown();
    this.pushDownDate = sql.parquetFilterPushDownDate();
    this.pushDownTimestamp = sql.parquetFilterPushDownTimestamp();
    this.pushDownDecimal = sql.parquetFilterPushDownDecimal();
    this.pushDownStringPredicate = sql.parquetFilterPushDownStringPredicate();
    this.pushDownInFilterThreshold = sql.parquetFilterPushDownInFilterThreshold();

    Configuration conf = classic(session).sessionState().newHadoopConfWithOptions(scalaMap(options));
    // What Spark's own ParquetScan sets: the converters read these keys.
    conf.set(ParquetInputFormat.READ_SUPPORT_CLASS, ParquetReadSupport.class.getName());
    conf.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), requestedDataSchema.json());
    conf.set(ParquetWriteSupport.SPARK_ROW_SCHEMA(), requestedDataSchema.json());
    conf.set(SQLConf.SESSION_LOCAL_TIMEZONE().key(), sql.sessionLocalTimeZone());
    conf.setBoolean(SQLConf.NESTED_SCHEMA_PRUNING_ENABLED().key(), sql.nestedSchemaPruningEnabled());
    conf.setBoolean(SQLConf.CASE_SENSITIVE().key(), sql.caseSensitiveAnalysis());
    conf.setBoolean(SQLConf.PARQUET_BINARY_AS_STRING().key(), sql.isParquetBinaryAsString());
    conf.setBoolean(SQLConf.PARQUET_INT96_AS_TIMESTAMP().key(), sql.isParquetINT96AsTimestamp());
    conf.setBoolean(SQLConf.PARQUET_INFER_TIMESTAMP_NTZ_ENABLED().key(), sql.parquetInferTimestampNTZEnabled());
    conf.setBoolean(SQLConf.LEGACY_PARQUET_NANOS_AS_LONG().key(), sql.legacyParquetNanosAsLong());
    conf.setBoolean(SQLConf.PARQUET_READER_RESPECT_UNKNOWN_TYPE_ANNOTATION().key(),
        sql.parquetReaderRespectUnknownTypeAnnotation());
    this.hadoopConf = JavaSparkContext.fromSparkContext(session.sparkContext())
        .broadcast(new SerializableConfiguration(conf));
  }

  /**
   * Lists a table's files and schema exactly as {@code spark.read().parquet(paths)} does: same
   * options, globs, recursion, hidden-file rules, partition discovery and schema inference.
   */
  static FileListing listFiles(
      SparkSession session, List<String> paths, Map<String, String> options, StructType userSchema) {
    DataFrameReader reader = session.read().options(options);
    if (userSchema != null) {
      reader = reader.schema(userSchema);
    }
    Dataset<Row> df = reader.parquet(paths.toArray(new String[0]));
    LogicalPlan plan = ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().analyzed();
    if (!(plan instanceof LogicalRelation)
        || !(((LogicalRelation) plan).relation() instanceof HadoopFsRelation)) {
      throw new IllegalStateException("Cannot list files of " + paths + ": unexpected plan " + plan);
    }
    HadoopFsRelation relation = (HadoopFsRelation) ((LogicalRelation) plan).relation();
    List<DataFile> files = new ArrayList<>();
    for (PartitionDirectory dir : CollectionConverters.asJava(
        relation.location().listFiles(emptySeq(), emptySeq()))) {
      InternalRow values = dir.values().copy();
      for (FileStatusWithMetadata f : CollectionConverters.asJava(dir.files())) {
        files.add(new DataFile(f.getPath().toString(), f.getLen(), values));
      }
    }
    files.sort(Comparator.comparing(DataFile::path));
    return new FileListing(relation.schema(), relation.dataSchema(), relation.partitionSchema(), files);
  }

  Configuration hadoopConf() {
    return hadoopConf.value().value();
  }

  StructType requestedDataSchema() {
    return requestedDataSchema;
  }

  /** The scan's output: the requested data columns, then the requested partition columns. */
  StructType readSchema() {
    return readSchema;
  }

  /**
   * Whether Spark can take this scan's rows as column batches straight from its vectorized reader,
   * as it does for its own Parquet scan.
   */
  boolean supportsColumnar() {
    return columnar;
  }

  /** Whether every output field is a primitive kept in its 8-byte slot, so rows have one fixed size. */
  boolean fixedWidthRows() {
    return FixedWidthRowEncoder.forSchema(readSchema, new int[readSchema.size()]) != null;
  }

  boolean caseSensitive() {
    return caseSensitive;
  }

  /** A file's schema as Spark reads it, to check it against the table's. */
  StructType sparkSchemaOf(MessageType parquetSchema) {
    return new ParquetToSparkSchemaConverter(hadoopConf()).convert(parquetSchema);
  }

  /** The Parquet predicate Spark would push into this file for {@code filters}, if any converts. */
  Optional<FilterPredicate> parquetPredicate(FileMetaData file, Filter[] filters) {
    if (!filterPushDown || filters.length == 0) {
      return Optional.empty();
    }
    ParquetFilters converter = new ParquetFilters(file.getSchema(), pushDownDate, pushDownTimestamp,
        pushDownDecimal, pushDownStringPredicate, pushDownInFilterThreshold, caseSensitive,
        datetimeRebaseSpec(file));
    FilterPredicate all = null;
    for (Filter f : filters) {
      Option<FilterPredicate> p = converter.createFilter(f);
      if (p.isDefined()) {
        all = all == null ? p.get() : FilterApi.and(all, p.get());
      }
    }
    return Optional.ofNullable(all);
  }

  /** A decoder for one task: it reuses one output projection for all the row groups it opens. */
  Decoder decoder() {
    return new Decoder();
  }

  /** Opens row groups for one task, on one thread at a time. */
  final class Decoder {
    // Looking up generated code costs about a millisecond, so one projection serves every row group;
    // a row group's rows are consumed before the next one opens.
    private final UnsafeProjection projection = UnsafeProjection.create(readSchema);
    private final FixedWidthRowEncoder encoder =
        FixedWidthRowEncoder.forSchema(readSchema, java.util.stream.IntStream.range(0, readSchema.size()).toArray());
    // A task attempt context copies the whole Hadoop configuration: once per task, not per row group.
    private final TaskAttemptContextImpl context = new TaskAttemptContextImpl(hadoopConf(), new TaskAttemptID());

    /**
     * Opens one row group with Spark's vectorized reader; only for schemas it supports.
     *
     * @param input the file, opened once per task
     * @param footer the file's footer, reduced to the one row group to read
     */
    RowGroupBatches openBatches(DataFile file, HadoopInputFile input, ParquetMetadata footer) throws IOException {
      BlockMetaData block = footer.getBlocks().get(0);
      FileMetaData meta = footer.getFileMetaData();
      RebaseDateTime.RebaseSpec datetimeRebase = datetimeRebaseSpec(meta);
      RebaseDateTime.RebaseSpec int96Rebase = int96RebaseSpec(meta);
      // Small row groups get small column vectors.
      int capacity = (int) Math.max(1, Math.min(batchSize, block.getRowCount()));
      VectorizedParquetRecordReader reader = new VectorizedParquetRecordReader(convertTz(meta),
          datetimeRebase.mode().toString(), datetimeRebase.timeZone(),
          int96Rebase.mode().toString(), int96Rebase.timeZone(),
          offHeap && TaskContext.get() != null, capacity);
      try {
        reader.initialize(split(input, block), context, Option.apply(input), Option.apply(input.newStream()),
            Option.apply(footer));
        reader.initBatch(readPartitionSchema, partitionValues(file));
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
     * Opens one row group with Spark's vectorized reader (or its record reader where Spark would
     * fall back to it) and returns its rows in the read schema.
     */
    RowGroupRows open(DataFile file, HadoopInputFile input, ParquetMetadata footer) throws IOException {
      if (vectorized) {
        return new BatchRows(openBatches(file, input, footer), projection, encoder, readSchema.size());
      }
      FileMetaData meta = footer.getFileMetaData();
      ParquetRecordReader<InternalRow> reader = new ParquetRecordReader<>(new ParquetReadSupport(
          Option.apply(convertTz(meta)), false, datetimeRebaseSpec(meta), int96RebaseSpec(meta)));
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
      return int96Conversion && (createdBy == null || !createdBy.startsWith("parquet-mr"))
          ? DateTimeUtils.getZoneId(sessionTimeZone) : null;
    }

    private InternalRow partitionValues(DataFile file) {
      Object[] values = new Object[readPartitionOrdinals.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = file.partitionValues().get(readPartitionOrdinals[i], readPartitionSchema.fields()[i].dataType());
      }
      return new GenericInternalRow(values);
    }
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

  private RebaseDateTime.RebaseSpec datetimeRebaseSpec(FileMetaData meta) {
    return DataSourceUtils.datetimeRebaseSpec(key -> meta.getKeyValueMetaData().get(key), datetimeRebaseMode);
  }

  private RebaseDateTime.RebaseSpec int96RebaseSpec(FileMetaData meta) {
    return DataSourceUtils.int96RebaseSpec(key -> meta.getKeyValueMetaData().get(key), int96RebaseMode);
  }

  private int indexOf(StructType schema, String name) {
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      if (caseSensitive ? fields[i].name().equals(name)
          : fields[i].name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return i;
      }
    }
    return -1;
  }

  private static StructField[] concat(StructField[] a, StructField[] b) {
    StructField[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static SQLConf sqlConf(SparkSession session) {
    return classic(session).sessionState().conf();
  }

  private static org.apache.spark.sql.classic.SparkSession classic(SparkSession session) {
    return (org.apache.spark.sql.classic.SparkSession) session;
  }

  private static scala.collection.immutable.Map<String, String> scalaMap(Map<String, String> map) {
    return scala.collection.immutable.Map.from(CollectionConverters.asScala(map));
  }

  private static <T> scala.collection.immutable.Seq<T> emptySeq() {
    return CollectionConverters.asScala(new ArrayList<T>()).toSeq();
  }

  /** Rows of Spark's vectorized reader, converted one batch at a time. */
  private static final class BatchRows implements RowGroupRows {
    private final RowGroupBatches batches;
    private final UnsafeProjection projection;
    private final FixedWidthRowEncoder encoder;
    private ColumnarBatch batch;
    private int next;
    private UnsafeRow row;
    private byte[] encoded = new byte[0];

    BatchRows(RowGroupBatches batches, UnsafeProjection projection, FixedWidthRowEncoder encoder, int numFields) {
      this.batches = batches;
      this.projection = projection;
      this.encoder = encoder;
      this.row = new UnsafeRow(numFields);
    }

    @Override
    public boolean next() throws IOException {
      while (batch == null || next >= batch.numRows()) {
        batch = batches.nextBatch();
        if (batch == null) {
          return false;
        }
        next = 0;
        if (encoder != null) {
          int bytes = batch.numRows() * encoder.rowBytes();
          if (encoded.length < bytes) {
            encoded = new byte[bytes];
          }
          encoder.encode(batch, encoded);
        }
      }
      if (encoder != null) {
        row.pointTo(encoded, Platform.BYTE_ARRAY_OFFSET + next * encoder.rowBytes(), encoder.rowBytes());
      } else {
        row = projection.apply(batch.getRow(next));
      }
      next++;
      return true;
    }

    @Override
    public UnsafeRow row() {
      return row;
    }

    @Override
    public void close() throws IOException {
      batches.close();
    }
  }

  /** Rows of parquet-mr's record reader with Spark's converters, for schemas Spark cannot vectorize. */
  private static final class RecordRows implements RowGroupRows {
    private final ParquetRecordReader<InternalRow> reader;
    private final JoinedRow joined = new JoinedRow();
    private final InternalRow partitionValues;
    private final UnsafeProjection projection;
    private UnsafeRow row;

    RecordRows(ParquetRecordReader<InternalRow> reader, InternalRow partitionValues, UnsafeProjection projection) {
      this.reader = reader;
      this.partitionValues = partitionValues;
      this.projection = projection;
    }

    @Override
    public boolean next() throws IOException {
      try {
        if (!reader.nextKeyValue()) {
          return false;
        }
        row = projection.apply(joined.apply(reader.getCurrentValue(), partitionValues));
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }

    @Override
    public UnsafeRow row() {
      return row;
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }
}
