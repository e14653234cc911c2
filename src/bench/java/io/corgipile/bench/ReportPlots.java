package io.corgipile.bench;

import static io.corgipile.bench.BenchReport.BUFFER_SWEEP;
import static io.corgipile.bench.BenchReport.STRATEGIES;
import static io.corgipile.bench.BenchReport.find;
import static io.corgipile.bench.BenchReport.select;

import java.awt.BasicStroke;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
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

/** Line charts of one dataset, as PNG files. A chart whose data is absent is not written. */
final class ReportPlots {
  static {
    // The benchmark runs on machines without a display; AWT must know before its first use.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  static final int WIDTH = 900;
  static final int HEIGHT = 600;
  private static final BasicStroke DASHED =
      new BasicStroke(
          2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f);

  /** A written chart: its file name, relative to the results folder, and what it shows. */
  record Plot(String file, String caption) {}

  private ReportPlots() {}

  static List<Plot> write(Path dir, String dataset, List<BenchRun> runs) throws IOException {
    List<BenchRun> strategies = select(runs, STRATEGIES, dataset);
    List<BenchRun> sweep = select(runs, BUFFER_SWEEP, dataset);
    BenchRun fullShuffle = find(strategies, "full-shuffle");
    List<Plot> written = new ArrayList<>();
    save(
        dir,
        new Plot(dataset + "-accuracy-by-epoch.png", dataset + ": test accuracy by epoch"),
        accuracyBy(strategies, true),
        written);
    save(
        dir,
        new Plot(dataset + "-accuracy-by-time.png", dataset + ": test accuracy by time"),
        accuracyBy(strategies, false),
        written);
    save(
        dir,
        new Plot(
            dataset + "-buffer-sweep.png", dataset + ": corgipile's final test accuracy by buffer"),
        bufferSweep(sweep, fullShuffle),
        written);
    save(
        dir,
        new Plot(
            dataset + "-shuffle-quality.png", dataset + ": corgipile's shuffle quality by buffer"),
        shuffleQuality(sweep),
        written);
    return written;
  }

  /** Writes the chart, or removes a stale file of an earlier run when there is no chart. */
  private static void save(Path dir, Plot plot, XYChart chart, List<Plot> written)
      throws IOException {
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
   * epochs: by epoch they are a horizontal line across the epochs of the others, by time one point
   * at their fit time.
   */
  private static XYChart accuracyBy(List<BenchRun> strategies, boolean byEpoch) {
    XYChart c = chart(byEpoch ? "epoch" : "cumulative seconds", "test accuracy");
    ToDoubleFunction<EpochRecord> x = byEpoch ? EpochRecord::epoch : EpochRecord::cumulativeSeconds;
    int lastEpoch =
        strategies.stream().filter(r -> !r.batch()).mapToInt(r -> r.last().epoch()).max().orElse(1);
    for (BenchRun r : strategies) {
      if (!r.batch()) {
        line(c, r.strategy(), r.values(x), r.values(EpochRecord::testAccuracy));
      } else if (byEpoch) {
        reference(c, r.strategy() + " (batch fit)", 1, lastEpoch, r.last().testAccuracy());
      } else {
        point(
            c,
            r.strategy() + " (batch fit)",
            r.last().cumulativeSeconds(),
            r.last().testAccuracy());
      }
    }
    return c;
  }

  private static XYChart bufferSweep(List<BenchRun> sweep, BenchRun fullShuffle) {
    if (sweep.isEmpty()) {
      return null;
    }
    XYChart c = chart("buffer (% of a partition's rows)", "final test accuracy");
    logXIfPositive(c, sweep);
    double[] buffers = buffers(sweep);
    line(
        c,
        "corgipile",
        buffers,
        sweep.stream().mapToDouble(r -> r.last().testAccuracy()).toArray());
    if (fullShuffle != null) {
      reference(
          c,
          "full-shuffle",
          buffers[0],
          buffers[buffers.length - 1],
          fullShuffle.last().testAccuracy());
    }
    return c;
  }

  /**
   * A log axis when the qualities span a decade or more: small buffers shuffle orders of magnitude
   * worse.
   */
  private static XYChart shuffleQuality(List<BenchRun> sweep) {
    if (sweep.isEmpty()) {
      return null;
    }
    XYChart c =
        chart("buffer (% of a partition's rows)", "mean shuffle quality (variance of label share)");
    logXIfPositive(c, sweep);
    double[] quality = sweep.stream().mapToDouble(BenchRun::meanShuffleQuality).toArray();
    double[] finite = Arrays.stream(quality).filter(Double::isFinite).toArray();
    if (finite.length > 0
        && Arrays.stream(finite).min().getAsDouble() > 0
        && Arrays.stream(finite).max().getAsDouble()
            >= 10 * Arrays.stream(finite).min().getAsDouble()) {
      c.getStyler().setYAxisLogarithmic(true);
    }
    line(c, "corgipile", buffers(sweep), quality);
    return c;
  }

  private static double[] buffers(List<BenchRun> sweep) {
    return sweep.stream().mapToDouble(BenchRun::bufferPercent).toArray();
  }

  /** Sweeps go 1, 2, 5, 10, 20%: a log axis spreads them evenly. */
  private static void logXIfPositive(XYChart c, List<BenchRun> sweep) {
    if (sweep.stream().allMatch(r -> r.bufferPercent() > 0)) {
      c.getStyler().setXAxisLogarithmic(true);
      c.getStyler().setXAxisLogarithmicDecadeOnly(false);
    }
  }

  /**
   * Okabe and Ito's colour-blind-safe colours, one per strategy in {@link #STRATEGY_ORDER}:
   * XChart's default palette gives window and full-shuffle near-identical yellows.
   */
  private static final java.awt.Color[] PALETTE =
      Stream.of(
              "#D55E00", "#E69F00", "#56B4E9", "#009E73", "#0072B2", "#CC79A7", "#000000",
              "#999999")
          .map(java.awt.Color::decode)
          .toArray(java.awt.Color[]::new);

  /** The palette's i-th colour, for series that must share one (a line and its reference). */
  static java.awt.Color color(int i) {
    return PALETTE[i % PALETTE.length];
  }

  static XYChart chart(String xTitle, String yTitle) {
    XYChart c =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    c.getStyler().setLegendPosition(LegendPosition.OutsideE);
    c.getStyler().setMarkerSize(6);
    c.getStyler().setSeriesColors(PALETTE);
    return c;
  }

  /** A line through the points where both coordinates are numbers; nothing if there are none. */
  static XYSeries line(XYChart c, String name, double[] x, double[] y) {
    int[] keep =
        IntStream.range(0, x.length)
            .filter(i -> Double.isFinite(x[i]) && Double.isFinite(y[i]))
            .toArray();
    if (keep.length == 0) {
      return null;
    }
    XYSeries s =
        c.addSeries(
            unique(c, name),
            Arrays.stream(keep).mapToDouble(i -> x[i]).toArray(),
            Arrays.stream(keep).mapToDouble(i -> y[i]).toArray());
    s.setMarker(SeriesMarkers.CIRCLE);
    return s;
  }

  /**
   * A dashed horizontal line at {@code y} from {@code x0} to {@code x1}; null if y is not a number.
   */
  static XYSeries reference(XYChart c, String name, double x0, double x1, double y) {
    XYSeries s = line(c, name, new double[] {x0, x1}, new double[] {y, y});
    if (s != null) {
      s.setMarker(SeriesMarkers.NONE);
      dash(s);
    }
    return s;
  }

  /** Draws the series dashed. */
  static void dash(XYSeries s) {
    s.setLineStyle(DASHED);
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
