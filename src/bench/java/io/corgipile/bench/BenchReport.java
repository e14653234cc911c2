package io.corgipile.bench;

import java.awt.BasicStroke;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Turns the convergence benchmark's measurements ({@code scripts/bench}) into files: a CSV per
 * experiment, PNG plots per dataset and {@code summary.md}, which compares the strategies and judges
 * issue 4's goals. Every number of the summary is computed from the records given, so the sides of a
 * ratio were measured in the same run.
 *
 * <p>It lives in src/bench, compiled with the tests, and XChart in test scope, so the library jar carries neither.
 */
final class BenchReport {
  static final String STRATEGIES = "strategies";
  static final String BUFFER_SWEEP = "buffer-sweep";
  /** The order of the summary's rows and of the plots' legends; other strategies follow as they come. */
  static final List<String> STRATEGY_ORDER = List.of("none", "window", "block", "corgipile", "shuffle-once",
      "full-shuffle", "mllib-lr", "mllib-svc");
  /** The accuracy corgipile may lose against a full shuffle (0.5 points); also the time-to-target margin. */
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
  static void write(Path dir, List<EpochRecord> records, String header, String notes) throws IOException {
    records.forEach(BenchReport::checkNames);
    Files.createDirectories(dir);
    List<Run> runs = Run.group(records);
    List<String> csvFiles = Csv.write(dir, records);
    Map<String, List<Plots.Plot>> plots = new LinkedHashMap<>();
    for (String dataset : distinct(runs, Run::dataset)) {
      plots.put(dataset, Plots.write(dir, dataset, runs));
    }
    writeString(dir.resolve(SUMMARY), Summary.render(runs, csvFiles, plots, header, notes));
  }

  private static void checkNames(EpochRecord r) {
    for (String name : List.of(r.experiment(), r.dataset())) {
      if (!FILE_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("experiment and dataset names become file names; not usable: '"
            + name + "'");
      }
    }
  }

  static <T> List<T> distinct(List<Run> runs, Function<Run, T> key) {
    return runs.stream().map(key).distinct().collect(Collectors.toList());
  }

  /** The runs of one experiment on one dataset, in {@link #STRATEGY_ORDER} and then by buffer. */
  static List<Run> select(List<Run> runs, String experiment, String dataset) {
    return runs.stream()
        .filter(r -> r.experiment().equals(experiment) && r.dataset().equals(dataset))
        .sorted(Comparator.comparingInt((Run r) -> strategyRank(r.strategy()))
            .thenComparingDouble(Run::bufferPercent))
        .collect(Collectors.toList());
  }

  private static int strategyRank(String strategy) {
    int i = STRATEGY_ORDER.indexOf(strategy);
    return i < 0 ? STRATEGY_ORDER.size() : i; // the sort is stable: unknown strategies keep their order
  }

  /** The first run of {@code strategy}, or null. */
  static Run find(List<Run> runs, String strategy) {
    return runs.stream().filter(r -> r.strategy().equals(strategy)).findFirst().orElse(null);
  }

  static void writeString(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  // ---------------------------------------------------------------- runs

  /** The epochs of one training run, in epoch order. */
  record Run(String experiment, String dataset, String strategy, double bufferPercent, List<EpochRecord> epochs) {

    /** Groups records by experiment, dataset, strategy and buffer, in the order they first appear. */
    static List<Run> group(List<EpochRecord> records) {
      Map<List<Object>, List<EpochRecord>> byRun = new LinkedHashMap<>();
      for (EpochRecord r : records) {
        // Double.equals treats NaN as equal to itself, so runs without a buffer group too
        byRun.computeIfAbsent(List.of(r.experiment(), r.dataset(), r.strategy(), r.bufferPercent()),
            k -> new ArrayList<>()).add(r);
      }
      return byRun.values().stream().map(Run::of).collect(Collectors.toList());
    }

    private static Run of(List<EpochRecord> epochs) {
      List<EpochRecord> sorted = epochs.stream().sorted(Comparator.comparingInt(EpochRecord::epoch))
          .collect(Collectors.toList());
      EpochRecord first = sorted.get(0);
      return new Run(first.experiment(), first.dataset(), first.strategy(), first.bufferPercent(), sorted);
    }

    /** MLlib's solvers fit in one batch and report it as epoch 1. */
    boolean batch() {
      return strategy.startsWith("mllib-");
    }

    EpochRecord last() {
      return epochs.get(epochs.size() - 1);
    }

    double meanEpochSeconds() {
      return mean(EpochRecord::epochSeconds);
    }

    double meanBytesRead() {
      return mean(EpochRecord::bytesRead);
    }

    double meanShuffleQuality() {
      return mean(EpochRecord::shuffleQuality);
    }

    long peakHeapBytes() {
      return epochs.stream().mapToLong(EpochRecord::peakHeapBytes).max().getAsLong();
    }

    /** The mean over the epochs where {@code value} is not NaN; NaN if there are none. */
    double mean(ToDoubleFunction<EpochRecord> value) {
      return epochs.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
    }

    double[] values(ToDoubleFunction<EpochRecord> value) {
      return epochs.stream().mapToDouble(value).toArray();
    }

    /** The first epoch whose test accuracy is at or above {@code target}, or null. */
    EpochRecord firstReaching(double target) {
      return epochs.stream().filter(r -> r.testAccuracy() >= target).findFirst().orElse(null);
    }
  }

  // ---------------------------------------------------------------- CSV

  /**
   * One CSV per experiment: the record's field names, then one line per record. Numbers are written
   * with {@code Double.toString}/{@code Long.toString}, so they parse back exactly, NaN as {@code NaN}.
   */
  static final class Csv {
    private static final RecordComponent[] FIELDS = EpochRecord.class.getRecordComponents();

    private Csv() {}

    /** Writes the files and returns their names. */
    static List<String> write(Path dir, List<EpochRecord> records) throws IOException {
      Map<String, List<EpochRecord>> byExperiment = records.stream()
          .collect(Collectors.groupingBy(EpochRecord::experiment, LinkedHashMap::new, Collectors.toList()));
      List<String> files = new ArrayList<>();
      for (Map.Entry<String, List<EpochRecord>> e : byExperiment.entrySet()) {
        String file = e.getKey() + ".csv";
        writeString(dir.resolve(file), csv(e.getValue()));
        files.add(file);
      }
      return files;
    }

    static String csv(List<EpochRecord> records) {
      StringBuilder s = new StringBuilder();
      s.append(Arrays.stream(FIELDS).map(RecordComponent::getName).collect(Collectors.joining(","))).append('\n');
      for (EpochRecord r : records) {
        s.append(Arrays.stream(FIELDS).map(f -> field(value(f, r))).collect(Collectors.joining(","))).append('\n');
      }
      return s.toString();
    }

    private static Object value(RecordComponent field, EpochRecord r) {
      try {
        return field.getAccessor().invoke(r);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read " + field.getName() + " of " + r, e);
      }
    }

    /** The records of a file {@link #csv} wrote, in its order. */
    static List<EpochRecord> read(Path file) throws IOException {
      List<List<String>> rows = rows(Files.readString(file, StandardCharsets.UTF_8));
      List<EpochRecord> records = new ArrayList<>();
      for (List<String> f : rows.subList(Math.min(1, rows.size()), rows.size())) {
        if (f.size() != FIELDS.length) {
          throw new IOException("Cannot read " + file + ": a line has " + f.size() + " fields, not "
              + FIELDS.length + ": " + f);
        }
        records.add(new EpochRecord(f.get(0), f.get(1), f.get(2), Double.parseDouble(f.get(3)),
            Integer.parseInt(f.get(4)), Double.parseDouble(f.get(5)), Double.parseDouble(f.get(6)),
            Double.parseDouble(f.get(7)), Double.parseDouble(f.get(8)), Double.parseDouble(f.get(9)),
            Long.parseLong(f.get(10)), Double.parseDouble(f.get(11)), Long.parseLong(f.get(12))));
      }
      return records;
    }

    /** RFC 4180 text as rows of fields: quoted fields may hold commas, quotes and line breaks. */
    private static List<List<String>> rows(String text) {
      List<List<String>> rows = new ArrayList<>();
      List<String> row = new ArrayList<>();
      StringBuilder field = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (quoted && c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = !quoted;
        } else if (c == ',' && !quoted) {
          row.add(field.toString());
          field.setLength(0);
        } else if (c == '\n' && !quoted) {
          row.add(field.toString());
          field.setLength(0);
          rows.add(row);
          row = new ArrayList<>();
        } else {
          field.append(c);
        }
      }
      if (!row.isEmpty() || field.length() > 0) { // a last line without its line break: a cut file
        row.add(field.toString());
        rows.add(row);
      }
      return rows;
    }

    /** Strings are quoted (RFC 4180) only when they hold a comma, a quote or a line break. */
    static String field(Object value) {
      String s = String.valueOf(value); // Double.toString, Integer.toString, Long.toString
      if (!(value instanceof String) || s.chars().noneMatch(c -> c == ',' || c == '"' || c == '\n' || c == '\r')) {
        return s;
      }
      return '"' + s.replace("\"", "\"\"") + '"';
    }
  }

  // ---------------------------------------------------------------- plots

  /** Line charts of one dataset, as PNG files. A chart whose data is absent is not written. */
  static final class Plots {
    static {
      // The benchmark runs on machines without a display; AWT must know before its first use.
      if (System.getProperty("java.awt.headless") == null) {
        System.setProperty("java.awt.headless", "true");
      }
    }

    static final int WIDTH = 900;
    static final int HEIGHT = 600;
    private static final BasicStroke DASHED =
        new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f);

    /** A written chart: its file name, relative to the results folder, and what it shows. */
    record Plot(String file, String caption) {}

    private Plots() {}

    static List<Plot> write(Path dir, String dataset, List<Run> runs) throws IOException {
      List<Run> strategies = select(runs, STRATEGIES, dataset);
      List<Run> sweep = select(runs, BUFFER_SWEEP, dataset);
      Run fullShuffle = find(strategies, "full-shuffle");
      List<Plot> written = new ArrayList<>();
      save(dir, new Plot(dataset + "-accuracy-by-epoch.png", dataset + ": test accuracy by epoch"),
          accuracyBy(strategies, true), written);
      save(dir, new Plot(dataset + "-accuracy-by-time.png", dataset + ": test accuracy by time"),
          accuracyBy(strategies, false), written);
      save(dir, new Plot(dataset + "-buffer-sweep.png", dataset + ": corgipile's final test accuracy by buffer"),
          bufferSweep(sweep, fullShuffle), written);
      save(dir, new Plot(dataset + "-shuffle-quality.png", dataset + ": corgipile's shuffle quality by buffer"),
          shuffleQuality(sweep), written);
      return written;
    }

    /** Writes the chart, or removes a stale file of an earlier run when there is no chart. */
    private static void save(Path dir, Plot plot, XYChart chart, List<Plot> written) throws IOException {
      Path file = dir.resolve(plot.file());
      if (chart == null || chart.getSeriesMap().isEmpty()) {
        Files.deleteIfExists(file);
        return;
      }
      chart.setTitle(plot.caption());
      try (OutputStream out = Files.newOutputStream(file)) {
        BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
      }
      written.add(plot);
    }

    /**
     * Test accuracy of every strategy by epoch or by cumulative seconds. MLlib's batch fits have no
     * epochs: by epoch they are a horizontal line across the epochs of the others, by time one point at
     * their fit time.
     */
    private static XYChart accuracyBy(List<Run> strategies, boolean byEpoch) {
      XYChart c = chart(byEpoch ? "epoch" : "cumulative seconds", "test accuracy");
      ToDoubleFunction<EpochRecord> x = byEpoch ? EpochRecord::epoch : EpochRecord::cumulativeSeconds;
      int lastEpoch = strategies.stream().filter(r -> !r.batch()).mapToInt(r -> r.last().epoch()).max().orElse(1);
      for (Run r : strategies) {
        if (!r.batch()) {
          line(c, r.strategy(), r.values(x), r.values(EpochRecord::testAccuracy));
        } else if (byEpoch) {
          reference(c, r.strategy() + " (batch fit)", 1, lastEpoch, r.last().testAccuracy());
        } else {
          point(c, r.strategy() + " (batch fit)", r.last().cumulativeSeconds(), r.last().testAccuracy());
        }
      }
      return c;
    }

    private static XYChart bufferSweep(List<Run> sweep, Run fullShuffle) {
      if (sweep.isEmpty()) {
        return null;
      }
      XYChart c = chart("buffer (% of a partition's rows)", "final test accuracy");
      logXIfPositive(c, sweep);
      double[] buffers = buffers(sweep);
      line(c, "corgipile", buffers, sweep.stream().mapToDouble(r -> r.last().testAccuracy()).toArray());
      if (fullShuffle != null) {
        reference(c, "full-shuffle", buffers[0], buffers[buffers.length - 1], fullShuffle.last().testAccuracy());
      }
      return c;
    }

    /** A log axis when the qualities span a decade or more: small buffers shuffle orders of magnitude worse. */
    private static XYChart shuffleQuality(List<Run> sweep) {
      if (sweep.isEmpty()) {
        return null;
      }
      XYChart c = chart("buffer (% of a partition's rows)", "mean shuffle quality (variance of label share)");
      logXIfPositive(c, sweep);
      double[] quality = sweep.stream().mapToDouble(Run::meanShuffleQuality).toArray();
      double[] finite = Arrays.stream(quality).filter(Double::isFinite).toArray();
      if (finite.length > 0 && Arrays.stream(finite).min().getAsDouble() > 0
          && Arrays.stream(finite).max().getAsDouble() >= 10 * Arrays.stream(finite).min().getAsDouble()) {
        c.getStyler().setYAxisLogarithmic(true);
      }
      line(c, "corgipile", buffers(sweep), quality);
      return c;
    }

    private static double[] buffers(List<Run> sweep) {
      return sweep.stream().mapToDouble(Run::bufferPercent).toArray();
    }

    /** Sweeps go 1, 2, 5, 10, 20%: a log axis spreads them evenly. */
    private static void logXIfPositive(XYChart c, List<Run> sweep) {
      if (sweep.stream().allMatch(r -> r.bufferPercent() > 0)) {
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setXAxisLogarithmicDecadeOnly(false);
      }
    }

    /**
     * Okabe and Ito's colour-blind-safe colours, one per strategy in {@link #STRATEGY_ORDER}: XChart's
     * default palette gives window and full-shuffle near-identical yellows.
     */
    private static final java.awt.Color[] PALETTE = Stream.of("#D55E00", "#E69F00", "#56B4E9", "#009E73",
        "#0072B2", "#CC79A7", "#000000", "#999999").map(java.awt.Color::decode).toArray(java.awt.Color[]::new);

    private static XYChart chart(String xTitle, String yTitle) {
      XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
      c.getStyler().setLegendPosition(LegendPosition.OutsideE);
      c.getStyler().setMarkerSize(6);
      c.getStyler().setSeriesColors(PALETTE);
      return c;
    }

    /** A line through the points where both coordinates are numbers; nothing if there are none. */
    private static XYSeries line(XYChart c, String name, double[] x, double[] y) {
      int[] keep = IntStream.range(0, x.length)
          .filter(i -> Double.isFinite(x[i]) && Double.isFinite(y[i])).toArray();
      if (keep.length == 0) {
        return null;
      }
      XYSeries s = c.addSeries(unique(c, name), Arrays.stream(keep).mapToDouble(i -> x[i]).toArray(),
          Arrays.stream(keep).mapToDouble(i -> y[i]).toArray());
      s.setMarker(SeriesMarkers.CIRCLE);
      return s;
    }

    private static void reference(XYChart c, String name, double x0, double x1, double y) {
      XYSeries s = line(c, name, new double[] {x0, x1}, new double[] {y, y});
      if (s != null) {
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(DASHED);
      }
    }

    private static void point(XYChart c, String name, double x, double y) {
      XYSeries s = line(c, name, new double[] {x}, new double[] {y});
      if (s != null) {
        s.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.DIAMOND);
      }
    }

    /** XChart refuses two series of one name; a strategy run twice gets a number. */
    private static String unique(XYChart c, String name) {
      String n = name;
      for (int i = 2; c.getSeriesMap().containsKey(n); i++) {
        n = name + " #" + i;
      }
      return n;
    }
  }

  // ---------------------------------------------------------------- summary

  /** {@code summary.md}: per dataset the strategies' table, the ratios, the goals and the plots. */
  static final class Summary {
    private static final String NA = "n/a";
    private static final String MARGIN_POINTS = String.format(Locale.ROOT, "%.1f points", 100 * ACCURACY_MARGIN);

    private Summary() {}

    static String render(List<Run> runs, List<String> csvFiles, Map<String, List<Plots.Plot>> plots, String header,
        String notes) {
      StringBuilder md = new StringBuilder("# Convergence benchmark: CorgiPile against the other orders\n\n");
      md.append(blankOr(header, "(the runner did not say how the run was made)")).append("\n\n");
      md.append("Measurements, one line per epoch of every run: ")
          .append(csvFiles.stream().map(f -> "[" + f + "](" + f + ")").collect(Collectors.joining(", ")))
          .append(csvFiles.isEmpty() ? "none (no records)" : "")
          .append(". Numbers are written exactly (Java's Double.toString and Long.toString); a value that was "
              + "not measured (MLlib's objective and shuffle quality, a run without a buffer) is written `NaN`. "
              + "Strings are quoted only when they hold a comma, a quote or a line break.\n");
      for (Map.Entry<String, List<Plots.Plot>> e : plots.entrySet()) {
        dataset(md, e.getKey(), runs, e.getValue());
      }
      definitions(md);
      md.append("\n## Notes\n\n").append(blankOr(notes, "(none)")).append('\n');
      return md.toString();
    }

    private static void dataset(StringBuilder md, String dataset, List<Run> runs, List<Plots.Plot> plots) {
      md.append("\n## ").append(dataset).append('\n');
      Comparison c = new Comparison(select(runs, STRATEGIES, dataset));
      if (!c.runs.isEmpty()) {
        md.append("\n### Strategies (experiment `").append(STRATEGIES).append("`)\n\n");
        table(md, c.runs);
        ratios(md, c);
        timeToTarget(md, c);
        goals(md, c, select(runs, BUFFER_SWEEP, dataset));
      }
      List<Run> sweep = select(runs, BUFFER_SWEEP, dataset);
      if (!sweep.isEmpty()) {
        md.append("\n### CorgiPile by buffer size (experiment `").append(BUFFER_SWEEP).append("`)\n\n");
        table(md, sweep);
      }
      if (!plots.isEmpty()) {
        md.append("\n### Plots\n\n");
        plots.forEach(p -> md.append("![").append(p.caption()).append("](").append(p.file()).append(")\n\n"));
      }
    }

    private static void table(StringBuilder md, List<Run> runs) {
      md.append("| run | buffer | final accuracy | final AUC | epochs | mean epoch s | total s | mean MiB read / epoch "
          + "| mean shuffle quality | peak heap MiB |\n");
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (Run r : runs) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n",
            cell(r.strategy()), percent(r.bufferPercent()), f4(r.last().testAccuracy()), f4(r.last().testAuc()),
            r.epochs().size(), f3(r.meanEpochSeconds()), f3(r.last().cumulativeSeconds()), mib(r.meanBytesRead()),
            sci(r.meanShuffleQuality()), mib(r.peakHeapBytes())));
      }
    }

    private static void ratios(StringBuilder md, Comparison c) {
      md.append("\n### Ratios\n\n");
      md.append("- corgipile / none, mean epoch seconds: ").append(ratio(c.corgipileVsNone()))
          .append(sides(c.corgipile, c.none)).append('\n');
      md.append("- full-shuffle / corgipile, mean epoch seconds: ").append(ratio(c.fullShuffleVsCorgipile()))
          .append(sides(c.fullShuffle, c.corgipile)).append('\n');
      md.append("- corgipile - full-shuffle, final accuracy: ").append(points(c.gapPoints())).append('\n');
      md.append("- corgipile - full-shuffle, final AUC: ").append(points(c.aucGapPoints(c.corgipile))).append('\n');
    }

    /** " (1.100 s / 1.000 s)", the two mean epoch times behind a ratio, when both runs exist. */
    private static String sides(Run a, Run b) {
      return a == null || b == null ? ""
          : " (" + f3(a.meanEpochSeconds()) + " s / " + f3(b.meanEpochSeconds()) + " s)";
    }

    private static void timeToTarget(StringBuilder md, Comparison c) {
      md.append("\n### Time to target\n\n");
      if (c.fullShuffle == null) {
        md.append("No `full-shuffle` run, so no target.\n");
        return;
      }
      md.append("Target: full-shuffle's final accuracy ").append(f4(c.fullShuffle.last().testAccuracy()))
          .append(" - ").append(ACCURACY_MARGIN).append(" = ").append(f4(c.target())).append(".\n\n");
      md.append("| run | seconds to target | at epoch |\n|---|---:|---:|\n");
      for (Run r : c.runs) {
        EpochRecord hit = r.firstReaching(c.target());
        md.append("| ").append(cell(r.strategy())).append(" | ")
            .append(hit == null ? "not reached" : f3(hit.cumulativeSeconds())).append(" | ")
            .append(hit == null ? "-" : String.valueOf(hit.epoch())).append(" |\n");
      }
    }

    private static void goals(StringBuilder md, Comparison c, List<Run> sweep) {
      md.append("\n### Goals\n\n");
      goal(md, "corgipile's final accuracy at most " + MARGIN_POINTS + " below full-shuffle's",
          c.gapPoints() >= -100 * ACCURACY_MARGIN, c.gapPoints(), points(c.gapPoints()),
          accuracyEvidence(c.corgipile, c.fullShuffle), () -> accuracyWhy(c, sweep));
      if (c.gapPoints(c.none) >= -100 * ACCURACY_MARGIN) {
        md.append("  - This goal does not separate the orders on this dataset: none, which does not shuffle at"
            + " all, also ends ").append(points(c.gapPoints(c.none))).append(" from full-shuffle. AUC, which ranks"
            + " the test rows instead of thresholding them, does: corgipile - full-shuffle ")
            .append(points(c.aucGapPoints(c.corgipile))).append(", none - full-shuffle ")
            .append(points(c.aucGapPoints(c.none))).append(".\n");
      }
      goal(md, "corgipile's mean epoch at most " + MAX_SLOWDOWN_VS_NONE + "x none's",
          c.corgipileVsNone() <= MAX_SLOWDOWN_VS_NONE, c.corgipileVsNone(), ratio(c.corgipileVsNone()),
          epochEvidence(c.corgipile, c.none), () -> slowdownWhy(c));
      goal(md, "full-shuffle's mean epoch at least " + MIN_SPEEDUP_VS_FULL_SHUFFLE + "x corgipile's",
          c.fullShuffleVsCorgipile() >= MIN_SPEEDUP_VS_FULL_SHUFFLE, c.fullShuffleVsCorgipile(),
          ratio(c.fullShuffleVsCorgipile()), epochEvidence(c.fullShuffle, c.corgipile), () -> speedupWhy(c));
    }

    /** Why corgipile ended lower, from the runs: how its stream mixed labels, and what the sweep shows. */
    private static String accuracyWhy(Comparison c, List<Run> sweep) {
      String why = "corgipile's stream mixed labels less than full-shuffle's (mean shuffle quality "
          + sci(c.corgipile.meanShuffleQuality()) + " against " + sci(c.fullShuffle.meanShuffleQuality())
          + "; lower is better mixed)";
      Run smallest = sweep.stream()
          .filter(r -> 100 * (r.last().testAccuracy() - c.fullShuffle.last().testAccuracy())
              >= -100 * ACCURACY_MARGIN)
          .min(Comparator.comparingDouble(Run::bufferPercent)).orElse(null);
      return why + (sweep.isEmpty() ? "." : smallest == null
          ? "; no buffer size of the sweep ends within " + MARGIN_POINTS + " of it either."
          : "; in the sweep, a buffer of " + percent(smallest.bufferPercent()) + " ends within " + MARGIN_POINTS
              + " of it (" + f4(smallest.last().testAccuracy()) + ").");
    }

    /** Why corgipile's epoch took longer than none's: bytes read tell I/O from work in the process. */
    private static String slowdownWhy(Comparison c) {
      double bytes = c.corgipile.meanBytesRead() / c.none.meanBytesRead();
      String extra = f3(c.corgipile.meanEpochSeconds() - c.none.meanEpochSeconds());
      return Math.abs(bytes - 1) <= 0.1
          ? "Both read about the same bytes per epoch (" + ratio(bytes) + "), so the extra " + extra
              + " s per epoch went to work in the process, not to reading: filling, shuffling and emitting the"
              + " buffer, and the random order's cost on the reader (a new row group on every block)."
          : "corgipile read " + ratio(bytes) + " none's bytes per epoch; the extra " + extra
              + " s per epoch is partly that.";
    }

    /** Why a full shuffle was not 3x slower: how much more it read than a scan. */
    private static String speedupWhy(Comparison c) {
      double bytes = c.fullShuffle.meanBytesRead() / c.corgipile.meanBytesRead();
      String numbers = "A full-shuffle epoch read " + ratio(bytes) + " corgipile's bytes through read calls (Spark"
          + " maps shuffle blocks over 2 MB into memory instead, uncounted)";
      return bytes < 1.5
          ? numbers + ": the table (" + mib(c.corgipile.meanBytesRead()) + " MiB per pass) and its shuffle files"
              + " stayed in memory and the page cache, so a full shuffle cost a sort's CPU and memory traffic"
              + " rather than more passes over storage. The goal's 3x presumes tables larger than memory, whose"
              + " sort spills to disk and whose shuffle reads back from it."
          : numbers + ": it did read more, but fast enough (page cache or disk) to stay under 3x a corgipile"
              + " epoch.";
    }

    /**
     * One goal: MET or MISSED with the measured number and the numbers behind it, and for a missed
     * goal why (from the runs, which are all present then), or NOT MEASURED.
     */
    private static void goal(StringBuilder md, String statement, boolean met, double measured, String shown,
        String evidence, Supplier<String> why) {
      if (Double.isNaN(measured)) {
        md.append("- **NOT MEASURED**: ").append(statement).append(": a run it needs is missing.\n");
        return;
      }
      md.append("- **").append(met ? "MET" : "MISSED").append("**: ").append(statement).append(": measured ")
          .append(shown).append(". ").append(evidence).append(met ? "" : " Why: " + why.get()).append('\n');
    }

    private static String accuracyEvidence(Run corgipile, Run fullShuffle) {
      return "corgipile reached " + reached(corgipile) + "; full-shuffle reached " + reached(fullShuffle) + ".";
    }

    private static String reached(Run r) {
      return r == null ? NA : f4(r.last().testAccuracy()) + " after " + r.epochs().size() + " epochs";
    }

    private static String epochEvidence(Run a, Run b) {
      return perEpoch(a) + "; " + perEpoch(b) + ".";
    }

    private static String perEpoch(Run r) {
      return r == null ? NA : r.strategy() + ": " + f3(r.meanEpochSeconds()) + " s and "
          + mib(r.meanBytesRead()) + " MiB read per epoch";
    }

    private static void definitions(StringBuilder md) {
      md.append("\n## Definitions\n\n");
      md.append(String.join("\n",
          "- run: one training run; in `" + STRATEGIES + "` every strategy trains with a 10% buffer, in `"
              + BUFFER_SWEEP + "` corgipile trains at each buffer size.",
          "- buffer: the shuffle buffer as a percent of a partition's rows; n/a for strategies without one.",
          "- final accuracy, final AUC: test accuracy and area under the ROC curve on the test set after the "
              + "run's last epoch.",
          "- epochs: epochs the run trained; MLlib's batch solvers (mllib-lr, mllib-svc) report their whole fit "
              + "as one epoch.",
          "- mean epoch s: wall-clock seconds of an epoch, averaged over the run's epochs (for MLlib: the fit).",
          "- total s: seconds from the run's start to the end of its last epoch.",
          "- mean MiB read / epoch: bytes the JVM read during an epoch's job (rchar of /proc/self/io: Parquet "
              + "and shuffle files, from disk or page cache; for MLlib: the whole fit), averaged, in MiB (2^20 "
              + "bytes). Spark memory-maps shuffle blocks over 2 MB and such reads are not counted, so a full "
              + "shuffle's count is a lower bound.",
          "- mean shuffle quality: the variance, across the buffer-sized chunks of each partition's stream, of the "
              + "share of positive labels, averaged over the epochs; lower is better shuffled (a uniform shuffle "
              + "gives about p(1-p)/chunk, sorted data read in order up to p(1-p)); n/a where not measured.",
          "- peak heap MiB: an upper bound of the heap in use during the run (driver and executors share a JVM"
              + " in local mode): the sum of each heap pool's peak, which the pools reach at different moments, so"
              + " it can exceed the heap's maximum and says as much about when garbage was collected as about the"
              + " shuffle buffer.",
          "- corgipile / none, mean epoch seconds: corgipile's mean epoch time over none's (no shuffle at all): "
              + "the cost of CorgiPile's shuffle; the goal is at most " + MAX_SLOWDOWN_VS_NONE + "x.",
          "- full-shuffle / corgipile, mean epoch seconds: how many times longer a fully shuffled epoch takes "
              + "than a CorgiPile epoch; the goal is at least " + MIN_SPEEDUP_VS_FULL_SHUFFLE + "x.",
          "- corgipile - full-shuffle, final accuracy: the difference of the final test accuracies, in points "
              + "(1 point = 0.01 accuracy); negative when corgipile ends lower. The goal is at least -"
              + MARGIN_POINTS + " (corgipile may end higher).",
          "- corgipile - full-shuffle, final AUC: the same for the area under the ROC curve, which does not"
              + " depend on a threshold: where every order ends at the majority class's accuracy, it still"
              + " separates them.",
          "- seconds to target: the total seconds at the end of the first epoch whose test accuracy is at or "
              + "above the target (full-shuffle's final accuracy - " + ACCURACY_MARGIN + "); \"not reached\" "
              + "if no epoch is.",
          "- MET / MISSED: the goal's test on the measured number; NOT MEASURED when a run it needs is absent."))
          .append('\n');
    }

    private static String blankOr(String text, String otherwise) {
      return text == null || text.isBlank() ? otherwise : text.strip();
    }

    private static String cell(String s) {
      return s.replace("|", "\\|");
    }

    static String percent(double p) {
      return Double.isNaN(p) ? NA : (p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p)) + "%";
    }

    static String f3(double v) {
      return format("%.3f", v);
    }

    static String f4(double v) {
      return format("%.4f", v);
    }

    static String ratio(double v) {
      return Double.isNaN(v) ? NA : f3(v) + "x";
    }

    static String points(double v) {
      return Double.isNaN(v) ? NA : format("%+.2f", v) + " points";
    }

    static String mib(double bytes) {
      return format("%.1f", bytes / (1 << 20));
    }

    static String sci(double v) {
      return format("%.3e", v);
    }

    private static String format(String pattern, double v) {
      return Double.isNaN(v) ? NA : String.format(Locale.ROOT, pattern, v);
    }
  }

  /** The runs of the {@code strategies} experiment on one dataset and the ratios the goals judge. */
  static final class Comparison {
    final List<Run> runs;
    final Run none;
    final Run corgipile;
    final Run fullShuffle;

    Comparison(List<Run> runs) {
      this.runs = runs;
      this.none = find(runs, "none");
      this.corgipile = find(runs, "corgipile");
      this.fullShuffle = find(runs, "full-shuffle");
    }

    /** NaN when a side is missing. */
    double corgipileVsNone() {
      return epochRatio(corgipile, none);
    }

    double fullShuffleVsCorgipile() {
      return epochRatio(fullShuffle, corgipile);
    }

    /** corgipile's final accuracy minus full-shuffle's, in points. */
    double gapPoints() {
      return gapPoints(corgipile);
    }

    /** {@code run}'s final accuracy minus full-shuffle's, in points; NaN when a side is missing. */
    double gapPoints(Run run) {
      return run == null || fullShuffle == null ? Double.NaN
          : 100 * (run.last().testAccuracy() - fullShuffle.last().testAccuracy());
    }

    /** {@code run}'s final AUC minus full-shuffle's, in points; NaN when a side is missing. */
    double aucGapPoints(Run run) {
      return run == null || fullShuffle == null ? Double.NaN
          : 100 * (run.last().testAuc() - fullShuffle.last().testAuc());
    }

    double target() {
      return Objects.requireNonNull(fullShuffle).last().testAccuracy() - ACCURACY_MARGIN;
    }

    private static double epochRatio(Run a, Run b) {
      return a == null || b == null ? Double.NaN : a.meanEpochSeconds() / b.meanEpochSeconds();
    }
  }
}
