package io.corgipile.spark;

import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.Footer;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat$;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFilters;
import org.apache.spark.sql.execution.datasources.parquet.ParquetToSparkSchemaConverter;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/** Converts a Parquet file's schema and a scan's filters as Spark's own Parquet scan does. */
public final class ParquetConversion {
  private ParquetConversion() {}

  /** A file's schema as Spark reads it, to check it against the table's. */
  public static StructType sparkSchemaOf(ScanSettings settings, MessageType parquetSchema) {
    return new ParquetToSparkSchemaConverter(settings.hadoopConf()).convert(parquetSchema);
  }

  /**
   * A file's schema as Spark's schema inference reads it, without a session: Spark's own row
   * metadata where the writer left it (so vector columns keep their type), else the Parquet schema
   * converted with Spark's default settings.
   */
  public static StructType sparkSchemaOf(Path file, ParquetMetadata footer) {
    return ParquetFileFormat$.MODULE$.readSchemaFromFooter(
        new Footer(file, footer), new ParquetToSparkSchemaConverter(SQLConf.get()));
  }

  /** The Parquet predicate Spark would push into this file for {@code filters}, if any converts. */
  public static Optional<FilterPredicate> parquetPredicate(
      ScanSettings settings, FileMetaData file, Filter[] filters) {
    if (!settings.filterPushDown() || filters.length == 0) {
      return Optional.empty();
    }
    ParquetFilters converter =
        new ParquetFilters(
            file.getSchema(),
            settings.pushDownDate(),
            settings.pushDownTimestamp(),
            settings.pushDownDecimal(),
            settings.pushDownStringPredicate(),
            settings.pushDownInFilterThreshold(),
            settings.caseSensitive(),
            settings.datetimeRebaseSpec(file));
    FilterPredicate all = null;
    for (Filter f : filters) {
      Option<FilterPredicate> p = converter.createFilter(f);
      if (p.isDefined()) {
        all = all == null ? p.get() : FilterApi.and(all, p.get());
      }
    }
    return Optional.ofNullable(all);
  }
}
