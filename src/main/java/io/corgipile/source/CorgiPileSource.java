package io.corgipile.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.spark.FileLister;
import io.corgipile.spark.FileListing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@code corgipile} data source: {@code spark.read().format("corgipile").load(paths)} reads
 * Parquet files as {@code spark.read().parquet(paths)} would, in CorgiPile's shuffled order.
 *
 * <p>Spark creates one instance per {@code load()}, so the listing made to infer the schema is
 * kept and reused by {@link #getTable}.
 */
public final class CorgiPileSource implements TableProvider, DataSourceRegister {
  public static final String SHORT_NAME = "corgipile";

  /** This source's own options and the paths, lower-cased: Spark's option maps ignore case. */
  private static final Set<String> OWN_OPTIONS = Stream.concat(ReadOptions.ALL.stream(), Stream.of("path", "paths"))
      .map(o -> o.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());

  private CorgiPileTable table;

  public CorgiPileSource() {}

  @Override
  public String shortName() {
    return SHORT_NAME;
  }

  @Override
  public StructType inferSchema(CaseInsensitiveStringMap options) {
    return load(options, null).schema();
  }

  @Override
  public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
    if (table != null && table.schema().equals(schema)) {
      return table;
    }
    return load(new CaseInsensitiveStringMap(properties), schema);
  }

  @Override
  public boolean supportsExternalMetadata() {
    return true;
  }

  private CorgiPileTable load(CaseInsensitiveStringMap options, StructType userSchema) {
    SparkSession session = SparkSession.active();
    Map<String, String> sessionConf = CollectionConverters.asJava(session.conf().getAll());
    // Fail at load(), not at the first action, on an unknown option or a bad value.
    UnknownOptions.check(UnknownOptions.readerOptions(options.asCaseSensitiveMap()), sessionConf.keySet());
    ReadConf.from(options, sessionConf);
    List<String> paths = paths(options);
    FileListing listing;
    try {
      listing = FileLister.listFiles(session, paths, fileOptions(options), userSchema);
    } catch (Exception e) {
      // Scala throws AnalysisException and SparkException, checked to javac, without declaring them.
      if (e instanceof AnalysisException) {
        throw translate((AnalysisException) e, paths);
      }
      throw new CorgiPileReadException("Cannot load corgipile table from " + paths + ": "
          + BlockPlanner.message(e), e);
    }
    if (listing.files().isEmpty()) {
      throw noFiles(paths);
    }
    table = new CorgiPileTable(session, "corgipile " + String.join(", ", paths), listing,
        options.asCaseSensitiveMap());
    return table;
  }

  /** The options that are Spark's own Parquet and file-source options, passed on to Spark's reader. */
  static Map<String, String> fileOptions(Map<String, String> options) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (!OWN_OPTIONS.contains(e.getKey().toLowerCase(Locale.ROOT))) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  private static List<String> paths(CaseInsensitiveStringMap options) {
    List<String> paths = new ArrayList<>();
    if (options.containsKey("paths")) {
      try {
        paths.addAll(Arrays.asList(new ObjectMapper().readValue(options.get("paths"), String[].class)));
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("Cannot load corgipile table: option paths is not a JSON array of "
            + "strings: " + options.get("paths"), e);
      }
    }
    if (options.containsKey("path")) {
      paths.add(options.get("path"));
    }
    if (paths.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot load corgipile table: no path given; use load(path, ...) or option path");
    }
    return paths;
  }

  private static RuntimeException translate(AnalysisException e, List<String> paths) {
    String condition = e.getCondition() == null ? "" : e.getCondition();
    if (condition.equals("PATH_NOT_FOUND")) {
      String path = e.getMessageParameters().getOrDefault("path", paths.toString());
      return new CorgiPileReadException("Cannot load corgipile table: path does not exist: " + path, e);
    }
    if (condition.equals("UNABLE_TO_INFER_SCHEMA")) {
      return noFiles(paths);
    }
    return new CorgiPileReadException("Cannot load corgipile table from " + paths + ": " + e.getMessage(), e);
  }

  private static CorgiPileReadException noFiles(List<String> paths) {
    return new CorgiPileReadException("Cannot load corgipile table: no Parquet files found in " + paths
        + " (files and directories whose names start with '_' or '.' are skipped)");
  }
}
