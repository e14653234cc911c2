package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.rand;

import io.corgipile.source.ReadOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One way of reading the table: plain Parquet, format("corgipile") with its options, or (epoch mode
 * only) a full shuffle every epoch or a shuffled copy.
 */
final class ScanVariant {
  enum Kind {
    PARQUET,
    CORGIPILE,
    /** {@code orderBy(rand(seed + epoch))} of the plain scan: the sort is paid in every epoch. */
    FULL_SHUFFLE,
    /**
     * A copy written once in {@code orderBy(rand(seed))} order, then read in its order every epoch.
     */
    SHUFFLED_COPY
  }

  final String name;
  final Kind kind;
  final boolean corgipile;
  final Map<String, String> options;

  ScanVariant(String name, boolean corgipile, Map<String, String> options) {
    this(name, corgipile ? Kind.CORGIPILE : Kind.PARQUET, options);
  }

  ScanVariant(String name, Kind kind, Map<String, String> options) {
    this.name = name;
    this.kind = kind;
    this.corgipile = kind == Kind.CORGIPILE;
    this.options = options;
  }

  /** The DataFrame of one epoch (from 0); a shuffled copy's path is passed as {@code path}. */
  Dataset<Row> load(SparkSession spark, String path, List<String> columns, long seed, int epoch) {
    if (kind == Kind.FULL_SHUFFLE) {
      return load(spark, path, columns).orderBy(rand(seed + epoch));
    }
    return load(spark, path, columns);
  }

  Dataset<Row> load(SparkSession spark, String path, List<String> columns) {
    Dataset<Row> df;
    if (corgipile) {
      DataFrameReader r = spark.read().format("corgipile");
      options.forEach(r::option);
      df = r.load(path);
    } else {
      df = spark.read().parquet(path);
    }
    return df.select(columns.stream().map(c -> col(c)).toArray(Column[]::new));
  }

  /** How the variant reads, with the defaults it relies on, for the results table. */
  String describe() {
    switch (kind) {
      case PARQUET:
        return "spark.read().parquet(path)";
      case FULL_SHUFFLE:
        return "spark.read().parquet(path).orderBy(rand(seed + epoch)), every epoch";
      case SHUFFLED_COPY:
        return "spark.read().parquet(path).orderBy(rand(seed)) written once as Parquet, then "
            + "spark.read().parquet(copy) every epoch";
      default:
        break;
    }
    String opts =
        options.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", "));
    boolean prefetchSet = options.containsKey(ReadOptions.PREFETCH);
    boolean bufferSet = options.containsKey(ReadOptions.BUFFER_SIZE);
    return "format(\"corgipile\") "
        + opts
        + (prefetchSet ? "" : ", prefetch=" + ReadOptions.PREFETCH_DEFAULT + " (default)")
        + (bufferSet ? "" : ", bufferSize=" + ReadOptions.BUFFER_SIZE_DEFAULT + " (default)");
  }

  /** The name of {@code --buffers}' variant at buffer size {@code size}. */
  static String bufferVariant(String size) {
    return "corgipile-" + size;
  }

  /**
   * The variants {@code --variants} names, else the mode's defaults: in the repetition mode every
   * reading of the table (or, with {@code --buffers}, shuffle=none and corgipile at each size),
   * plain Parquet always among them since ratios are against it; with {@code --epochs}, none,
   * block, window, corgipile, a full shuffle every epoch and a shuffled copy (with {@code
   * --buffers}: none and the sizes).
   */
  static List<ScanVariant> chosen(ScanArgs args) {
    List<ScanVariant> all = all(args);
    List<String> names = args.variants;
    if (names == null) {
      List<String> defaults = new ArrayList<>();
      names = defaults;
      if (!args.buffers.isEmpty()) {
        names.add("none");
        args.buffers.forEach(b -> defaults.add(bufferVariant(b)));
      } else if (args.epochs > 0) {
        names.addAll(
            List.of("none", "block", "window", "corgipile", "full-shuffle", "shuffled-copy"));
      } else {
        all.stream().map(v -> v.name).forEach(names::add);
      }
    }
    List<ScanVariant> chosen = new ArrayList<>();
    for (String name : names) {
      ScanVariant v =
          all.stream()
              .filter(x -> x.name.equals(name))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "Cannot use --variants "
                              + name
                              + ": unknown; known: "
                              + all.stream().map(x -> x.name).collect(Collectors.joining(","))));
      if (!chosen.contains(v)) {
        chosen.add(v);
      }
    }
    if (args.epochs == 0 && chosen.stream().noneMatch(v -> v.kind == Kind.PARQUET)) {
      chosen.add(0, all.get(0)); // ratios are against the plain scan: always measure it
    }
    return chosen;
  }

  static List<ScanVariant> all(ScanArgs args) {
    List<ScanVariant> all = new ArrayList<>();
    all.add(new ScanVariant("parquet", false, Map.of()));
    all.add(corgi("none", args, "shuffle", "none"));
    all.add(corgi("block", args, "shuffle", "block"));
    all.add(corgi("window", args, "shuffle", "window"));
    all.add(corgi("corgipile", args, "shuffle", "corgipile", "prefetch", "true"));
    all.add(corgi("corgipile-noprefetch", args, "shuffle", "corgipile", "prefetch", "false"));
    if (args.epochs > 0) {
      all.add(new ScanVariant("full-shuffle", Kind.FULL_SHUFFLE, Map.of()));
      all.add(new ScanVariant("shuffled-copy", Kind.SHUFFLED_COPY, Map.of()));
    }
    for (String b : args.buffers) {
      ScanVariant v = corgi(bufferVariant(b), args, "shuffle", "corgipile", "prefetch", "true");
      v.options.put(
          ReadOptions.BUFFER_SIZE, b); // the size the variant is named after, over --option
      all.add(v);
    }
    return all;
  }

  private static ScanVariant corgi(String name, ScanArgs args, String... kv) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      o.put(kv[i], kv[i + 1]);
    }
    o.putAll(args.corgiOptions);
    return new ScanVariant(name, true, o);
  }
}
