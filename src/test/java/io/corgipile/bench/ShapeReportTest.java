package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.bench.ShapeReport.Cell;
import io.corgipile.bench.ShapeReport.Check;
import io.corgipile.bench.ShapeReport.Fit;
import io.corgipile.bench.ShapeReport.Goals;
import io.corgipile.bench.ShapeReport.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The suite's report from a hand-made shapes.csv: gaps, goals met or not, counts, chart. */
class ShapeReportTest {
  @TempDir Path dir;

  /**
   * Two shapes of 1,000 rows, 2 epochs. noisy (2 classes), epoch 1 and 2 per P: P=2 0.9000 and
   * 0.9100; P=8 -0.50 and -0.20 points from it; P=32 -1.10 and exactly -0.30; P=128 exactly -1.00
   * and -0.31. classes (10 classes) against LogisticRegression's 0.8050 and log-loss 0.5500: P=2
   * exactly -0.50 points and 1.09x; P=8 -0.60 points and 1.11x. separable: one epoch at P=2,
   * LogisticRegression's log-loss 0.
   */
  private static final List<String> CSV =
      List.of(
          ShapeReport.CSV_HEADER,
          "noisy,1000,2,corgipile,2,1,11,0.3,0.9000,0.3000,1.000",
          "noisy,1000,2,corgipile,2,2,4,0.3,0.9100,0.2900,0.500",
          "noisy,1000,2,corgipile,8,1,11,0.3,0.8950,0.3000,1.000",
          "noisy,1000,2,corgipile,8,2,4,0.3,0.9080,0.2900,0.500",
          "noisy,1000,2,corgipile,32,1,4,0.3,0.8890,0.3000,1.000",
          "noisy,1000,2,corgipile,32,2,4,0.3,0.9070,0.2900,0.500",
          "noisy,1000,2,corgipile,128,1,2,0.3,0.8900,0.3000,1.000",
          "noisy,1000,2,corgipile,128,2,2,0.3,0.9069,0.2900,0.500",
          "noisy,1000,2,full-shuffle,2,1,10,0.3,0.9050,0.3000,1.000",
          "noisy,1000,2,full-shuffle,2,2,4,0.3,0.9120,0.2800,0.500",
          "noisy,1000,2,mllib-lr,1,0,9,,0.9150,0.2700,3.000",
          "classes,1000,10,corgipile,2,1,11,1,0.7800,0.7000,1.000",
          "classes,1000,10,corgipile,2,2,4,1,0.8000,0.6000,0.500",
          "classes,1000,10,corgipile,8,1,11,1,0.7700,0.7000,1.000",
          "classes,1000,10,corgipile,8,2,4,1,0.7990,0.6100,0.500",
          "classes,1000,10,mllib-lr,2,0,41,,0.8050,0.5500,5.000",
          "separable,1000,2,corgipile,2,1,11,10,0.9990,0.0300,1.000",
          "separable,1000,2,mllib-lr,1,0,49,,1.0000,0,1.000");

  private static List<Fit> records() {
    return CSV.subList(1, CSV.size()).stream().map(Fit::parse).toList();
  }

  private static Goals goals(String shape, int p) {
    Cell cell =
        ShapeReport.cells(records()).stream()
            .filter(c -> c.shape().equals(shape))
            .findFirst()
            .orElseThrow();
    return ShapeReport.goals(cell, p);
  }

  @Test
  void gapsArePointsOfAccuracyToTwoDecimals() {
    assertThat(ShapeReport.gap(0.9070, 0.9100)).isEqualTo(-0.30);
    assertThat(ShapeReport.gap(0.8900, 0.9000)).isEqualTo(-1.00);
    assertThat(ShapeReport.gap(0.9069, 0.9100)).isEqualTo(-0.31);
    assertThat(ShapeReport.gap(0.9123, 0.9100)).isEqualTo(0.23);
  }

  @Test
  void judgesEachGoalPerPartitionCountWithTheBoundsIncluded() {
    assertThat(goals("noisy", 2).all()).allMatch(c -> c.verdict() == Verdict.NOT_APPLICABLE);
    assertThat(goals("noisy", 8))
        .isEqualTo(
            new Goals(
                new Check(Verdict.MET, -0.50),
                new Check(Verdict.MET, -0.20),
                Check.NONE,
                Check.NONE));
    assertThat(goals("noisy", 32).firstEpoch()).isEqualTo(new Check(Verdict.NOT_MET, -1.10));
    assertThat(goals("noisy", 32).lastEpoch()).isEqualTo(new Check(Verdict.MET, -0.30));
    assertThat(goals("noisy", 128).firstEpoch()).isEqualTo(new Check(Verdict.MET, -1.00));
    assertThat(goals("noisy", 128).lastEpoch()).isEqualTo(new Check(Verdict.NOT_MET, -0.31));

    Goals two = goals("classes", 2);
    assertThat(two.firstEpoch().verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
    assertThat(two.accuracyToLr()).isEqualTo(new Check(Verdict.MET, -0.50));
    assertThat(two.logLossToLr().verdict()).isEqualTo(Verdict.MET);
    assertThat(two.logLossToLr().value())
        .isCloseTo(0.6 / 0.55, org.assertj.core.data.Offset.offset(1e-12));
    Goals eight = goals("classes", 8);
    assertThat(eight.accuracyToLr()).isEqualTo(new Check(Verdict.NOT_MET, -0.60));
    assertThat(eight.logLossToLr().verdict()).isEqualTo(Verdict.NOT_MET);
    assertThat(eight.firstEpoch()).isEqualTo(new Check(Verdict.MET, -1.00));
    assertThat(eight.lastEpoch()).isEqualTo(new Check(Verdict.MET, -0.10));
  }

  @Test
  void summaryReportsTheWholeGridTheReferencesAndTheCounts() {
    String summary = ShapeReport.summary("header\n", records());
    assertThat(summary)
        // overview: the smallest P's accuracy, the others' gaps after epoch 1 and the last
        .contains("| shape | rows | LogisticRegression | full shuffle | P=2 | P=8 | P=32 | P=128 |")
        .contains(
            "| noisy | 1,000 | 0.9150 | 0.9120 | 0.9100 | -0.50, -0.20 | -1.10, -0.30 |"
                + " -1.00, -0.31 |")
        .contains("| classes | 1,000 | 0.8050 |  | 0.8000 | -1.00, -0.10 |  |  |")
        // every P of the grid, with its gaps to LogisticRegression and the full shuffle
        .contains(
            "| noisy | 1,000 | 2 | 500 | 11, 4 | 0.300 | 0.9000 | 0.9100 | +0.00, +0.00 |"
                + " 0.2900 | -0.50, 1.07x | -0.20 | 0.75 |")
        .contains(
            "| noisy | 1,000 | 128 | 8 | 2 | 0.300 | 0.8900 | 0.9069 | -1.00, -0.31 |"
                + " 0.2900 | -0.81, 1.07x | -0.51 | 0.75 |")
        .contains(
            "| classes | 1,000 | 8 | 125 | 11, 4 | 1.00 | 0.7700 | 0.7990 | -1.00, -0.10 |"
                + " 0.6100 | -0.60, 1.11x |  | 0.75 |")
        .contains("| noisy | 1,000 | 2 | 0.9050 | 0.9120 | 0.2800 | 0.9150 | 0.2700 | 9 | 3.00 |")
        // a ratio to a log-loss of 0 (LogisticRegression on separable data) is none
        .contains(
            "| separable | 1,000 | 2 | 500 | 11 | 10.0 | 0.9990 | 0.9990 | +0.00, +0.00 |"
                + " 0.0300 | -0.10, n/a |  | 1.00 |")
        .contains("| noisy | 1,000 | 32 | 31 | **not met** (-1.10) | met (-0.30) | n/a | n/a |")
        .contains("| noisy | 1,000 | 128 | 8 | met (-1.00) | **not met** (-0.31) | n/a | n/a |")
        .contains("| classes | 1,000 | 2 | 500 | n/a | n/a | met (-0.50) | met (1.09x) |")
        .contains(
            "| classes | 1,000 | 8 | 125 | met (-1.00) | met (-0.10) | **not met** (-0.60) |"
                + " **not met** (1.11x) |")
        .contains("| goal | P=2 | P=8 | P=32 | P=128 | all |")
        .contains("| epoch 1 within 1 point of P=2 | n/a | 2 of 2 | 0 of 1 | 1 of 1 | 3 of 4 |")
        .contains(
            "| last epoch within 0.3 point of P=2 | n/a | 2 of 2 | 1 of 1 | 0 of 1 | 3 of 4 |")
        .contains(
            "| multiclass accuracy within 0.5 point of LogisticRegression | 1 of 1 | 0 of 1 | n/a"
                + " | n/a | 1 of 2 |")
        .contains(
            "| multiclass log-loss within 10% of LogisticRegression's | 1 of 1 | 0 of 1 | n/a |"
                + " n/a | 1 of 2 |");
  }

  @Test
  void rebuildsTheSummaryAndTheChartFromACsv() throws Exception {
    Path csv = dir.resolve("shapes.csv");
    Files.write(csv, CSV);
    Path out = dir.resolve("out");
    ShapeSuite.main(new String[] {"--from-csv", csv.toString(), "--out", out.toString()});
    assertThat(Files.readString(out.resolve(ShapeReport.SUMMARY)))
        .contains("rebuilt from " + csv)
        .contains("| noisy | 2 | 20 | dense | label |")
        .contains("| classes | 10 | 50 | dense | label |");
    byte[] png = Files.readAllBytes(out.resolve(ShapeReport.PLOT));
    assertThat(Arrays.copyOf(png, 4)).isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
  }

  @Test
  void aCsvLineReadsBackAsWritten() {
    for (String line : CSV.subList(1, CSV.size())) {
      Fit f = Fit.parse(line);
      assertThat(Fit.parse(f.csv())).isEqualTo(f);
    }
    assertThat(Fit.parse("noisy,1000,2,mllib-lr,1,0,9,,0.9150,0.2700,3.000").stepSize()).isNaN();
    // log-loss to 6 significant digits: LogisticRegression's on separable data is tiny
    assertThat(new Fit("s", 1000, 2, "mllib-lr", 1, 0, 49, Double.NaN, 1, 1.23456789e-5, 1).csv())
        .isEqualTo("s,1000,2,mllib-lr,1,0,49,,1.0000,1.23457e-05,1.000");
    assertThatThrownBy(() -> Fit.parse("noisy,1000"))
        .hasMessageStartingWith("Cannot read shapes.csv line 'noisy,1000': expected the columns");
  }

  @Test
  void quickRunsAFewShapesAtTheSmallSizeIntoTarget() {
    ShapeSuite.Settings quick = ShapeSuite.Settings.parse(new String[] {"--quick"});
    assertThat(quick.shapes().stream().map(Shapes.Shape::name).toList())
        .isEqualTo(ShapeSuite.QUICK_SHAPES);
    assertThat(quick.rows()).containsExactly(12_800);
    assertThat(quick.out()).isEqualTo(Path.of("target/shapes-quick"));
    ShapeSuite.Settings all =
        ShapeSuite.Settings.parse(new String[] {"--rows", "6400,200k", "--partitions", "2,128"});
    assertThat(all.shapes()).isEqualTo(Shapes.ALL);
    assertThat(all.rows()).containsExactly(6_400, 200_000);
    assertThat(all.partitions()).containsExactly(2, 128);
    assertThat(all.epochs()).isEqualTo(5);
    assertThat(all.out()).isEqualTo(Path.of("docs/benchmarks/results/shapes"));
    assertThatThrownBy(() -> ShapeSuite.Settings.parse(new String[] {"--rows", "12,800"}))
        .hasMessage(
            "Cannot use --rows '12': expected a comma list of counts of at least 1024"
                + " (12800,200k)");
  }
}
