package io.corgipile.source;

import io.corgipile.spark.SparkFileOptions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.spark.sql.connector.catalog.TableCatalog;

/**
 * Refuses an option the {@code corgipile} source does not know, naming the closest one it does:
 * Spark's readers ignore options they do not know, so a misspelled {@code bufferSzie} would leave
 * the default in force without a word. Known are the source's own options ({@link
 * ReadOptions#ALL}), the paths, Spark's own Parquet and file options (passed on to Spark's reader),
 * and Hadoop and Parquet settings (names with a dot, which Spark copies into the reader's Hadoop
 * configuration); in the session configuration, {@code spark.datasource.corgipile.<option>} for the
 * source's own options, spelled exactly (a configuration key's case counts).
 */
final class UnknownOptions {
  /** The most edits a misspelling is taken to be away from the name meant. */
  private static final int MAX_EDITS = 2;

  private static final LevenshteinDistance DISTANCE = new LevenshteinDistance(MAX_EDITS);
  private static final List<String> PATH_OPTIONS =
      List.of(CorgiPileSource.PATH, CorgiPileSource.PATHS);

  private UnknownOptions() {}

  /**
   * The names of the reader options among what Spark passes the source: options as given, or a
   * catalog table's properties ({@code CREATE TABLE ... USING corgipile}), which hold the table's
   * provider, owner, location, comment and {@code TBLPROPERTIES} beside its {@code OPTIONS}, these
   * prefixed with {@code option.} (Spark's {@link TableCatalog#OPTION_PREFIX}).
   */
  static Collection<String> readerOptions(Map<String, String> passed) {
    if (!passed.containsKey(TableCatalog.PROP_PROVIDER)) {
      return passed.keySet();
    }
    return passed.keySet().stream()
        .filter(k -> k.startsWith(TableCatalog.OPTION_PREFIX))
        .map(k -> k.substring(TableCatalog.OPTION_PREFIX.length()))
        .toList();
  }

  /**
   * @param options the reader's option names, as the user spelled them
   * @param sessionKeys the session configuration's keys
   * @throws IllegalArgumentException naming the first unknown option and the closest known one
   */
  static void check(Collection<String> options, Collection<String> sessionKeys) {
    for (String name : options) {
      if (!known(name)) {
        throw new IllegalArgumentException(
            "Cannot load corgipile table: unknown option '"
                + name
                + "'"
                + suggestion(
                    name,
                    Stream.of(ReadOptions.ALL, PATH_OPTIONS, SparkFileOptions.NAMES)
                        .flatMap(List::stream)
                        .toList(),
                    "")
                + "; the source's options are "
                + String.join(", ", ReadOptions.ALL)
                + ", and Spark's own Parquet options (such as mergeSchema) and Hadoop settings"
                + " (names with a dot) pass on to Spark's reader");
      }
    }
    for (String key : sessionKeys) {
      String option =
          key.startsWith(ReadOptions.SESSION_CONF_PREFIX)
              ? key.substring(ReadOptions.SESSION_CONF_PREFIX.length())
              : null;
      if (option != null && ReadOptions.TIME_TRAVEL.contains(option)) {
        throw new IllegalArgumentException(
            "Cannot load corgipile table: the session configuration has "
                + key
                + ", but time travel names a snapshot of one table, so it is an option of a read"
                + " (.option(\""
                + option
                + "\", ...)), not a session setting for every read");
      }
      if (option != null && !ReadOptions.ALL.contains(option)) {
        throw new IllegalArgumentException(
            "Cannot load corgipile table: the session configuration has "
                + key
                + ", which is no option"
                + suggestion(option, ReadOptions.ALL, ReadOptions.SESSION_CONF_PREFIX)
                + "; the source's options are "
                + String.join(", ", ReadOptions.ALL));
      }
    }
  }

  private static boolean known(String name) {
    return name.contains(".")
        || SparkFileOptions.contains(name)
        || Stream.concat(ReadOptions.ALL.stream(), PATH_OPTIONS.stream())
            .anyMatch(name::equalsIgnoreCase);
  }

  /** " (did you mean 'x'?)" for the closest of {@code known}, or nothing where none is close. */
  private static String suggestion(String name, List<String> known, String prefix) {
    String lower = name.toLowerCase(Locale.ROOT);
    List<Candidate> close = new ArrayList<>();
    for (String k : known) {
      String kl = k.toLowerCase(Locale.ROOT);
      int edits = DISTANCE.apply(lower, kl);
      if (edits >= 0) {
        close.add(new Candidate(k, edits));
      } else if (lower.length() >= 4 && kl.startsWith(lower)) { // "buffer" for bufferSize
        close.add(new Candidate(k, MAX_EDITS + 1));
      }
    }
    Optional<Candidate> best =
        close.stream().min(Comparator.comparingInt(Candidate::edits)); // first of equals
    return best.map(c -> " (did you mean '" + prefix + c.name() + "'?)").orElse("");
  }

  private record Candidate(String name, int edits) {}
}
