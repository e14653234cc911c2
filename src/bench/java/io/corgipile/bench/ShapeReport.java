package io.corgipile.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;

/**
 * The report of {@code scripts/bench shapes} ({@link ShapeSuite}) from its records: {@code
 * summary.md} with the whole grid (every shape, size and P, never a best cell), the references
 * (MLlib's LogisticRegression and a fully shuffled copy) and a check of issue 42's goals per cell;
 * and one chart, the gap to P=2 after the last epoch against rows per partition.
 */
final class ShapeReport {
  private ShapeReport() {}

  /** The fit of the corgipile source at P partitions. */
  static final String CORGIPILE = "corgipile";

  /** The fit on a copy of the rows in random order, storage order, P=2: the full shuffle. */
  static final String FULL_SHUFFLE = "full-shuffle";

  /** MLlib's LogisticRegression at its defaults: one record, epoch 0. */
  static final String MLLIB_LR = "mllib-lr";

  static final String CSV = "shapes.csv";
  static final String SUMMARY = "summary.md";
  static final String PLOT = "gap-by-rows-per-partition.png";

  /** Issue 42's goals: points of accuracy P may lose against P=2 after epoch 1 and the last. */
  static final double FIRST_EPOCH_MARGIN = 1.0;

  static final double LAST_EPOCH_MARGIN = 0.3;

  /** Points of accuracy a multiclass fit may lose against LogisticRegression. */
  static final double MULTICLASS_MARGIN = 0.5;

  /** The most a multiclass fit's log-loss may be, as a multiple of LogisticRegression's. */
  static final double MULTICLASS_LOG_LOSS_RATIO = 1.10;

  static final String CSV_HEADER =
      "shape,rows,classes,fit,partitions,epoch,rounds,stepSize,testAccuracy,testLogLoss,seconds";

  /**
   * One line of {@code shapes.csv}: an epoch of an SGD fit, or the one record of a batch fit
   * (LogisticRegression: epoch 0, rounds its iterations, no step size). Accuracy to 4 decimals, as
   * the tables show it; log-loss to 6 significant digits, as LogisticRegression's on separable data
   * is below 1e-4.
   */
  record Fit(
      String shape,
      long rows,
      int classes,
      String fit,
      int partitions,
      int epoch,
      int rounds,
      double stepSize,
      double accuracy,
      double logLoss,
      double seconds) {
    String csv() {
      return String.format(
          Locale.ROOT,
          "%s,%d,%d,%s,%d,%d,%d,%s,%.4f,%.6g,%.3f",
          shape,
          rows,
          classes,
          fit,
          partitions,
          epoch,
          rounds,
          Double.isNaN(stepSize) ? "" : String.format(Locale.ROOT, "%.6g", stepSize),
          accuracy,
          logLoss,
          seconds);
    }

    static Fit parse(String line) {
      String[] f = line.split(",", -1);
      if (f.length != 11) {
        throw new IllegalArgumentException(
            "Cannot read shapes.csv line '" + line + "': expected the columns " + CSV_HEADER);
      }
      return new Fit(
          f[0],
          Long.parseLong(f[1]),
          Integer.parseInt(f[2]),
          f[3],
          Integer.parseInt(f[4]),
          Integer.parseInt(f[5]),
          Integer.parseInt(f[6]),
          f[7].isEmpty() ? Double.NaN : Double.parseDouble(f[7]),
          Double.parseDouble(f[8]),
          Double.parseDouble(f[9]),
          Double.parseDouble(f[10]));
    }

    /** As it reads back from the CSV: the report is the same from a run and from its CSV. */
    Fit rounded() {
      return parse(csv());
    }

    long rowsPerPartition() {
      return Math.round((double) rows / partitions);
    }
  }

  /** The records of a {@code shapes.csv}. */
  static List<Fit> read(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    if (lines.isEmpty() || !lines.get(0).equals(CSV_HEADER)) {
      throw new IllegalArgumentException(
          "Cannot read " + csv + ": its first line must be " + CSV_HEADER);
    }
    return lines.subList(1, lines.size()).stream()
        .filter(l -> !l.isBlank())
        .map(Fit::parse)
        .toList();
  }

  /** The fits of one shape at one size: a run per P of the source, and the references. */
  record Cell(
      String shape,
      long rows,
      int classes,
      TreeMap<Integer, List<Fit>> byPartitions,
      List<Fit> fullShuffle,
      Fit lr) {
    int baseP() {
      return byPartitions.firstKey();
    }

    List<Fit> base() {
      return byPartitions.firstEntry().getValue();
    }

    boolean multiclass() {
      return classes > 2;
    }
  }

  /** The records by shape and size, in the order they were measured. */
  static List<Cell> cells(List<Fit> records) {
    Map<String, List<Fit>> groups = new LinkedHashMap<>();
    for (Fit f : records) {
      groups.computeIfAbsent(f.shape() + "|" + f.rows(), k -> new ArrayList<>()).add(f);
    }
    List<Cell> cells = new ArrayList<>();
    for (List<Fit> g : groups.values()) {
      TreeMap<Integer, List<Fit>> byP = new TreeMap<>();
      List<Fit> full = new ArrayList<>();
      Fit lr = null;
      for (Fit f : g) {
        switch (f.fit()) {
          case CORGIPILE -> byP.computeIfAbsent(f.partitions(), p -> new ArrayList<>()).add(f);
          case FULL_SHUFFLE -> full.add(f);
          case MLLIB_LR -> lr = f;
          default ->
              throw new IllegalArgumentException(
                  "Cannot report fit '"
                      + f.fit()
                      + "': expected "
                      + CORGIPILE
                      + ", "
                      + FULL_SHUFFLE
                      + " or "
                      + MLLIB_LR);
        }
      }
      byP.values().forEach(run -> run.sort(Comparator.comparingInt(Fit::epoch)));
      full.sort(Comparator.comparingInt(Fit::epoch));
      if (!byP.isEmpty()) {
        Fit first = g.get(0);
        cells.add(new Cell(first.shape(), first.rows(), first.classes(), byP, full, lr));
      }
    }
    return cells;
  }

  /** {@code a - b} in points of accuracy, to 2 decimals (accuracies have 4). */
  static double gap(double a, double b) {
    return Math.round((a - b) * 10_000) / 100.0;
  }

  private static Fit last(List<Fit> run) {
    return run.get(run.size() - 1);
  }

  /** The verdict on one goal in one cell. */
  enum Verdict {
    MET,
    NOT_MET,
    NOT_APPLICABLE
  }

  /** A goal's verdict and the figure it was judged on. */
  record Check(Verdict verdict, double value) {
    static final Check NONE = new Check(Verdict.NOT_APPLICABLE, Double.NaN);

    static Check atLeast(double value, double bound) {
      return new Check(value >= bound ? Verdict.MET : Verdict.NOT_MET, value);
    }

    static Check atMost(double value, double bound) {
      return new Check(value <= bound ? Verdict.MET : Verdict.NOT_MET, value);
    }
  }

  /** The four goals of issue 42 at one P of one cell. */
  record Goals(Check firstEpoch, Check lastEpoch, Check accuracyToLr, Check logLossToLr) {
    List<Check> all() {
      return List.of(firstEpoch, lastEpoch, accuracyToLr, logLossToLr);
    }
  }

  /**
   * Within {@link #FIRST_EPOCH_MARGIN} point of P=2 (the smallest P) after epoch 1 and {@link
   * #LAST_EPOCH_MARGIN} after the last, at every larger P; with more than two classes, within
   * {@link #MULTICLASS_MARGIN} point of LogisticRegression and a log-loss at most {@link
   * #MULTICLASS_LOG_LOSS_RATIO} times its, at every P. "Within" is a shortfall: a P that does
   * better than its reference meets the goal.
   */
  static Goals goals(Cell cell, int p) {
    List<Fit> run = cell.byPartitions().get(p);
    List<Fit> base = cell.base();
    Check first = Check.NONE;
    Check lastEpoch = Check.NONE;
    if (p != cell.baseP()) {
      first =
          Check.atLeast(gap(run.get(0).accuracy(), base.get(0).accuracy()), -FIRST_EPOCH_MARGIN);
      lastEpoch =
          Check.atLeast(gap(last(run).accuracy(), last(base).accuracy()), -LAST_EPOCH_MARGIN);
    }
    Check accuracy = Check.NONE;
    Check logLoss = Check.NONE;
    if (cell.multiclass() && cell.lr() != null) {
      accuracy = Check.atLeast(gap(last(run).accuracy(), cell.lr().accuracy()), -MULTICLASS_MARGIN);
      logLoss = Check.atMost(last(run).logLoss() / cell.lr().logLoss(), MULTICLASS_LOG_LOSS_RATIO);
    }
    return new Goals(first, lastEpoch, accuracy, logLoss);
  }

  /** Header of the summary: what produced it, and the shapes. */
  static String summary(String header, List<Fit> records) {
    List<Cell> cells = cells(records);
    StringBuilder out = new StringBuilder("# SGDClassifier on generated shapes\n\n");
    out.append(header).append('\n');
    out.append(overview(cells));
    out.append(grid(cells));
    out.append(references(cells));
    out.append(goalTable(cells));
    return out.toString();
  }

  private static String points(double value) {
    return String.format(Locale.ROOT, "%+.2f", value);
  }

  /** One row per shape and size: the references' and every P's accuracy after the last epoch. */
  static String overview(List<Cell> cells) {
    List<Integer> ps =
        cells.stream()
            .flatMap(c -> c.byPartitions().keySet().stream())
            .distinct()
            .sorted()
            .toList();
    StringBuilder out =
        new StringBuilder(
            "## Overview\n\nAccuracy after the last epoch at the smallest P and the references;"
                + " at larger P the gap to the smallest in points after epoch 1 and the last.\n\n"
                + "| shape | rows | LogisticRegression | full shuffle |");
    StringBuilder rule = new StringBuilder("|---|---:|---:|---:|");
    for (int p : ps) {
      out.append(String.format(Locale.ROOT, " P=%d |", p));
      rule.append("---:|");
    }
    out.append('\n').append(rule).append('\n');
    for (Cell c : cells) {
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %s | %s |",
              c.shape(),
              c.rows(),
              c.lr() == null ? "" : String.format(Locale.ROOT, "%.4f", c.lr().accuracy()),
              c.fullShuffle().isEmpty()
                  ? ""
                  : String.format(Locale.ROOT, "%.4f", last(c.fullShuffle()).accuracy())));
      for (int p : ps) {
        List<Fit> run = c.byPartitions().get(p);
        String value;
        if (run == null) {
          value = "";
        } else if (p == c.baseP()) {
          value = String.format(Locale.ROOT, "%.4f", last(run).accuracy());
        } else {
          value =
              points(gap(run.get(0).accuracy(), c.base().get(0).accuracy()))
                  + ", "
                  + points(gap(last(run).accuracy(), last(c.base()).accuracy()));
        }
        out.append(' ').append(value).append(" |");
      }
      out.append('\n');
    }
    return out.append('\n').toString();
  }

  /** Every run of the source: a row per shape, size and P. */
  static String grid(List<Cell> cells) {
    StringBuilder out =
        new StringBuilder(
            "## The whole grid\n\nGaps in points: to the smallest P of the same shape and size"
                + " (after epoch 1, after the last), and after the last epoch to"
                + " LogisticRegression and to the full shuffle's last epoch; log-loss after the"
                + " last epoch and its ratio to LogisticRegression's (n/a where that is 0);"
                + " rounds an epoch (the first"
                + " and the last where they differ); step the initial step size training used;"
                + " s/epoch the mean.\n\n"
                + "| shape | rows | P | rows/partition | rounds/epoch | step | epoch 1 | last"
                + " epoch | gap to smallest P (1st, last) | log-loss | to LR (points, log-loss"
                + " ratio) | to full shuffle | s/epoch |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Cell c : cells) {
      for (Map.Entry<Integer, List<Fit>> e : c.byPartitions().entrySet()) {
        List<Fit> run = e.getValue();
        Fit first = run.get(0);
        Fit end = last(run);
        String toLr =
            c.lr() == null
                ? ""
                : points(gap(end.accuracy(), c.lr().accuracy()))
                    + (c.lr().logLoss() > 0
                        ? String.format(Locale.ROOT, ", %.2fx", end.logLoss() / c.lr().logLoss())
                        : ", n/a");
        String toFull =
            c.fullShuffle().isEmpty()
                ? ""
                : points(gap(end.accuracy(), last(c.fullShuffle()).accuracy()));
        String rounds =
            first.rounds() == end.rounds()
                ? Integer.toString(end.rounds())
                : first.rounds() + ", " + end.rounds();
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %,d | %d | %,d | %s | %.3g | %.4f | %.4f | %s, %s | %.4f | %s | %s | %.2f"
                    + " |%n",
                c.shape(),
                c.rows(),
                e.getKey(),
                first.rowsPerPartition(),
                rounds,
                first.stepSize(),
                first.accuracy(),
                end.accuracy(),
                points(gap(first.accuracy(), c.base().get(0).accuracy())),
                points(gap(end.accuracy(), last(c.base()).accuracy())),
                end.logLoss(),
                toLr,
                toFull,
                run.stream().mapToDouble(Fit::seconds).average().orElse(Double.NaN)));
      }
    }
    return out.append('\n').toString();
  }

  /** The references of each shape and size. */
  static String references(List<Cell> cells) {
    StringBuilder out =
        new StringBuilder(
            "## References\n\nThe full shuffle: SGDClassifier with the same params on a copy of the"
                + " training rows in random order, read in storage order (`shuffle=none`) at P=2."
                + " LogisticRegression: MLlib's, at its defaults (multinomial for more than two"
                + " classes), on the training table; its fit time and L-BFGS iterations.\n\n"
                + "| shape | rows | classes | full shuffle epoch 1 | last epoch | log-loss |"
                + " LogisticRegression | log-loss | iterations | s |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Cell c : cells) {
      List<Fit> full = c.fullShuffle();
      Fit lr = c.lr();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,d | %d | %s | %s | %s | %s | %s | %s | %s |%n",
              c.shape(),
              c.rows(),
              c.classes(),
              full.isEmpty() ? "" : String.format(Locale.ROOT, "%.4f", full.get(0).accuracy()),
              full.isEmpty() ? "" : String.format(Locale.ROOT, "%.4f", last(full).accuracy()),
              full.isEmpty() ? "" : String.format(Locale.ROOT, "%.4f", last(full).logLoss()),
              lr == null ? "" : String.format(Locale.ROOT, "%.4f", lr.accuracy()),
              lr == null ? "" : String.format(Locale.ROOT, "%.4f", lr.logLoss()),
              lr == null ? "" : Integer.toString(lr.rounds()),
              lr == null ? "" : String.format(Locale.ROOT, "%.2f", lr.seconds())));
    }
    return out.append('\n').toString();
  }

  private static String verdict(Check c, String format) {
    return switch (c.verdict()) {
      case MET -> "met (" + String.format(Locale.ROOT, format, c.value()) + ")";
      case NOT_MET -> "**not met** (" + String.format(Locale.ROOT, format, c.value()) + ")";
      case NOT_APPLICABLE -> "n/a";
    };
  }

  /** Per cell and P, each goal met or not, then the counts. */
  static String goalTable(List<Cell> cells) {
    StringBuilder out =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "## Issue 42's goals%n%nPer shape, size and P: after epoch 1 within %.1f point of"
                    + " the smallest P (P=2), after the last epoch within %.1f point; with more"
                    + " than two classes, after the last epoch within %.1f point of"
                    + " LogisticRegression and a log-loss at most %.2fx its. \"Within\" means a"
                    + " shortfall: doing better than the reference meets a goal. Figures in"
                    + " brackets: the gap in points, or the log-loss ratio; n/a: the goal does"
                    + " not apply (the smallest P is the reference; two classes).%n%n"
                    + "| shape | rows | P | rows/partition | epoch 1 to P=2 | last epoch to P=2 |"
                    + " accuracy to LR | log-loss to LR |%n|---|---:|---:|---:|---|---|---|---|%n",
                FIRST_EPOCH_MARGIN,
                LAST_EPOCH_MARGIN,
                MULTICLASS_MARGIN,
                MULTICLASS_LOG_LOSS_RATIO));
    // per goal and P: met, not met
    List<TreeMap<Integer, int[]>> counts = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      counts.add(new TreeMap<>());
    }
    for (Cell c : cells) {
      for (int p : c.byPartitions().keySet()) {
        Goals g = goals(c, p);
        List<Check> all = g.all();
        for (int i = 0; i < all.size(); i++) {
          if (all.get(i).verdict() != Verdict.NOT_APPLICABLE) {
            counts.get(i)
                .computeIfAbsent(p, k -> new int[2])[all.get(i).verdict() == Verdict.MET ? 0 : 1]++;
          }
        }
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %,d | %d | %,d | %s | %s | %s | %s |%n",
                c.shape(),
                c.rows(),
                p,
                c.byPartitions().get(p).get(0).rowsPerPartition(),
                verdict(g.firstEpoch(), "%+.2f"),
                verdict(g.lastEpoch(), "%+.2f"),
                verdict(g.accuracyToLr(), "%+.2f"),
                verdict(g.logLossToLr(), "%.2fx")));
      }
    }
    return out.append('\n').append(counts(cells, counts)).toString();
  }

  private static final List<String> GOAL_NAMES =
      List.of(
          "epoch 1 within 1 point of P=2",
          "last epoch within 0.3 point of P=2",
          "multiclass accuracy within 0.5 point of LogisticRegression",
          "multiclass log-loss within 10% of LogisticRegression's");

  /** Per goal, the cells that met it of those it applies to: at every P, then in all. */
  private static String counts(List<Cell> cells, List<TreeMap<Integer, int[]>> counts) {
    List<Integer> ps =
        cells.stream()
            .flatMap(c -> c.byPartitions().keySet().stream())
            .distinct()
            .sorted()
            .toList();
    StringBuilder out =
        new StringBuilder("Cells that met each goal, of those it applies to:\n\n| goal |");
    StringBuilder rule = new StringBuilder("|---|");
    for (int p : ps) {
      out.append(String.format(Locale.ROOT, " P=%d |", p));
      rule.append("---:|");
    }
    out.append(" all |\n").append(rule).append("---:|\n");
    for (int i = 0; i < GOAL_NAMES.size(); i++) {
      out.append("| ").append(GOAL_NAMES.get(i)).append(" |");
      int met = 0;
      int total = 0;
      for (int p : ps) {
        int[] c = counts.get(i).get(p);
        if (c == null) {
          out.append(" n/a |");
        } else {
          out.append(String.format(Locale.ROOT, " %d of %d |", c[0], c[0] + c[1]));
          met += c[0];
          total += c[0] + c[1];
        }
      }
      out.append(String.format(Locale.ROOT, " %d of %d |%n", met, total));
    }
    return out.toString();
  }

  /**
   * The chart: per shape and size, the gap to the smallest P after the last epoch against rows per
   * partition (log scale), a colour per shape, the smaller size dashed; the goal's bound as a
   * dashed line.
   */
  static void plot(Path file, List<Fit> records) throws IOException {
    List<Cell> cells = cells(records);
    XYChart chart = ReportPlots.chart("rows per partition (log scale)", "gap to P=2 (points)");
    chart.setTitle("Accuracy after the last epoch: gap to P=2 of the same shape and size");
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setXAxisDecimalPattern("#,###");
    List<String> shapes = cells.stream().map(Cell::shape).distinct().toList();
    Map<String, Long> largest = new LinkedHashMap<>();
    for (Cell c : cells) {
      largest.merge(c.shape(), c.rows(), Math::max);
    }
    double minX = Double.POSITIVE_INFINITY;
    double maxX = 0;
    for (Cell c : cells) {
      List<Map.Entry<Integer, List<Fit>>> runs =
          c.byPartitions().entrySet().stream()
              .sorted(
                  Comparator.comparingLong(
                      (Map.Entry<Integer, List<Fit>> e) -> e.getValue().get(0).rowsPerPartition()))
              .toList();
      double[] x = new double[runs.size()];
      double[] y = new double[runs.size()];
      for (int i = 0; i < runs.size(); i++) {
        List<Fit> run = runs.get(i).getValue();
        x[i] = run.get(0).rowsPerPartition();
        y[i] = gap(last(run).accuracy(), last(c.base()).accuracy());
        minX = Math.min(minX, x[i]);
        maxX = Math.max(maxX, x[i]);
      }
      XYSeries s =
          ReportPlots.line(chart, String.format(Locale.ROOT, "%s %,d", c.shape(), c.rows()), x, y);
      if (s != null) {
        java.awt.Color color = ReportPlots.color(shapes.indexOf(c.shape()));
        s.setLineColor(color);
        s.setMarkerColor(color);
        // set either way: past the palette's 8 colours XChart would pick another line style
        if (c.rows() < largest.get(c.shape())) {
          ReportPlots.dash(s);
        } else {
          s.setLineStyle(SeriesLines.SOLID);
        }
      }
    }
    if (maxX > 0) {
      XYSeries goal =
          ReportPlots.reference(
              chart,
              String.format(Locale.ROOT, "goal: -%.1f", LAST_EPOCH_MARGIN),
              minX,
              maxX,
              -LAST_EPOCH_MARGIN);
      goal.setLineColor(new java.awt.Color(0x99, 0, 0));
    }
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapFormat.PNG);
    }
  }
}
