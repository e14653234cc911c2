package io.corgipile.source;

import io.corgipile.spark.FileListing;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Parquet files read through the CorgiPile shuffle, with the options they were loaded with: a
 * scan's own options win over them. Spark passes a DataFrame's reader options to both, but a
 * catalog table's ({@code CREATE TABLE ... USING corgipile OPTIONS (...)}) only to the load.
 */
final class CorgiPileTable implements SupportsRead {
  private final SparkSession session;
  private final String name;
  private final FileListing listing;
  private final Map<String, String> options;
  private final ScanWarnings warnings;

  CorgiPileTable(
      SparkSession session, String name, FileListing listing, Map<String, String> options) {
    this.session = session;
    this.name = name;
    this.listing = listing;
    this.options = Map.copyOf(options);
    this.warnings = new ScanWarnings(name);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return listing.schema();
  }

  @Override
  public Column[] columns() {
    StructField[] fields = listing.schema().fields();
    Column[] columns = new Column[fields.length];
    for (int i = 0; i < fields.length; i++) {
      StructField f = fields[i];
      columns[i] =
          Column.create(
              f.name(), f.dataType(), f.nullable(), f.getComment().getOrElse(() -> null), null);
    }
    return columns;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    Map<String, String> merged =
        new TreeMap<>(String.CASE_INSENSITIVE_ORDER); // the scan's wins, in any case
    merged.putAll(options);
    merged.putAll(scanOptions.asCaseSensitiveMap());
    CaseInsensitiveStringMap all = new CaseInsensitiveStringMap(merged);
    ReadConf conf = ReadConf.from(all, CollectionConverters.asJava(session.conf().getAll()));
    return new CorgiPileScanBuilder(
        session, listing, listing.schema(), CorgiPileSource.fileOptions(all), conf, warnings);
  }
}
