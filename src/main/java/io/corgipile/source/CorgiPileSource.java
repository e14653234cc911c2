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
import org.apache.spark.SparkThrowable;
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
 * Parquet files as {@code spark.read().parquet(paths)} would, or a Delta table's snapshot as {@code
 * format("delta")} would ({@link TableReads}), in CorgiPile's shuffled order.
 *
 * <p>Spark creates one instance per {@code load()}, so the listing made to infer the schema is kept
 * and reused by {@link #getTable}.
 */
public final class CorgiPileSource implements TableProvider, DataSourceRegister {
  public static final String SHORT_NAME = "corgipile";

  /**
   * The options {@code load(path)} and {@code load(path, ...)} set, as Spark's reader names them.
   */
  static final String PATH = "path";

  static final String PATHS = "paths";

  /** This source's own options and the paths, lower-cased: Spark's option maps ignore case. */
  private static final Set<String> OWN_OPTIONS =
      Stream.concat(ReadOptions.ALL.stream(), Stream.of(PATH, PATHS))
          .map(o -> o.toLowerCase(Locale.ROOT))
          .collect(Collectors.toUnmodifiableSet());

  /** Spark's error conditions that listing can end in. */
  private static final String PATH_NOT_FOUND = "PATH_NOT_FOUND";

  private static final String UNABLE_TO_INFER_SCHEMA = "UNABLE_TO_INFER_SCHEMA";
  private static final String FAILED_READ_FILE = "FAILED_READ_FILE";

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
  public Table getTable(
      StructType schema, Transform[] partitioning, Map<String, String> properties) {
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
    UnknownOptions.check(
        UnknownOptions.readerOptions(options.asCaseSensitiveMap()), sessionConf.keySet());
    ReadConf.from(options, sessionConf);
    List<String> paths = paths(options);
    FileListing listing =
        TableReads.listing(session, paths, options.asCaseSensitiveMap(), userSchema);
    // a table's snapshot may have no live file (created, or emptied), and reads as no rows
    if (listing == null) {
      listing = parquetListing(session, paths, options, userSchema);
      if (listing.files().isEmpty()) {
        throw CorgiPileAnalysisException.raise(noFiles(paths));
      }
    }
    table =
        new CorgiPileTable(
            session,
            "corgipile " + String.join(", ", paths),
            listing,
            options.asCaseSensitiveMap());
    return table;
  }

  /** The Parquet files of {@code paths} as {@code spark.read().parquet(paths)} lists them. */
  private static FileListing parquetListing(
      SparkSession session,
      List<String> paths,
      CaseInsensitiveStringMap options,
      StructType userSchema) {
    try {
      return FileLister.listFiles(session, paths, fileOptions(options), userSchema);
    } catch (
        Exception
            e) { // Scala throws AnalysisException and SparkException, checked to javac, undeclared
      if (!(e instanceof AnalysisException spark)) {
        throw CorgiPileAnalysisException.raise(cannotList(e, paths), e);
      }
      switch (String.valueOf(spark.getCondition())) {
        case PATH_NOT_FOUND -> throw e; // as format("parquet") reports it, naming the path
        case UNABLE_TO_INFER_SCHEMA ->
            throw CorgiPileAnalysisException.raise(noFiles(paths), spark);
        default ->
            throw CorgiPileAnalysisException.raise(
                "Cannot load corgipile table from " + paths + ": " + firstLine(spark), spark);
      }
    }
  }

  /**
   * The options that are Spark's own Parquet and file-source options, passed on to Spark's reader.
   */
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
    if (options.containsKey(PATHS)) {
      try {
        paths.addAll(
            Arrays.asList(new ObjectMapper().readValue(options.get(PATHS), String[].class)));
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            "Cannot load corgipile table: option paths is not a JSON array of "
                + "strings: "
                + options.get(PATHS),
            e);
      }
    }
    if (options.containsKey(PATH)) {
      paths.add(options.get(PATH));
    }
    if (paths.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot load corgipile table: no path given; use load(path, ...) or option path");
    }
    return paths;
  }

  /**
   * Why listing failed, in a line: Spark's schema inference reads footers in a job, whose failure
   * wraps the task's error and its stack trace in its message; the file and the root cause are what
   * matter.
   */
  private static String cannotList(Exception e, List<String> paths) {
    Throwable root = e;
    String file = null;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (file == null
          && t instanceof SparkThrowable st
          && st.getCondition() != null
          && st.getCondition().startsWith(FAILED_READ_FILE)) {
        file = st.getMessageParameters().get("path");
      }
      root = t;
    }
    return file != null
        ? "Cannot load corgipile table: cannot read " + file + ": " + firstLine(root)
        : "Cannot load corgipile table from " + paths + ": " + firstLine(root);
  }

  private static String firstLine(Throwable e) {
    return BlockPlanner.message(e).lines().findFirst().orElse("");
  }

  private static String noFiles(List<String> paths) {
    return "Cannot load corgipile table: no Parquet files found in "
        + paths
        + " (files and directories whose names start with '_' or '.' are skipped)";
  }
}
