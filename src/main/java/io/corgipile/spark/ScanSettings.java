package io.corgipile.spark;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.RebaseDateTime;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.datasources.DataSourceUtils;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A scan's settings captured from the session on the driver, and its broadcast Hadoop
 * configuration.
 *
 * <p>It travels to the executors inside the reader factory.
 */
public final class ScanSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Broadcast<SerializableConfiguration> hadoopConf;
  private final StructType requestedDataSchema;
  private final StructType requestedFileSchema;
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
   * @param options the reader options (Spark's Parquet options such as {@code datetimeRebaseMode}
   *     apply)
   * @param listing the table: its partition columns, and its columns as its files name them
   * @param requiredSchema the columns the scan must return, a pruned subset of the table schema
   */
  public ScanSettings(
      SparkSession session,
      Map<String, String> options,
      FileListing listing,
      StructType requiredSchema) {
    SQLConf sql = sqlConf(session);
    StructType partitionSchema = listing.partitionSchema();
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
    this.requestedFileSchema = PhysicalColumns.of(listing).physical(requestedDataSchema);
    this.readPartitionSchema = new StructType(partitions.toArray(new StructField[0]));
    this.readPartitionOrdinals = ordinals.stream().mapToInt(Integer::intValue).toArray();
    // As Spark's own Parquet scan: data columns, then partition columns, which is how its readers
    // lay out a batch.
    this.readSchema =
        new StructType(concat(requestedDataSchema.fields(), readPartitionSchema.fields()));
    this.vectorized = ParquetUtils.isBatchReadSupportedForSchema(sql, readSchema);
    this.columnar =
        vectorized
            && sql.wholeStageEnabled()
            && !WholeStageCodegenExec.isTooManyFields(sql, readSchema);
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

    Configuration conf = hadoopConf(session, options);
    // What Spark's own ParquetScan sets: the converters read these keys.
    conf.set(ParquetInputFormat.READ_SUPPORT_CLASS, ParquetReadSupport.class.getName());
    conf.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), requestedFileSchema.json());
    conf.set(ParquetWriteSupport.SPARK_ROW_SCHEMA(), requestedFileSchema.json());
    // Columns are matched by Parquet field id where the session asks for it, as in Spark's scan,
    // and where a table's column mapping names its columns by id.
    conf.setBoolean(
        SQLConf.PARQUET_FIELD_ID_READ_ENABLED().key(),
        sql.parquetFieldIdReadEnabled() || ParquetUtils.hasFieldIds(requestedFileSchema));
    conf.setBoolean(
        SQLConf.IGNORE_MISSING_PARQUET_FIELD_ID().key(), sql.ignoreMissingParquetFieldId());
    conf.set(SQLConf.SESSION_LOCAL_TIMEZONE().key(), sql.sessionLocalTimeZone());
    conf.setBoolean(
        SQLConf.NESTED_SCHEMA_PRUNING_ENABLED().key(), sql.nestedSchemaPruningEnabled());
    conf.setBoolean(SQLConf.CASE_SENSITIVE().key(), sql.caseSensitiveAnalysis());
    conf.setBoolean(SQLConf.PARQUET_BINARY_AS_STRING().key(), sql.isParquetBinaryAsString());
    conf.setBoolean(SQLConf.PARQUET_INT96_AS_TIMESTAMP().key(), sql.isParquetINT96AsTimestamp());
    conf.setBoolean(
        SQLConf.PARQUET_INFER_TIMESTAMP_NTZ_ENABLED().key(), sql.parquetInferTimestampNTZEnabled());
    conf.setBoolean(SQLConf.LEGACY_PARQUET_NANOS_AS_LONG().key(), sql.legacyParquetNanosAsLong());
    conf.setBoolean(
        SQLConf.PARQUET_READER_RESPECT_UNKNOWN_TYPE_ANNOTATION().key(),
        sql.parquetReaderRespectUnknownTypeAnnotation());
    // Unlike Spark's scan, verify page checksums (Spark and parquet-mr write them by default)
    // unless the
    // read options or the session's Hadoop configuration say otherwise: damaged level data can make
    // Spark's vectorized decoder loop forever, a mismatching checksum fails naming file and row
    // group.
    if (conf.get(ParquetInputFormat.PAGE_VERIFY_CHECKSUM_ENABLED) == null) {
      conf.setBoolean(ParquetInputFormat.PAGE_VERIFY_CHECKSUM_ENABLED, true);
    }
    // Unlike Spark's scan, read pages with plain positioned reads unless told otherwise: a part of
    // a
    // row group (blockSize) reads one range per column, and Hadoop's local file system serves
    // vectored reads of many ranges through a thread pool: a 1M-row epoch in 2,500-row parts took
    // about 3.5 s with them, 1.5 s without (a measurement made when this was chosen, not kept).
    if (conf.get(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED) == null) {
      conf.setBoolean(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, false);
    }
    this.hadoopConf =
        JavaSparkContext.fromSparkContext(session.sparkContext())
            .broadcast(new SerializableConfiguration(conf));
  }

  public Configuration hadoopConf() {
    return hadoopConf.value().value();
  }

  public StructType requestedDataSchema() {
    return requestedDataSchema;
  }

  /**
   * {@link #requestedDataSchema} as the data files name its columns ({@link PhysicalColumns}): what
   * Spark's Parquet reader is asked for.
   */
  public StructType requestedFileSchema() {
    return requestedFileSchema;
  }

  /**
   * The columns asked of a data file of schema {@code file}: {@link #requestedFileSchema}, or,
   * where that matches columns by field id and the file has none, the same by name through the
   * table's name mapping ({@link NameMappedColumns}).
   *
   * @throws IllegalArgumentException when the file has no field ids and the table no name mapping
   */
  public StructType requestedFileSchema(MessageType file) {
    return readsByName(file)
        ? NameMappedColumns.byName(requestedFileSchema, file)
        : requestedFileSchema;
  }

  /** Whether a file of schema {@code file} is read by name: the scan asks by id, it has no ids. */
  public boolean readsByName(MessageType file) {
    return NameMappedColumns.needed(requestedFileSchema, file);
  }

  /**
   * The Hadoop configuration to read a data file of schema {@code file} with: {@link #hadoopConf()}
   * itself, or, for a file read by name ({@link #requestedFileSchema(MessageType)}), a copy asking
   * Spark's reader for its columns by name.
   */
  public Configuration hadoopConf(MessageType file) {
    Configuration conf = hadoopConf();
    if (!readsByName(file)) {
      return conf;
    }
    String byName = NameMappedColumns.byName(requestedFileSchema, file).json();
    Configuration copy = new Configuration(conf);
    copy.set(ParquetReadSupport.SPARK_ROW_REQUESTED_SCHEMA(), byName);
    copy.set(ParquetWriteSupport.SPARK_ROW_SCHEMA(), byName);
    copy.setBoolean(SQLConf.PARQUET_FIELD_ID_READ_ENABLED().key(), false);
    return copy;
  }

  /** The scan's output: the requested data columns, then the requested partition columns. */
  public StructType readSchema() {
    return readSchema;
  }

  /**
   * Whether Spark can take this scan's rows as column batches straight from its vectorized reader,
   * as it does for its own Parquet scan.
   */
  public boolean supportsColumnar() {
    return columnar;
  }

  /**
   * Whether every output field is a primitive kept in its 8-byte slot, so rows have one fixed size.
   */
  public boolean fixedWidthRows() {
    return FixedWidthRowEncoder.forSchema(readSchema, new int[readSchema.size()]) != null;
  }

  public boolean caseSensitive() {
    return caseSensitive;
  }

  StructType readPartitionSchema() {
    return readPartitionSchema;
  }

  int[] readPartitionOrdinals() {
    return readPartitionOrdinals;
  }

  /** Whether Spark's vectorized reader decodes this scan; else its record reader does. */
  public boolean vectorized() {
    return vectorized;
  }

  boolean offHeap() {
    return offHeap;
  }

  int batchSize() {
    return batchSize;
  }

  boolean int96Conversion() {
    return int96Conversion;
  }

  String sessionTimeZone() {
    return sessionTimeZone;
  }

  boolean filterPushDown() {
    return filterPushDown;
  }

  boolean pushDownDate() {
    return pushDownDate;
  }

  boolean pushDownTimestamp() {
    return pushDownTimestamp;
  }

  boolean pushDownDecimal() {
    return pushDownDecimal;
  }

  boolean pushDownStringPredicate() {
    return pushDownStringPredicate;
  }

  int pushDownInFilterThreshold() {
    return pushDownInFilterThreshold;
  }

  RebaseDateTime.RebaseSpec datetimeRebaseSpec(FileMetaData meta) {
    return DataSourceUtils.datetimeRebaseSpec(
        key -> meta.getKeyValueMetaData().get(key), datetimeRebaseMode);
  }

  RebaseDateTime.RebaseSpec int96RebaseSpec(FileMetaData meta) {
    return DataSourceUtils.int96RebaseSpec(
        key -> meta.getKeyValueMetaData().get(key), int96RebaseMode);
  }

  private int indexOf(StructType schema, String name) {
    StructField[] fields = schema.fields();
    for (int i = 0; i < fields.length; i++) {
      if (caseSensitive
          ? fields[i].name().equals(name)
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

  /**
   * The Hadoop configuration a read with {@code options} uses, as Spark's file sources make it: the
   * session's, with the options' Hadoop settings.
   */
  public static Configuration hadoopConf(SparkSession session, Map<String, String> options) {
    return classic(session).sessionState().newHadoopConfWithOptions(scalaMap(options));
  }

  /** The session's time zone, which Spark reads time values without a zone in. */
  public static String sessionTimeZone(SparkSession session) {
    return sqlConf(session).sessionLocalTimeZone();
  }

  /**
   * The session's time zone as Spark resolves it: short ids ({@code PST}) and offsets ({@code
   * +8:00}) too, which {@link ZoneId#of} refuses.
   */
  public static ZoneId sessionZoneId(SparkSession session) {
    return DateTimeUtils.getZoneId(sessionTimeZone(session));
  }

  private static SQLConf sqlConf(SparkSession session) {
    return classic(session).sessionState().conf();
  }

  static org.apache.spark.sql.classic.SparkSession classic(SparkSession session) {
    return (org.apache.spark.sql.classic.SparkSession) session;
  }

  private static scala.collection.immutable.Map<String, String> scalaMap(Map<String, String> map) {
    return scala.collection.immutable.Map.from(CollectionConverters.asScala(map));
  }
}
