package io.corgipile.bench;

import static io.corgipile.bench.BenchReport.ACCURACY_MARGIN;
import static io.corgipile.bench.BenchReport.BUFFER_SWEEP;
import static io.corgipile.bench.BenchReport.MAX_SLOWDOWN_VS_NONE;
import static io.corgipile.bench.BenchReport.MIN_SPEEDUP_VS_FULL_SHUFFLE;
import static io.corgipile.bench.BenchReport.STRATEGIES;
import static io.corgipile.bench.BenchReport.select;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** {@code summary.md}: per dataset the strategies' table, the ratios, the goals and the plots. */
final class ReportSummary {
  private static final String NA = "n/a";
  private static final String MARGIN_POINTS =
      String.format(Locale.ROOT, "%.1f points", 100 * ACCURACY_MARGIN);

  private ReportSummary() {}

  static String render(
      List<BenchRun> runs,
      List<String> csvFiles,
      Map<String, List<ReportPlots.Plot>> plots,
      String header,
      String notes) {
    StringBuilder md =
        new StringBuilder("# Convergence benchmark: CorgiPile against the other orders\n\n");
    md.append(blankOr(header, "(the runner did not say how the run was made)")).append("\n\n");
    md.append("Measurements, one line per epoch of every run: ")
        .append(
            csvFiles.stream().map(f -> "[" + f + "](" + f + ")").collect(Collectors.joining(", ")))
        .append(csvFiles.isEmpty() ? "none (no records)" : "")
        .append(
            ". Numbers are written exactly (Java's Double.toString and Long.toString); a value that"
                + " was not measured (MLlib's objective and shuffle quality, a run without a"
                + " buffer) is written `NaN`. Strings are quoted only when they hold a comma, a"
                + " quote or a line break.\n");
    for (Map.Entry<String, List<ReportPlots.Plot>> e : plots.entrySet()) {
      dataset(md, e.getKey(), runs, e.getValue());
    }
    definitions(md);
    md.append("\n## Notes\n\n").append(blankOr(notes, "(none)")).append('\n');
    return md.toString();
  }

  private static void dataset(
      StringBuilder md, String dataset, List<BenchRun> runs, List<ReportPlots.Plot> plots) {
    md.append("\n## ").append(dataset).append('\n');
    ReportComparison c = new ReportComparison(select(runs, STRATEGIES, dataset));
    if (!c.runs.isEmpty()) {
      md.append("\n### Strategies (experiment `").append(STRATEGIES).append("`)\n\n");
      table(md, c.runs);
      ratios(md, c);
      timeToTarget(md, c);
      goals(md, c, select(runs, BUFFER_SWEEP, dataset));
    }
    List<BenchRun> sweep = select(runs, BUFFER_SWEEP, dataset);
    if (!sweep.isEmpty()) {
      md.append("\n### CorgiPile by buffer size (experiment `")
          .append(BUFFER_SWEEP)
          .append("`)\n\n");
      table(md, sweep);
    }
    if (!plots.isEmpty()) {
      md.append("\n### Plots\n\n");
      plots.forEach(
          p -> md.append("![").append(p.caption()).append("](").append(p.file()).append(")\n\n"));
    }
  }

  private static void table(StringBuilder md, List<BenchRun> runs) {
    md.append(
        "| run | buffer | final accuracy | final AUC | epochs | mean epoch s | total s | mean MiB"
            + " read / epoch | mean MiB from storage / epoch | mean shuffle quality | peak heap MiB"
            + " | peakBufferBytes MiB |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (BenchRun r : runs) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |\n",
              cell(r.strategy()),
              percent(r.bufferPercent()),
              f4(r.last().testAccuracy()),
              f4(r.last().testAuc()),
              r.epochs().size(),
              f3(r.meanEpochSeconds()),
              f3(r.last().cumulativeSeconds()),
              mib(r.meanBytesRead()),
              mib(r.meanStorageBytesRead()),
              sci(r.meanShuffleQuality()),
              mib(r.peakHeapBytes()),
              r.peakBufferBytes() < 0 ? "" : mib(r.peakBufferBytes())));
    }
  }

  private static void ratios(StringBuilder md, ReportComparison c) {
    md.append("\n### Ratios\n\n");
    md.append("- corgipile / none, mean epoch seconds: ")
        .append(ratio(c.corgipileVsNone()))
        .append(sides(c.corgipile, c.none))
        .append('\n');
    md.append("- full-shuffle / corgipile, mean epoch seconds: ")
        .append(ratio(c.fullShuffleVsCorgipile()))
        .append(sides(c.fullShuffle, c.corgipile))
        .append('\n');
    md.append("- corgipile - full-shuffle, final accuracy: ")
        .append(points(c.gapPoints()))
        .append('\n');
    md.append("- corgipile - full-shuffle, final AUC: ")
        .append(points(c.aucGapPoints(c.corgipile)))
        .append('\n');
  }

  /** " (1.100 s / 1.000 s)", the two mean epoch times behind a ratio, when both runs exist. */
  private static String sides(BenchRun a, BenchRun b) {
    return a == null || b == null
        ? ""
        : " (" + f3(a.meanEpochSeconds()) + " s / " + f3(b.meanEpochSeconds()) + " s)";
  }

  private static void timeToTarget(StringBuilder md, ReportComparison c) {
    md.append("\n### Time to target\n\n");
    if (c.fullShuffle == null) {
      md.append("No `full-shuffle` run, so no target.\n");
      return;
    }
    md.append("Target: full-shuffle's final accuracy ")
        .append(f4(c.fullShuffle.last().testAccuracy()))
        .append(" - ")
        .append(ACCURACY_MARGIN)
        .append(" = ")
        .append(f4(c.target()))
        .append(".\n\n");
    md.append("| run | seconds to target | at epoch |\n|---|---:|---:|\n");
    for (BenchRun r : c.runs) {
      EpochRecord hit = r.firstReaching(c.target());
      md.append("| ")
          .append(cell(r.strategy()))
          .append(" | ")
          .append(hit == null ? "not reached" : f3(hit.cumulativeSeconds()))
          .append(" | ")
          .append(hit == null ? "-" : String.valueOf(hit.epoch()))
          .append(" |\n");
    }
  }

  private static void goals(StringBuilder md, ReportComparison c, List<BenchRun> sweep) {
    md.append("\n### Goals\n\n");
    goal(
        md,
        "corgipile's final accuracy at most " + MARGIN_POINTS + " below full-shuffle's",
        c.gapPoints() >= -100 * ACCURACY_MARGIN,
        c.gapPoints(),
        points(c.gapPoints()),
        accuracyEvidence(c.corgipile, c.fullShuffle),
        () -> accuracyWhy(c, sweep));
    if (c.gapPoints(c.none) >= -100 * ACCURACY_MARGIN) {
      md.append(
              "  - This goal does not separate the orders on this dataset: none, which does not"
                  + " shuffle at all, also ends ")
          .append(points(c.gapPoints(c.none)))
          .append(
              " from full-shuffle. AUC, which ranks"
                  + " the test rows instead of thresholding them, does: corgipile - full-shuffle ")
          .append(points(c.aucGapPoints(c.corgipile)))
          .append(", none - full-shuffle ")
          .append(points(c.aucGapPoints(c.none)))
          .append(".\n");
    }
    goal(
        md,
        "corgipile's mean epoch at most " + MAX_SLOWDOWN_VS_NONE + "x none's",
        c.corgipileVsNone() <= MAX_SLOWDOWN_VS_NONE,
        c.corgipileVsNone(),
        ratio(c.corgipileVsNone()),
        epochEvidence(c.corgipile, c.none),
        () -> slowdownWhy(c));
    goal(
        md,
        "full-shuffle's mean epoch at least " + MIN_SPEEDUP_VS_FULL_SHUFFLE + "x corgipile's",
        c.fullShuffleVsCorgipile() >= MIN_SPEEDUP_VS_FULL_SHUFFLE,
        c.fullShuffleVsCorgipile(),
        ratio(c.fullShuffleVsCorgipile()),
        epochEvidence(c.fullShuffle, c.corgipile),
        () -> speedupWhy(c));
  }

  /**
   * Why corgipile ended lower, from the runs: how its stream mixed labels, and what the sweep
   * shows.
   */
  private static String accuracyWhy(ReportComparison c, List<BenchRun> sweep) {
    String why =
        "corgipile's stream mixed labels less than full-shuffle's (mean shuffle quality "
            + sci(c.corgipile.meanShuffleQuality())
            + " against "
            + sci(c.fullShuffle.meanShuffleQuality())
            + "; lower is better mixed)";
    BenchRun smallest =
        sweep.stream()
            .filter(
                r ->
                    100 * (r.last().testAccuracy() - c.fullShuffle.last().testAccuracy())
                        >= -100 * ACCURACY_MARGIN)
            .min(Comparator.comparingDouble(BenchRun::bufferPercent))
            .orElse(null);
    return why
        + (sweep.isEmpty()
            ? "."
            : smallest == null
                ? "; no buffer size of the sweep ends within " + MARGIN_POINTS + " of it either."
                : "; in the sweep, a buffer of "
                    + percent(smallest.bufferPercent())
                    + " ends within "
                    + MARGIN_POINTS
                    + " of it ("
                    + f4(smallest.last().testAccuracy())
                    + ").");
  }

  /**
   * Why corgipile's epoch took longer than none's: bytes read tell I/O from work in the process.
   */
  private static String slowdownWhy(ReportComparison c) {
    double bytes = c.corgipile.meanBytesRead() / c.none.meanBytesRead();
    String extra = f3(c.corgipile.meanEpochSeconds() - c.none.meanEpochSeconds());
    return Math.abs(bytes - 1) <= 0.1
        ? "Both read about the same bytes per epoch ("
            + ratio(bytes)
            + "), so the extra "
            + extra
            + " s per epoch went to work in the process, not to reading: filling, shuffling and"
            + " emitting the buffer, and the random order's cost on the reader (a new row group on"
            + " every block)."
        : "corgipile read "
            + ratio(bytes)
            + " none's bytes per epoch; the extra "
            + extra
            + " s per epoch is partly that.";
  }

  /** Why a full shuffle was not 3x slower: how much more it read than a scan. */
  private static String speedupWhy(ReportComparison c) {
    double bytes = c.fullShuffle.meanBytesRead() / c.corgipile.meanBytesRead();
    String numbers =
        "A full-shuffle epoch read "
            + ratio(bytes)
            + " corgipile's bytes through read calls (Spark"
            + " maps shuffle blocks over 2 MB into memory instead, uncounted)";
    return bytes < 1.5
        ? numbers
            + ": the table ("
            + mib(c.corgipile.meanBytesRead())
            + " MiB per pass) and its shuffle files stayed in memory and the page cache, so a full"
            + " shuffle cost a sort's CPU and memory traffic rather than more passes over storage."
            + " The goal's 3x presumes tables larger than memory, whose sort spills to disk and"
            + " whose shuffle reads back from it."
        : numbers
            + ": it did read more, but fast enough (page cache or disk) to stay under 3x a"
            + " corgipile epoch.";
  }

  /**
   * One goal: MET or MISSED with the measured number and the numbers behind it, and for a missed
   * goal why (from the runs, which are all present then), or NOT MEASURED.
   */
  private static void goal(
      StringBuilder md,
      String statement,
      boolean met,
      double measured,
      String shown,
      String evidence,
      Supplier<String> why) {
    if (Double.isNaN(measured)) {
      md.append("- **NOT MEASURED**: ").append(statement).append(": a run it needs is missing.\n");
      return;
    }
    md.append("- **")
        .append(met ? "MET" : "MISSED")
        .append("**: ")
        .append(statement)
        .append(": measured ")
        .append(shown)
        .append(". ")
        .append(evidence)
        .append(met ? "" : " Why: " + why.get())
        .append('\n');
  }

  private static String accuracyEvidence(BenchRun corgipile, BenchRun fullShuffle) {
    return "corgipile reached "
        + reached(corgipile)
        + "; full-shuffle reached "
        + reached(fullShuffle)
        + ".";
  }

  private static String reached(BenchRun r) {
    return r == null ? NA : f4(r.last().testAccuracy()) + " after " + r.epochs().size() + " epochs";
  }

  private static String epochEvidence(BenchRun a, BenchRun b) {
    return perEpoch(a) + "; " + perEpoch(b) + ".";
  }

  private static String perEpoch(BenchRun r) {
    return r == null
        ? NA
        : r.strategy()
            + ": "
            + f3(r.meanEpochSeconds())
            + " s and "
            + mib(r.meanBytesRead())
            + " MiB read per epoch";
  }

  private static void definitions(StringBuilder md) {
    md.append("\n## Definitions\n\n");
    md.append(
            String.join(
                "\n",
                "- run: one training run; in `"
                    + STRATEGIES
                    + "` every strategy trains with a 10% buffer, in `"
                    + BUFFER_SWEEP
                    + "` corgipile trains at each buffer size.",
                "- buffer: the shuffle buffer as a percent of a partition's rows; n/a for"
                    + " strategies without one.",
                "- final accuracy, final AUC: test accuracy and area under the ROC curve on the"
                    + " test set after the run's last epoch.",
                "- epochs: epochs the run trained; MLlib's batch solvers (mllib-lr, mllib-svc)"
                    + " report their whole fit as one epoch.",
                "- mean epoch s: wall-clock seconds of an epoch, averaged over the run's epochs"
                    + " (for MLlib: the fit).",
                "- total s: seconds from the run's start to the end of its last epoch.",
                "- mean MiB read / epoch: bytes the JVM read during an epoch's job (rchar of"
                    + " /proc/self/io: Parquet and shuffle files, from disk or page cache; for"
                    + " MLlib: the whole fit), averaged, in MiB (2^20 bytes). Spark memory-maps"
                    + " shuffle blocks over 2 MB and such reads are not counted, so a full"
                    + " shuffle's count is a lower bound.",
                "- mean shuffle quality: the variance, across the buffer-sized chunks of each"
                    + " partition's stream, of the share of positive labels, averaged over the"
                    + " epochs; lower is better shuffled (a uniform shuffle gives about"
                    + " p(1-p)/chunk, sorted data read in order up to p(1-p)); n/a where not"
                    + " measured.",
                "- mean MiB from storage / epoch: bytes the kernel fetched from storage for the JVM"
                    + " during an epoch's job (read_bytes of /proc/self/io: page cache hits are not"
                    + " counted, readahead and memory-mapped shuffle reads are), averaged; n/a in"
                    + " runs measured before issue 13.",
                "- peak heap MiB: the peak of used heap during the run (driver and executors share"
                    + " a JVM in local mode), sampled every "
                    + HeapPeak.SAMPLE_MILLIS
                    + " ms and taken before every garbage collection; used heap includes garbage"
                    + " not yet collected, so it depends on when the collector ran. Runs measured"
                    + " before issue 13 report the sum of each heap pool's peak instead (an upper"
                    + " bound).",
                "- peakBufferBytes MiB: the scan metric of the same name, the most memory one"
                    + " task's shuffle buffers allocated (two buffers with prefetch); 0 without"
                    + " buffers, empty in runs measured before issue 13.",
                "- corgipile / none, mean epoch seconds: corgipile's mean epoch time over none's"
                    + " (no shuffle at all): the cost of CorgiPile's shuffle; the goal is at most "
                    + MAX_SLOWDOWN_VS_NONE
                    + "x.",
                "- full-shuffle / corgipile, mean epoch seconds: how many times longer a fully"
                    + " shuffled epoch takes than a CorgiPile epoch; the goal is at least "
                    + MIN_SPEEDUP_VS_FULL_SHUFFLE
                    + "x.",
                "- corgipile - full-shuffle, final accuracy: the difference of the final test"
                    + " accuracies, in points (1 point = 0.01 accuracy); negative when corgipile"
                    + " ends lower. The goal is at least -"
                    + MARGIN_POINTS
                    + " (corgipile may end higher).",
                "- corgipile - full-shuffle, final AUC: the same for the area under the ROC curve,"
                    + " which does not depend on a threshold: where every order ends at the"
                    + " majority class's accuracy, it still separates them.",
                "- seconds to target: the total seconds at the end of the first epoch whose test"
                    + " accuracy is at or above the target (full-shuffle's final accuracy - "
                    + ACCURACY_MARGIN
                    + "); \"not reached\" "
                    + "if no epoch is.",
                "- MET / MISSED: the goal's test on the measured number; NOT MEASURED when a run it"
                    + " needs is absent."))
        .append('\n');
  }

  private static String blankOr(String text, String otherwise) {
    return text == null || text.isBlank() ? otherwise : text.strip();
  }

  private static String cell(String s) {
    return s.replace("|", "\\|");
  }

  static String percent(double p) {
    return Double.isNaN(p)
        ? NA
        : (p == Math.rint(p) ? String.valueOf((long) p) : String.valueOf(p)) + "%";
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
