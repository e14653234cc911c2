package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;

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

/** One way of reading the table: plain Parquet or format("corgipile") with its options. */
final class ScanVariant {
  final String name;
  final boolean corgipile;
  final Map<String, String> options;

  ScanVariant(String name, boolean corgipile, Map<String, String> options) {
    this.name = name;
    this.corgipile = corgipile;
    this.options = options;
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
    if (!corgipile) {
      return "spark.read().parquet(path)";
    }
    String opts = options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
    boolean prefetchSet = options.containsKey(ReadOptions.PREFETCH);
    boolean bufferSet = options.containsKey(ReadOptions.BUFFER_SIZE);
    return "format(\"corgipile\") " + opts
        + (prefetchSet ? "" : ", prefetch=" + ReadOptions.PREFETCH_DEFAULT + " (default)")
        + (bufferSet ? "" : ", bufferSize=" + ReadOptions.BUFFER_SIZE_DEFAULT + " (default)");
  }

  /** The variants {@code --variants} names (all by default), plain Parquet always among them. */
  static List<ScanVariant> chosen(ScanArgs args) {
    List<ScanVariant> all = new ArrayList<>();
    all.add(new ScanVariant("parquet", false, Map.of()));
    all.add(corgi("none", args, "shuffle", "none"));
    all.add(corgi("block", args, "shuffle", "block"));
    all.add(corgi("window", args, "shuffle", "window"));
    all.add(corgi("corgipile", args, "shuffle", "corgipile", "prefetch", "true"));
    all.add(corgi("corgipile-noprefetch", args, "shuffle", "corgipile", "prefetch", "false"));
    if (args.variants == null) {
      return all;
    }
    List<ScanVariant> chosen = new ArrayList<>();
    for (String name : args.variants) {
      ScanVariant v = all.stream().filter(x -> x.name.equals(name)).findFirst().orElseThrow(() ->
          new IllegalArgumentException("unknown variant " + name + "; known: "
              + all.stream().map(x -> x.name).collect(Collectors.joining(","))));
      chosen.add(v);
    }
    if (chosen.stream().noneMatch(v -> !v.corgipile)) {
      chosen.add(0, all.get(0)); // ratios are against the plain scan: always measure it
    }
    return chosen;
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
