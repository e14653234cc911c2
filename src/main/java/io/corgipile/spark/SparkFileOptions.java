package io.corgipile.spark;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.catalyst.FileSourceOptions$;
import org.apache.spark.sql.execution.datasources.FileIndexOptions$;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions$;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The reader options of Spark's own Parquet source and file listing ({@code mergeSchema}, {@code
 * datetimeRebaseMode}, {@code basePath}, {@code recursiveFileLookup}, ...), from Spark's registries
 * of them, so the {@code corgipile} source can tell them from a misspelled option of its own.
 */
public final class SparkFileOptions {
  /** As Spark's registries spell them (some lower-cased), sorted. */
  public static final List<String> NAMES = names();

  private static final Set<String> LOWER_CASE =
      NAMES.stream().map(n -> n.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());

  private SparkFileOptions() {}

  /** Whether {@code name} is one of them; Spark's option names ignore case. */
  public static boolean contains(String name) {
    return LOWER_CASE.contains(name.toLowerCase(Locale.ROOT));
  }

  private static List<String> names() {
    Set<String> names = new TreeSet<>();
    names.addAll(CollectionConverters.asJava(ParquetOptions$.MODULE$.getAllOptions()));
    names.addAll(CollectionConverters.asJava(FileIndexOptions$.MODULE$.getAllOptions()));
    names.add(FileSourceOptions$.MODULE$.IGNORE_CORRUPT_FILES());
    names.add(FileSourceOptions$.MODULE$.IGNORE_MISSING_FILES());
    return List.copyOf(names);
  }
}
