package io.corgipile.bench;

import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import io.corgipile.shuffle.BufferSize;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The arguments of {@link ScanBenchmark}; {@code scripts/bench-scan --help} explains them. */
final class ScanArgs {
  static final CommandLine COMMAND_LINE =
      new CommandLine(
          "run bench-scan",
          List.of(
              new Option("rows", "N", "rows of the table"),
              new Option("data", "DIR", "root of the generated tables"),
              Option.flag("regenerate", "generate the table again even if it is complete"),
              Option.flag("generate-only", "make sure the table exists, then stop"),
              Option.flag("cold", "drop the page cache before every run"),
              new Option("seed", "S", "seed of the generated data"),
              new Option("reps", "R", "timed repetitions"),
              new Option("row-group-rows", "N", "rows per row group of the generated table"),
              new Option(
                  "epochs", "N", "epoch mode: every variant reads the table N times in a row"),
              new Option(
                  "buffers",
                  "LIST",
                  "corgipile variants at these buffer sizes, next to shuffle=none"),
              new Option(
                  "memory-limit",
                  "SIZE",
                  "run the JVM in a memory cgroup of this size (set up by the script)"),
              new Option(
                  "read-limit",
                  "RATE",
                  "with --memory-limit, cap the JVM's reads at RATE bytes/s per disk"),
              new Option("master", "URL", "Spark master"),
              new Option("variants", "LIST", "comma list of variants"),
              new Option("option", "K=V", "extra option for every corgipile variant", true),
              new Option("local-dir", "DIR", "spark.local.dir, for shuffle and spill files"),
              new Option("out", "DIR", "results directory")),
          0);

  /** Variants that exist only as epochs: a sort every epoch, and a shuffled copy written once. */
  static final List<String> EPOCH_ONLY_VARIANTS = List.of("full-shuffle", "shuffled-copy");

  long rows = 10_000_000L;
  Path dataRoot = Path.of("target", "bench-data");
  Path out = Path.of("target", "bench-scan");
  Path localDir = Path.of("target", "spark-local");
  int reps = 3;

  /**
   * Parquet's row count limit per row group, or 0 to leave row groups to the 4 MiB block size
   * alone.
   */
  long rowGroupRows;

  /** 0: the repetition mode; else the epochs each variant reads in a row. */
  int epochs;

  String master = "local[2]";
  long seed = 42L;
  boolean regenerate;
  boolean generateOnly;
  boolean cold;
  List<String> variants;

  /** Buffer sizes of the {@code corgipile-<size>} variants {@code --buffers} asks for, in order. */
  List<String> buffers = new ArrayList<>();

  /** As given, or null: the script started this JVM in a cgroup of that size. */
  String memoryLimit;

  /**
   * As given, or null: the script capped this JVM's storage reads at that rate ({@link ReadLimit}).
   */
  String readLimit;

  Map<String, String> corgiOptions = new LinkedHashMap<>();

  static ScanArgs parse(String[] argv) {
    Arguments args = COMMAND_LINE.parse(argv);
    ScanArgs a = new ScanArgs();
    a.rows = args.count("rows", a.rows, 1);
    a.dataRoot = args.path("data", a.dataRoot);
    a.out = args.path("out", a.out);
    a.localDir = args.path("local-dir", a.localDir);
    a.reps = args.atLeast("reps", a.reps, 1);
    a.rowGroupRows = args.count("row-group-rows", a.rowGroupRows, 1);
    a.epochs = args.atLeast("epochs", 0, 1);
    a.master = args.string("master", a.master);
    a.seed = args.integer("seed", a.seed, Long.MIN_VALUE, Long.MAX_VALUE);
    a.regenerate = args.flag("regenerate");
    a.generateOnly = args.flag("generate-only");
    a.cold = args.flag("cold");
    a.variants = args.optional("variants").map(ScanArgs::list).orElse(null);
    for (String b : args.optional("buffers").map(ScanArgs::list).orElse(List.of())) {
      try {
        BufferSize.parse(b);
      } catch (IllegalArgumentException e) {
        throw Arguments.invalid(
            "buffers", b, "a comma list of buffer sizes, each " + BufferSize.FORMAT);
      }
      a.buffers.add(b);
    }
    if (args.has("buffers") && a.buffers.isEmpty()) {
      throw Arguments.invalid(
          "buffers", args.optional("buffers").get(), "a comma list of buffer sizes (1%,10%,20%)");
    }
    a.memoryLimit = args.optional("memory-limit").orElse(null);
    if (a.memoryLimit != null) {
      MemoryCgroup.parseLimit(a.memoryLimit);
    }
    a.readLimit = args.optional("read-limit").orElse(null);
    if (a.readLimit != null) {
      ReadLimit.parseRate(a.readLimit);
      if (a.memoryLimit == null) {
        throw new IllegalArgumentException(
            "Cannot use --read-limit without --memory-limit: the table would be read "
                + "from the page cache");
      }
    }
    for (String kv : args.all("option")) {
      int e = kv.indexOf('=');
      if (e <= 0) {
        throw Arguments.invalid("option", kv, "key=value");
      }
      a.corgiOptions.put(kv.substring(0, e), kv.substring(e + 1));
    }
    if (a.epochs == 0 && a.variants != null) {
      for (String v : a.variants) {
        if (EPOCH_ONLY_VARIANTS.contains(v)) {
          throw new IllegalArgumentException(
              "Cannot use --variants "
                  + v
                  + " without --epochs: it is measured per epoch (the variants of the repetition"
                  + " mode are parquet,none,block,window,corgipile,corgipile-noprefetch)");
        }
      }
    }
    return a;
  }

  private static List<String> list(String v) {
    return Arrays.stream(v.split(","))
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toList());
  }
}
