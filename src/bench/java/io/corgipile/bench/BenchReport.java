package io.corgipile.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns the convergence benchmark's measurements ({@code scripts/bench}) into files: a CSV per
 * experiment, PNG plots per dataset and {@code summary.md}, which compares the strategies and
 * judges issue 4's goals. Every number of the summary is computed from the records given, so the
 * sides of a ratio were measured in the same run.
 *
 * <p>It lives in src/bench, compiled with the tests, and XChart in test scope, so the library jar
 * carries neither.
 */
final class BenchReport {
  /** Where the benchmarks write by default: beside their pages in the docs site. */
  static final Path RESULTS = Path.of("docs", "benchmarks", "results");

  static final String STRATEGIES = "strategies";
  static final String BUFFER_SWEEP = "buffer-sweep";

  /**
   * The order of the summary's rows and of the plots' legends; other strategies follow as they
   * come.
   */
  static final List<String> STRATEGY_ORDER =
      List.of(
          "none",
          "window",
          "block",
          "corgipile",
          "shuffle-once",
          "full-shuffle",
          "mllib-lr",
          "mllib-svc");

  /**
   * The accuracy corgipile may lose against a full shuffle (0.5 points); also the time-to-target
   * margin.
   */
  static final double ACCURACY_MARGIN = 0.005;

  static final double MAX_SLOWDOWN_VS_NONE = 1.15;
  static final double MIN_SPEEDUP_VS_FULL_SHUFFLE = 3.0;
  static final String SUMMARY = "summary.md";

  /** Experiment and dataset names become file names. */
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");

  private BenchReport() {}

  /**
   * Writes {@code <experiment>.csv} for every experiment present, the plots of every dataset and
   * {@code summary.md} into {@code dir}, creating it if needed.
   *
   * @param header markdown saying how the run was made (command, date, machine, data); may be empty
   * @param notes free text from the runner, shown under "Notes"; may be empty
   */
  static void write(Path dir, List<EpochRecord> records, String header, String notes)
      throws IOException {
    records.forEach(BenchReport::checkNames);
    Files.createDirectories(dir);
    List<BenchRun> runs = BenchRun.group(records);
    List<String> csvFiles = ReportCsv.write(dir, records);
    Map<String, List<ReportPlots.Plot>> plots = new LinkedHashMap<>();
    for (String dataset : distinct(runs, BenchRun::dataset)) {
      plots.put(dataset, ReportPlots.write(dir, dataset, runs));
    }
    writeString(dir.resolve(SUMMARY), ReportSummary.render(runs, csvFiles, plots, header, notes));
  }

  private static void checkNames(EpochRecord r) {
    for (String name : List.of(r.experiment(), r.dataset())) {
      if (!FILE_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "experiment and dataset names become file names; not usable: '" + name + "'");
      }
    }
  }

  static <T> List<T> distinct(List<BenchRun> runs, Function<BenchRun, T> key) {
    return runs.stream().map(key).distinct().collect(Collectors.toList());
  }

  /** The runs of one experiment on one dataset, in {@link #STRATEGY_ORDER} and then by buffer. */
  static List<BenchRun> select(List<BenchRun> runs, String experiment, String dataset) {
    return runs.stream()
        .filter(r -> r.experiment().equals(experiment) && r.dataset().equals(dataset))
        .sorted(
            Comparator.comparingInt((BenchRun r) -> strategyRank(r.strategy()))
                .thenComparingDouble(BenchRun::bufferPercent))
        .collect(Collectors.toList());
  }

  private static int strategyRank(String strategy) {
    int i = STRATEGY_ORDER.indexOf(strategy);
    return i < 0
        ? STRATEGY_ORDER.size()
        : i; // the sort is stable: unknown strategies keep their order
  }

  /** The first run of {@code strategy}, or null. */
  static BenchRun find(List<BenchRun> runs, String strategy) {
    return runs.stream().filter(r -> r.strategy().equals(strategy)).findFirst().orElse(null);
  }

  static void writeString(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }
}
