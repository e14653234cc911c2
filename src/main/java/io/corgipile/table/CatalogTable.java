package io.corgipile.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A table named through a catalog of the session ({@code lake.db.events}), with what builds the
 * catalog: its Spark settings.
 *
 * @param catalog the catalog's name, the first part of the name as written
 * @param properties the catalog's settings ({@code spark.sql.catalog.<catalog>.<key>}), by key
 * @param namespace the table's namespace, the parts between the catalog and the table
 * @param name the table's own name, the last part
 */
public record CatalogTable(
    String catalog, Map<String, String> properties, List<String> namespace, String name) {
  public CatalogTable {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(name, "name");
    properties = Map.copyOf(properties);
    namespace = List.copyOf(namespace);
  }

  /** The name as Spark's SQL writes it: {@code lake.db.events}, a part quoted where it must be. */
  @Override
  public String toString() {
    return Stream.concat(Stream.of(catalog), Stream.concat(namespace.stream(), Stream.of(name)))
        .map(CatalogTable::quoted)
        .collect(Collectors.joining("."));
  }

  private static String quoted(String part) {
    return part.matches("[A-Za-z_][A-Za-z0-9_]*") ? part : "`" + part.replace("`", "``") + "`";
  }
}
