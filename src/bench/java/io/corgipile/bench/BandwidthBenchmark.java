package io.corgipile.bench;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * The Java side of {@code scripts/bench bandwidth} (scripts/lib/bandwidth.sh), which runs {@link
 * ScaleBenchmark} on a local cluster once per loopback bandwidth. {@code prepare} writes the data
 * beforehand in local mode, so no run pays for it under a limit; {@code report} merges the runs'
 * {@code scale.csv} files into one CSV, {@link ScaleBenchmark#CSV_HEADER}'s columns after the rate,
 * and writes {@code summary.md} and a chart of seconds per epoch against bandwidth from it.
 *
 * <p>Arguments: {@code prepare [scale options]}; {@code report --runs DIR --rates
 * unlimited,1000,100,20 --out DIR [--scale-args TEXT]} (DIR/RATE/scale.csv per rate); {@code report
 * --from-csv FILE --out DIR [--scale-args TEXT]}.
 */
public final class BandwidthBenchmark {
  static final String UNLIMITED = "unlimited";
  static final String CSV = "bandwidth.csv";
  static final String CHART = "seconds-by-bandwidth.png";
  static final String CSV_HEADER = "rateMbit," + ScaleBenchmark.CSV_HEADER;

  private BandwidthBenchmark() {}

  /** An epoch of a scale run at a loopback rate in Mbit/s, or {@link #UNLIMITED}. */
  record RatedEpoch(String rate, ScaleBenchmark.Epoch epoch) {
    boolean unlimited() {
      return rate.equals(UNLIMITED);
    }

    double mbit() {
      return unlimited() ? Double.POSITIVE_INFINITY : Double.parseDouble(rate);
    }

    /** The run's identity apart from the rate: the same key at every rate. */
    String run() {
      return epoch.dataset() + ", P=" + epoch.partitionsLabel() + ", " + epoch.config();
    }
  }

  public static void main(String[] args) throws IOException {
    if (args.length == 0 || !List.of("prepare", "report").contains(args[0])) {
      throw new IllegalArgumentException(
          "Cannot run BandwidthBenchmark: the first argument must be prepare or report");
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (args[0].equals("prepare")) {
      prepare(ScaleBenchmark.Settings.parse(rest));
    } else {
      report(rest);
    }
  }

  private static void prepare(ScaleBenchmark.Settings settings) {
    SparkSession spark =
        SparkSession.builder()
            .appName("corgipile-bandwidth-prepare")
            .master("local[2]")
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    try {
      for (String name : settings.datasets()) {
        ScaleBenchmark.generate(spark, settings, name);
      }
    } finally {
      spark.stop();
    }
  }

  private static void report(String[] args) throws IOException {
    Path runs = null;
    Path fromCsv = null;
    Path out = null;
    String[] rates = null;
    String scaleArgs = "";
    for (int i = 0; i < args.length; i += 2) {
      if (i + 1 == args.length) {
        throw new IllegalArgumentException("Cannot use option " + args[i] + ": it needs a value");
      }
      String v = args[i + 1];
      switch (args[i]) {
        case "--runs" -> runs = Path.of(v);
        case "--rates" -> rates = v.split(",");
        case "--from-csv" -> fromCsv = Path.of(v);
        case "--out" -> out = Path.of(v);
        case "--scale-args" -> scaleArgs = v;
        default -> throw new IllegalArgumentException("Cannot use option " + args[i] + ": unknown");
      }
    }
    if (out == null || (runs == null) == (fromCsv == null) || (runs != null && rates == null)) {
      throw new IllegalArgumentException(
          "Cannot report: expected --out and either --runs with --rates or --from-csv");
    }
    Files.createDirectories(out);
    Path csv = fromCsv;
    if (runs != null) {
      csv = out.resolve(CSV);
      Files.write(csv, merge(runs, rates));
    }
    List<RatedEpoch> epochs = read(csv);
    Map<String, String> loads = new LinkedHashMap<>();
    if (runs != null) {
      for (String rate : rates) {
        Path load = runs.resolve(rate).resolve("loadavg");
        if (Files.isRegularFile(load)) {
          loads.put(rate, Files.readString(load).strip());
        }
      }
    }
    Files.writeString(out.resolve("summary.md"), summary(epochs, scaleArgs, loads));
    chart(epochs, out.resolve(CHART));
  }

  /** The lines of the merged CSV: each run's {@code scale.csv} lines after its rate. */
  static List<String> merge(Path runs, String[] rates) throws IOException {
    List<String> lines = new ArrayList<>(List.of(CSV_HEADER));
    for (String rate : rates) {
      Path csv = runs.resolve(rate).resolve("scale.csv");
      if (!Files.isRegularFile(csv)) {
        throw new IOException(
            "Cannot merge the run at rate "
                + rate
                + ": "
                + csv
                + " is missing (did the run fail?)");
      }
      List<String> scale = Files.readAllLines(csv);
      if (scale.isEmpty() || !scale.get(0).equals(ScaleBenchmark.CSV_HEADER)) {
        throw new IOException(
            "Cannot merge "
                + csv
                + ": its header is not ScaleBenchmark's "
                + ScaleBenchmark.CSV_HEADER);
      }
      scale.subList(1, scale.size()).forEach(line -> lines.add(rate + "," + line));
    }
    return lines;
  }

  /**
   * The epochs of a merged CSV: {@link #CSV_HEADER}'s columns, or those of the CSVs merged before
   * {@code scale.csv} recorded the partitions that trained ({@link ScaleBenchmark.Epoch#parse}).
   */
  static List<RatedEpoch> read(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    if (lines.isEmpty()
        || !List.of(CSV_HEADER, "rateMbit," + ScaleBenchmark.OLD_CSV_HEADER)
            .contains(lines.get(0))) {
      throw new IOException("Cannot read " + csv + ": its header is not " + CSV_HEADER);
    }
    return lines.subList(1, lines.size()).stream()
        .map(
            line -> {
              int comma = line.indexOf(',');
              return new RatedEpoch(
                  line.substring(0, comma), ScaleBenchmark.Epoch.parse(line.substring(comma + 1)));
            })
        .toList();
  }

  /**
   * The epochs grouped by run (apart from the rate), then by rate, in the order they were measured.
   */
  private static Map<String, Map<String, List<RatedEpoch>>> byRunAndRate(List<RatedEpoch> epochs) {
    return epochs.stream()
        .collect(
            Collectors.groupingBy(
                RatedEpoch::run,
                LinkedHashMap::new,
                Collectors.groupingBy(RatedEpoch::rate, LinkedHashMap::new, Collectors.toList())));
  }

  /**
   * Mean seconds of the epochs after the first (of the only one if there is no other): the first
   * epoch also carries the JIT's warm-up and the round that sizes the model.
   */
  static double secondsPerEpoch(List<RatedEpoch> run) {
    List<RatedEpoch> steady = run.size() > 1 ? run.subList(1, run.size()) : run;
    return steady.stream().mapToDouble(e -> e.epoch().seconds()).average().orElseThrow();
  }

  private static double mean(List<RatedEpoch> run, ToDoubleFunction<ScaleBenchmark.Epoch> value) {
    return run.stream().mapToDouble(e -> value.applyAsDouble(e.epoch())).average().orElseThrow();
  }

  /**
   * @param loads per rate, the machine's 1-minute load average when its run started and ended
   *     ("3.10 2.95"), as scripts/lib/bandwidth.sh records it; empty when only a CSV is at hand
   */
  static String summary(List<RatedEpoch> epochs, String scaleArgs, Map<String, String> loads) {
    int lastEpoch = epochs.stream().mapToInt(e -> e.epoch().epoch()).max().orElse(0);
    StringBuilder out = new StringBuilder("# Training time against loopback bandwidth\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "Command: `%s` (%s). Each rate ran in a network namespace of its own (`unshare -rn`):"
                + " loopback at MTU 1500, limited by a `tc` token bucket filter (tbf) at the rate"
                + " unless unlimited, a `scripts/local-cluster` of 2 workers with 1 core each, and"
                + " ScaleBenchmark%s as a client-mode driver against it"
                + " (scripts/lib/bandwidth.sh).%n%n",
            System.getenv().getOrDefault("BENCH_COMMAND", "BandwidthBenchmark"),
            System.getenv().getOrDefault("BENCH_CODE", "code unknown"),
            scaleArgs.isEmpty() ? "" : " `" + scaleArgs + "`"));
    out.append(
        "s/epoch: the mean of the epochs after the first (the first also carries the JIT's warm-up"
            + " and the round that sizes the model); x unlimited: s/epoch against the same run"
            + " without a limit. MB are 10^6 bytes, per epoch (means over all epochs). Bytes /"
            + " rate: the seconds the bytes of an epoch, to and from the executors, take at the"
            + " rate alone. Accuracy: test accuracy after epoch "
            + lastEpoch
            + ".\n\n");
    out.append(
        "| run | Mbit/s | rounds/epoch | s, epoch 1 | s/epoch | x unlimited | MB to executors | MB"
            + " from executors | bytes / rate (s) | accuracy |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    List<String> differing = new ArrayList<>();
    for (Map.Entry<String, Map<String, List<RatedEpoch>>> run : byRunAndRate(epochs).entrySet()) {
      List<RatedEpoch> unlimited = run.getValue().get(UNLIMITED);
      double base = unlimited == null ? Double.NaN : secondsPerEpoch(unlimited);
      for (List<RatedEpoch> atRate : run.getValue().values()) {
        RatedEpoch first = atRate.get(0);
        double seconds = secondsPerEpoch(atRate);
        double to = mean(atRate, ScaleBenchmark.Epoch::bytesTo);
        double from = mean(atRate, ScaleBenchmark.Epoch::bytesFrom);
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %d | %.2f | %.2f | %s | %.2f | %.2f | %s | %.4f |%n",
                run.getKey(),
                first.rate(),
                atRate.get(atRate.size() - 1).epoch().rounds(),
                first.epoch().seconds(),
                seconds,
                Double.isNaN(base) ? "-" : String.format(Locale.ROOT, "%.2f", seconds / base),
                to / 1e6,
                from / 1e6,
                first.unlimited()
                    ? "-"
                    : String.format(Locale.ROOT, "%.2f", (to + from) * 8 / (first.mbit() * 1e6)),
                atRate.get(atRate.size() - 1).epoch().accuracy()));
      }
      if (run.getValue().values().stream()
              .map(r -> r.get(r.size() - 1).epoch().accuracy())
              .distinct()
              .count()
          > 1) {
        differing.add(run.getKey());
      }
    }
    out.append(
        differing.isEmpty()
            ? "\nEvery run reached the same test accuracy at every rate.\n"
            : "\nTest accuracy differs between rates for: " + String.join("; ", differing) + ".\n");
    if (!loads.isEmpty()) {
      out.append(
          "\n"
              + "The machine's 1-minute load average (this run's own cluster and driver included)"
              + " when the driver started and when it ended, per rate: the rates ran one after"
              + " another, so a change in other work between them shows in their ratios.\n\n"
              + "| Mbit/s | load at start | load at end |\n"
              + "|---|---:|---:|\n");
      loads.forEach(
          (rate, load) -> out.append("| " + rate + " | " + load.replace(" ", " | ") + " |\n"));
    }
    out.append("\nChart: [" + CHART + "](" + CHART + ").\n");
    return out.toString();
  }

  /**
   * Seconds per epoch against the rate, on a log axis (the rates go by factors of 5 to 10), a line
   * per run; its unlimited run, which has no place on that axis, is a dashed line of the same
   * colour. Nothing is written without a limited rate.
   */
  static void chart(List<RatedEpoch> epochs, Path file) throws IOException {
    XYChart chart = ReportPlots.chart("", "seconds per epoch");
    chart.setTitle("Seconds per epoch against bandwidth");
    chart.getStyler().setXAxisLogarithmic(true);
    chart
        .getStyler()
        .setYAxisMin(0.0); // heights in proportion: the ratios to unlimited show as they are
    double[] limits =
        epochs.stream().filter(e -> !e.unlimited()).mapToDouble(RatedEpoch::mbit).toArray();
    if (limits.length == 0) {
      Files.deleteIfExists(file);
      return;
    }
    // ticks at the decades only (labels at 1-9 x 10^n overlap), so the axis title names the rates
    chart.setXAxisTitle(
        "loopback bandwidth (Mbit/s; measured at "
            + Arrays.stream(limits)
                .sorted()
                .distinct()
                .mapToObj(r -> String.format(Locale.ROOT, "%.0f", r))
                .collect(Collectors.joining(", "))
            + ")");
    double low = Arrays.stream(limits).min().getAsDouble();
    double high = Arrays.stream(limits).max().getAsDouble();
    int n = 0;
    for (Map.Entry<String, Map<String, List<RatedEpoch>>> run : byRunAndRate(epochs).entrySet()) {
      Color color = ReportPlots.color(n++);
      ScaleBenchmark.Epoch e = run.getValue().values().iterator().next().get(0).epoch();
      String name = "P=" + e.partitionsLabel() + " " + e.sync() + " " + e.compression();
      List<List<RatedEpoch>> limited =
          run.getValue().values().stream()
              .filter(r -> !r.get(0).unlimited())
              .sorted(Comparator.comparingDouble(r -> r.get(0).mbit()))
              .toList();
      XYSeries line =
          ReportPlots.line(
              chart,
              name,
              limited.stream().mapToDouble(r -> r.get(0).mbit()).toArray(),
              limited.stream().mapToDouble(BandwidthBenchmark::secondsPerEpoch).toArray());
      List<RatedEpoch> unlimited = run.getValue().get(UNLIMITED);
      XYSeries reference =
          unlimited == null
              ? null
              : ReportPlots.reference(
                  chart, name + " unlimited", low, high, secondsPerEpoch(unlimited));
      for (XYSeries s : new XYSeries[] {line, reference}) {
        if (s != null) {
          s.setLineColor(color);
          s.setMarkerColor(color);
        }
      }
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
    }
  }
}
