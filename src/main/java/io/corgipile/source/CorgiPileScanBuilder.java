package io.corgipile.source;

import io.corgipile.spark.FileListing;
import io.corgipile.spark.ScanSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Collects the columns and filters Spark pushes. Filters on data columns are used to skip row
 * groups by their statistics; Spark still evaluates every filter on the rows, so results are the
 * same as without pushdown.
 */
final class CorgiPileScanBuilder
    implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
  private final SparkSession session;
  private final FileListing listing;
  private final Map<String, String> options;
  private final ReadConf conf;
  private final ScanWarnings warnings;
  private StructType requiredSchema;
  private Filter[] pushed = new Filter[0];

  CorgiPileScanBuilder(
      SparkSession session,
      FileListing listing,
      StructType schema,
      Map<String, String> options,
      ReadConf conf,
      ScanWarnings warnings) {
    this.session = session;
    this.listing = listing;
    this.requiredSchema = schema;
    this.options = options;
    this.conf = conf;
    this.warnings = warnings;
  }

  @Override
  public void pruneColumns(StructType required) {
    this.requiredSchema = required;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    Set<String> partitionColumns =
        Arrays.stream(listing.partitionSchema().fieldNames())
            .map(n -> n.toLowerCase(Locale.ROOT))
            .collect(Collectors.toSet());
    List<Filter> onData = new ArrayList<>();
    for (Filter f : filters) {
      if (Arrays.stream(f.references())
          .noneMatch(c -> partitionColumns.contains(c.toLowerCase(Locale.ROOT)))) {
        onData.add(f);
      }
    }
    pushed = onData.toArray(new Filter[0]);
    return filters;
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed;
  }

  @Override
  public Scan build() {
    return build(TaskMemory.of(session.sparkContext()));
  }

  /** The scan, its buffers held to {@code memory}. */
  CorgiPileScan build(TaskMemory memory) {
    ScanSettings settings = new ScanSettings(session, options, listing, requiredSchema);
    return new CorgiPileScan(
        session, listing, settings.readSchema(), pushed, conf, settings, memory, warnings);
  }
}
