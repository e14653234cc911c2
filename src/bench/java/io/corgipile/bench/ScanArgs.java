package io.corgipile.bench;

import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The arguments of {@link ScanBenchmark}; {@code scripts/bench-scan --help} explains them. */
final class ScanArgs {
  static final CommandLine COMMAND_LINE = new CommandLine("run bench-scan", List.of(
      new Option("rows", "N", "rows of the table"),
      new Option("data", "DIR", "root of the generated tables"),
      Option.flag("regenerate", "generate the table again even if it is complete"),
      Option.flag("generate-only", "make sure the table exists, then stop"),
      Option.flag("cold", "drop the page cache before every run"),
      new Option("seed", "S", "seed of the generated data"),
      new Option("reps", "R", "timed repetitions"),
      new Option("master", "URL", "Spark master"),
      new Option("variants", "LIST", "comma list of variants"),
      new Option("option", "K=V", "extra option for every corgipile variant", true),
      new Option("out", "DIR", "results directory")), 0);

  long rows = 10_000_000L;
  Path dataRoot = Path.of("target", "bench-data");
  Path out = Path.of("target", "bench-scan");
  int reps = 3;
  String master = "local[2]";
  long seed = 42L;
  boolean regenerate;
  boolean generateOnly;
  boolean cold;
  List<String> variants;
  Map<String, String> corgiOptions = new LinkedHashMap<>();

  static ScanArgs parse(String[] argv) {
    Arguments args = COMMAND_LINE.parse(argv);
    ScanArgs a = new ScanArgs();
    a.rows = args.count("rows", a.rows, 1);
    a.dataRoot = args.path("data", a.dataRoot);
    a.out = args.path("out", a.out);
    a.reps = args.atLeast("reps", a.reps, 1);
    a.master = args.string("master", a.master);
    a.seed = args.integer("seed", a.seed, Long.MIN_VALUE, Long.MAX_VALUE);
    a.regenerate = args.flag("regenerate");
    a.generateOnly = args.flag("generate-only");
    a.cold = args.flag("cold");
    a.variants = args.optional("variants").map(v -> Arrays.stream(v.split(",")).map(String::trim)
        .filter(s -> !s.isEmpty()).collect(Collectors.toList())).orElse(null);
    for (String kv : args.all("option")) {
      int e = kv.indexOf('=');
      if (e <= 0) {
        throw Arguments.invalid("option", kv, "key=value");
      }
      a.corgiOptions.put(kv.substring(0, e), kv.substring(e + 1));
    }
    return a;
  }
}
