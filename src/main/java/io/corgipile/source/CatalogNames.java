package io.corgipile.source;

import io.corgipile.spark.SqlIdentifiers;
import io.corgipile.table.CatalogTable;
import io.corgipile.table.TablePlanners;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A load path that is the name of a table in one of the session's Iceberg catalogs: {@code
 * lake.db.events}, where {@code spark.sql.catalog.lake} is Iceberg's Spark catalog. As Iceberg's
 * own source, a path with a {@code /} is a path; a name must begin with its catalog's name (the
 * session catalog's is {@code spark_catalog}), so a relative path such as {@code events.parquet}
 * stays a path unless {@code events} is a catalog.
 */
final class CatalogNames {
  /** Where Spark's settings name a catalog's class, and its settings below it. */
  static final String CATALOG_PREFIX = "spark.sql.catalog.";

  private CatalogNames() {}

  /**
   * The catalog's table {@code path} names, or null when it names none (a path).
   *
   * @throws IllegalArgumentException when its catalog is not one of Iceberg's
   */
  static CatalogTable resolve(SparkSession session, String path) {
    if (path.contains("/") || path.contains(":")) {
      return null;
    }
    Optional<List<String>> parsed = SqlIdentifiers.parts(session, path);
    if (parsed.isEmpty() || parsed.get().size() < 2) {
      return null;
    }
    List<String> parts = parsed.get();
    String catalog = parts.get(0);
    Map<String, String> conf = CollectionConverters.asJava(session.conf().getAll());
    String catalogClass = conf.get(CATALOG_PREFIX + catalog);
    if (catalogClass == null) {
      return null;
    }
    if (!TablePlanners.ICEBERG_SPARK_CATALOGS.contains(catalogClass)) {
      throw new IllegalArgumentException(
          "Cannot load corgipile table "
              + path
              + ": its catalog "
              + catalog
              + " is "
              + catalogClass
              + ", and tables are read by name from Iceberg's catalogs only ("
              + String.join(", ", TablePlanners.ICEBERG_SPARK_CATALOGS)
              + "); load the table by its path");
    }
    String prefix = CATALOG_PREFIX + catalog + ".";
    Map<String, String> properties = new HashMap<>();
    conf.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            properties.put(key.substring(prefix.length()), value);
          }
        });
    return new CatalogTable(
        catalog, properties, parts.subList(1, parts.size() - 1), parts.get(parts.size() - 1));
  }
}
