package io.corgipile.spark;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.Footer;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat$;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFilters;
import org.apache.spark.sql.execution.datasources.parquet.ParquetToSparkSchemaConverter;
import org.apache.spark.sql.execution.datasources.parquet.ParquetUtils;
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

  /**
   * The Parquet predicate Spark would push into this file for {@code filters}, if any converts;
   * {@code requested} is the scan's columns as this file names them ({@link
   * ScanSettings#requestedFileSchema(MessageType)}). Where the scan matches columns by field id, a
   * filter goes into the file only if every column it names is the table's column in this file, by
   * id or through the name mapping: a column the file holds under the same name but another id
   * (dropped and added again) reads as null, and its statistics would prune row groups whose rows
   * the filter keeps.
   */
  public static Optional<FilterPredicate> parquetPredicate(
      ScanSettings settings, FileMetaData file, StructType requested, Filter[] filters) {
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
    Set<String> trusted = columnsOfTheTable(settings, file.getSchema(), requested);
    FilterPredicate all = null;
    for (Filter f : filters) {
      if (trusted != null && !trusted.containsAll(Arrays.asList(f.references()))) {
        continue;
      }
      Option<FilterPredicate> p = converter.createFilter(f);
      if (p.isDefined()) {
        all = all == null ? p.get() : FilterApi.and(all, p.get());
      }
    }
    return Optional.ofNullable(all);
  }

  /**
   * The top-level columns a file holds as the table's ({@code forFile}: the scan's columns as it
   * names them), under the names the scan's filters give them: where the scan matches by field id,
   * a column of the same name and id, or, in a file without ids read by name, of the name the table
   * gives it; null where the scan matches by name, and every column of the table's name is the
   * table's.
   */
  private static Set<String> columnsOfTheTable(
      ScanSettings settings, MessageType file, StructType forFile) {
    StructType asked = settings.requestedFileSchema();
    if (!ParquetUtils.hasFieldIds(asked)) {
      return null;
    }
    boolean byName = settings.readsByName(file);
    Set<String> same = new HashSet<>();
    for (int i = 0; i < asked.size(); i++) {
      String name = asked.fields()[i].name();
      if (!forFile.fields()[i].name().equals(name) || !file.containsField(name)) {
        continue;
      }
      Type column = file.getType(name);
      if (byName
          || (ParquetUtils.hasFieldId(asked.fields()[i])
              && column.getId() != null
              && column.getId().intValue() == ParquetUtils.getFieldId(asked.fields()[i]))) {
        same.add(name);
      }
    }
    return same;
  }
}
