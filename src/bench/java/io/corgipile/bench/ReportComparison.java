package io.corgipile.bench;

import static io.corgipile.bench.BenchReport.ACCURACY_MARGIN;
import static io.corgipile.bench.BenchReport.find;

import java.util.List;
import java.util.Objects;

/** The runs of the {@code strategies} experiment on one dataset and the ratios the goals judge. */
final class ReportComparison {
  final List<BenchRun> runs;
  final BenchRun none;
  final BenchRun corgipile;
  final BenchRun fullShuffle;

  ReportComparison(List<BenchRun> runs) {
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
  double gapPoints(BenchRun run) {
    return run == null || fullShuffle == null
        ? Double.NaN
        : 100 * (run.last().testAccuracy() - fullShuffle.last().testAccuracy());
  }

  /** {@code run}'s final AUC minus full-shuffle's, in points; NaN when a side is missing. */
  double aucGapPoints(BenchRun run) {
    return run == null || fullShuffle == null
        ? Double.NaN
        : 100 * (run.last().testAuc() - fullShuffle.last().testAuc());
  }

  double target() {
    return Objects.requireNonNull(fullShuffle).last().testAccuracy() - ACCURACY_MARGIN;
  }

  private static double epochRatio(BenchRun a, BenchRun b) {
    return a == null || b == null ? Double.NaN : a.meanEpochSeconds() / b.meanEpochSeconds();
  }
}
