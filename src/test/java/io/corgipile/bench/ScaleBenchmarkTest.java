package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.ml.SGDParams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scale benchmark's report, from a CSV made here: summary, cost model and charts. */
class ScaleBenchmarkTest {
  @TempDir Path dir;

  /**
   * Epoch seconds that follow 1 s + 0.02 s per task + 0.05 s per round exactly, so the model must
   * find them; the bytes do not vary, so they cannot explain anything. In the columns of the CSVs
   * from before minPartitionRows, without the partitions that trained.
   */
  private static List<String> csv() {
    List<String> lines =
        new ArrayList<>(
            List.of(
                "dataset,partitions,bufferSize,syncInterval,syncStepSize,"
                    + "syncMomentum,deltaCompression,epoch,rounds,testAccuracy,seconds,"
                    + "bytesToExecutors,bytesFromExecutors"));
    for (int p : new int[] {2, 8, 32, 64}) {
      for (String sync : new String[] {"epoch", "buffer"}) {
        int rounds = sync.equals("epoch") ? 1 : 10 - p / 8;
        for (int epoch = 1; epoch <= 3; epoch++) {
          double seconds = 1 + 0.02 * p * rounds + 0.05 * rounds;
          double accuracy = 0.9 - 0.01 * p / 8.0 + 0.01 * epoch;
          lines.add(
              String.format(
                  Locale.ROOT,
                  "blobs,%d,auto,%s,1.0,0.8,none,%d,%d,%.4f,%.3f,1000,0",
                  p,
                  sync,
                  epoch,
                  rounds,
                  accuracy,
                  seconds));
        }
      }
    }
    return lines;
  }

  /**
   * A line of today's CSV, whose last column is the partitions that trained, and one from before
   * minPartitionRows, which trained in the input's partitions.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "higgs,32,auto,buffer,1.0,0.0,none,2,8,0.6438,1.270,3174,724684,10 | 10",
        "higgs,32,auto,buffer,1.0,0.0,none,2,8,0.6438,1.270,3174,724684 | 32"
      })
  void readsThePartitionsThatTrainedOrTheInputsWhereTheLineHasNone(String line, int trained) {
    ScaleBenchmark.Epoch e = ScaleBenchmark.Epoch.parse(line);

    assertThat(e.partitions()).isEqualTo(32);
    assertThat(e.trainedPartitions()).isEqualTo(trained);
    assertThat(e.bytesFrom()).isEqualTo(724_684);
  }

  /** The committed runs' CSVs, which {@code --from-csv} rebuilds summaries from. */
  @Test
  void readsEveryCommittedScaleCsv() throws Exception {
    List<Path> csvs;
    try (var dirs = Files.list(Path.of("docs/benchmarks/results"))) {
      csvs =
          dirs.filter(d -> d.getFileName().toString().startsWith("scale"))
              .map(d -> d.resolve("scale.csv"))
              .filter(Files::isRegularFile)
              .toList();
    }
    assertThat(csvs).isNotEmpty();
    for (Path csv : csvs) {
      List<String> lines = Files.readAllLines(csv);
      assertThat(lines.get(0))
          .as(csv.toString())
          .isIn(ScaleBenchmark.CSV_HEADER, ScaleBenchmark.OLD_CSV_HEADER);
      for (String line : lines.subList(1, lines.size())) {
        ScaleBenchmark.Epoch e = ScaleBenchmark.Epoch.parse(line);
        if (lines.get(0).equals(ScaleBenchmark.OLD_CSV_HEADER)) {
          assertThat(e.trainedPartitions()).as(line).isEqualTo(e.partitions());
        }
      }
    }
  }

  /**
   * A CSV whose runs at the input's {@code partitions[i]} trained in {@code trained[i]}, each epoch
   * costing 1 s + 0.02 s per task + 0.05 s per round, a task per partition that trained in every
   * round; once per epoch and a round per buffer, 12 - trained / 2 of them.
   */
  private static List<String> csv(int[] partitions, int[] trained) {
    List<String> lines = new ArrayList<>(List.of(ScaleBenchmark.CSV_HEADER));
    for (int i = 0; i < partitions.length; i++) {
      for (String sync : new String[] {"epoch", "buffer"}) {
        int rounds = sync.equals("epoch") ? 1 : 12 - trained[i] / 2;
        for (int epoch = 1; epoch <= 3; epoch++) {
          lines.add(
              String.format(
                  Locale.ROOT,
                  "blobs,%d,auto,%s,1.0,0.8,none,%d,%d,0.9000,%.3f,1000,0,%d",
                  partitions[i],
                  sync,
                  epoch,
                  rounds,
                  1 + 0.02 * trained[i] * rounds + 0.05 * rounds,
                  trained[i]));
        }
      }
    }
    return lines;
  }

  /**
   * At P 32 and 128 both runs trained in 20 partitions: the model counts their tasks, and the
   * tables name them, by the 20.
   */
  @Test
  void theCostModelCountsThePartitionsThatTrained() throws Exception {
    Path csv = dir.resolve("scale.csv");
    Files.write(csv, csv(new int[] {2, 4, 8, 16, 32, 128}, new int[] {2, 4, 8, 16, 20, 20}));
    Path out = dir.resolve("out");
    ScaleBenchmark.main(
        new String[] {
          "--from-csv",
          csv.toString(),
          "--partitions",
          "2,4,8,16,32,128",
          "--epochs",
          "3",
          "--out",
          out.toString()
        });

    String epoch = "syncInterval=epoch, syncMomentum=0.8, deltaCompression=none";
    String buffer = "syncInterval=buffer, syncMomentum=0.8, deltaCompression=none";
    assertThat(Files.readString(out.resolve("summary.md")))
        .contains("| blobs | " + epoch + " | 8 | 1 |")
        .contains("| blobs | " + epoch + " | 128 (20) | 1 |")
        .contains("P is the input's partitions, in brackets the partitions that trained")
        .contains("runs that trained in 4 and 8 partitions, the fewest above the 2 cores")
        .contains("blobs: 1.000 s + 0.0200 s per task + 0.0500 s per round + 0.0000 s per MiB.")
        .contains("| " + epoch + " | 16 | 16 | 1.37 | 1.37 | +0% |")
        .contains("| " + epoch + " | 32 (20) | 20 | 1.45 | 1.45 | +0% |")
        .contains("| " + epoch + " | 128 (20) | 20 | 1.45 | 1.45 | +0% |")
        .contains("| " + buffer + " | 128 (20) | 40 | 1.90 | 1.90 | +0% |");
  }

  /**
   * The estimator's run at P=32 trained in 8 partitions, as many as the pilot's at P=8: it is a
   * pilot run, not predicted; the baseline's at P=32 and 64 trained in theirs, and are.
   */
  @Test
  void runsThatTrainedInAsManyPartitionsAsThePilotAreNotPredicted() {
    List<String> lines = csv(new int[] {4, 8, 32}, new int[] {4, 8, 8});
    for (int p : new int[] {32, 64}) {
      for (int epoch = 1; epoch <= 3; epoch++) {
        lines.add(
            String.format(
                Locale.ROOT,
                "blobs,%d,auto,gradavg,0.1,0.0,none,%d,50,0.9000,%.3f,1000,0,%d",
                p,
                epoch,
                1 + 0.02 * p * 50 + 0.05 * 50,
                p));
      }
    }
    List<ScaleBenchmark.Epoch> epochs =
        lines.stream().skip(1).map(ScaleBenchmark.Epoch::parse).toList();

    assertThat(
            ScaleBenchmark.costModel(
                ScaleBenchmark.Settings.parse(new String[] {"--cores", "2"}), epochs))
        .contains("runs that trained in 4 and 8 partitions, the fewest above the 2 cores")
        .contains("| gradavg, lr=0.1 | 32 | 1600 | 35.50 | 35.50 | +0% |")
        .contains("| gradavg, lr=0.1 | 64 | 3200 | 67.50 | 67.50 | +0% |")
        .doesNotContain("32 (8)");
  }

  /** Inputs at 4 P above the cores that trained in 2 sizes are 2 sizes: too few to predict. */
  @Test
  void theCostModelNeedsThreeSizesThatTrained() {
    List<ScaleBenchmark.Epoch> epochs =
        csv(new int[] {4, 32, 64, 128}, new int[] {4, 20, 20, 20}).stream()
            .skip(1)
            .map(ScaleBenchmark.Epoch::parse)
            .toList();

    assertThat(
            ScaleBenchmark.costModel(
                ScaleBenchmark.Settings.parse(new String[] {"--cores", "2"}), epochs))
        .contains(
            "Not fitted: it needs runs that trained in 3 or more numbers of partitions above the 2"
                + " cores.");
  }

  @Test
  void minPartitionRowsIsTheParamsDefaultUnlessAskedAndHeadsTheSummary() {
    List<ScaleBenchmark.Epoch> epochs =
        List.of(
            new ScaleBenchmark.Epoch(
                "blobs", 2, "epoch", 1.0, 0.0, "none", 1, 1, 0.9, 1.0, 1000, 0, 2));
    ScaleBenchmark.Settings defaults = ScaleBenchmark.Settings.parse(new String[0]);
    ScaleBenchmark.Settings asked =
        ScaleBenchmark.Settings.parse(new String[] {"--min-partition-rows", "1_000"});

    assertThat(defaults.minPartitionRows()).isEqualTo(SGDParams.DEFAULT_MIN_PARTITION_ROWS);
    assertThat(ScaleBenchmark.summary(asked, epochs))
        .contains("5 epochs, minPartitionRows 1,000, estimator defaults otherwise");
  }

  @Test
  void roundsPerEpochNameTheFirstAndTheLastEpochsWhereTheyDiffer() {
    List<ScaleBenchmark.Epoch> epochs = new ArrayList<>();
    for (int epoch = 1;
        epoch <= 3;
        epoch++) { // syncInterval=auto: a round per buffer first, then 4
      epochs.add(
          new ScaleBenchmark.Epoch(
              "blobs",
              2,
              "auto",
              1.0,
              0.8,
              "none",
              epoch,
              epoch == 1 ? 10 : 4,
              0.9,
              1.0,
              1000,
              0,
              2));
      epochs.add(
          new ScaleBenchmark.Epoch(
              "blobs", 2, "epoch", 1.0, 0.8, "none", epoch, 1, 0.9, 1.0, 1000, 0, 2));
    }
    String summary =
        ScaleBenchmark.summary(
            ScaleBenchmark.Settings.parse(new String[] {"--partitions", "2", "--epochs", "3"}),
            epochs);
    assertThat(summary)
        .contains(
            "| blobs | syncInterval=auto, syncMomentum=0.8, deltaCompression=none | 2 | 10, 4 |")
        .contains("| blobs | syncInterval=epoch, syncMomentum=0.8, deltaCompression=none | 2 | 1 |")
        .contains("Rounds/epoch are the first epoch's and the last's where they differ");
  }

  @Test
  void rebuildsTheSummaryCostModelAndChartsFromARunsCsv() throws Exception {
    Path csv = dir.resolve("scale.csv");
    Files.write(csv, csv());
    Path out = dir.resolve("out");
    ScaleBenchmark.main(
        new String[] {
          "--from-csv",
          csv.toString(),
          "--partitions",
          "2,8,32,64",
          "--epochs",
          "3",
          "--out",
          out.toString()
        });

    String summary = Files.readString(out.resolve("summary.md"));
    assertThat(summary)
        .contains("3 epochs")
        .contains(
            "| blobs | syncInterval=buffer, syncMomentum=0.8, deltaCompression=none | 32 | 6 |"
                + " 0.8700 | 0.8900 | -3.75, -3.75 | 5.14 | 3.04x | 1.0, 0.0 |")
        .contains(
            "| blobs | syncInterval=epoch, syncMomentum=0.8, deltaCompression=none | 32 | 1 |"
                + " 0.8700 | 0.8900 | -3.75, -3.75 | 1.69 |  | 1.0, 0.0 |")
        .contains("blobs: 1.000 s + 0.0200 s per task + 0.0500 s per round + 0.0000 s per MiB.")
        .contains("runs that trained in 8 and 32 partitions, the fewest above the 2 cores")
        .contains(
            "| syncInterval=buffer, syncMomentum=0.8, deltaCompression=none | 64 | 128 | 3.66 |"
                + " 3.66 | +0% |")
        .doesNotContain(
            "| syncInterval=buffer, syncMomentum=0.8, deltaCompression=none | 2 | 20 |");
    assertThat(out.resolve("scale-blobs-1-by-epoch.png")).isNotEmptyFile();
    assertThat(out.resolve("scale-blobs-2-by-epoch.png")).isNotEmptyFile();
    assertThat(out.resolve("scale-blobs-by-bytes.png")).isNotEmptyFile();
  }

  /**
   * A driver step other than the default names itself, so runs that differ only in it stay apart.
   */
  @Test
  void runsThatDifferOnlyInTheDriversStepAreReportedApart() throws Exception {
    List<String> lines = new ArrayList<>(csv().subList(0, 1));
    for (double step : new double[] {1.0, 2.0}) {
      for (int p : new int[] {2, 8}) {
        lines.add(
            String.format(
                Locale.ROOT,
                "blobs,%d,auto,buffer,%s,0.0,none,1,10,%.4f,2.000,100,100",
                p,
                step,
                0.9 - step / 100));
      }
    }
    Path csv = dir.resolve("scale.csv");
    Files.write(csv, lines);
    Path out = dir.resolve("out");
    ScaleBenchmark.main(
        new String[] {
          "--from-csv",
          csv.toString(),
          "--partitions",
          "2,8",
          "--epochs",
          "1",
          "--out",
          out.toString()
        });

    assertThat(Files.readString(out.resolve("summary.md")))
        .contains(
            "| blobs | syncInterval=buffer, syncMomentum=0.0, deltaCompression=none | 8 | 10 |"
                + " 0.8900 |")
        .contains(
            "| blobs | syncInterval=buffer, syncStepSize=2.0, syncMomentum=0.0,"
                + " deltaCompression=none | 8 | 10 | 0.8800 |");
  }

  /**
   * The baseline's runs: a row and a chart per learning rate, gaps to the smallest P at the same
   * rate.
   */
  @Test
  void reportsTheGradAvgBaselinePerLearningRate() throws Exception {
    List<String> lines = new ArrayList<>(csv().subList(0, 1));
    for (double lr : new double[] {0.1, 1.0}) {
      for (int p : new int[] {2, 8}) {
        for (int epoch = 1; epoch <= 2; epoch++) {
          lines.add(
              String.format(
                  Locale.ROOT,
                  "higgs,%d,auto,gradavg,%s,0.0,none,%d,50,%.4f,3.000,%d,%d",
                  p,
                  lr,
                  epoch,
                  0.6 + lr / 10 - p / 1000.0 + epoch / 100.0,
                  4096 * p,
                  2048 * p));
        }
      }
    }
    Path csv = dir.resolve("scale.csv");
    Files.write(csv, lines);
    Path out = dir.resolve("out");
    ScaleBenchmark.main(
        new String[] {
          "--from-csv",
          csv.toString(),
          "--partitions",
          "2,8",
          "--epochs",
          "2",
          "--out",
          out.toString()
        });

    String summary = Files.readString(out.resolve("summary.md"));
    assertThat(summary)
        .contains("`gradavg` is a baseline, not the estimator")
        .contains(
            "Not fitted: it needs runs that trained in 3 or more numbers of partitions above the 2"
                + " cores.")
        .contains(
            "| higgs | gradavg, lr=0.1 | 8 | 50 | 0.6120 | 0.6220 | -0.60, -0.60 | 3.00 |  | 32.0,"
                + " 16.0 |")
        .contains(
            "| higgs | gradavg, lr=1.0 | 2 | 50 | 0.7080 | 0.7180 | +0.00, +0.00 | 3.00 |  | 8.0,"
                + " 4.0 |");
    assertThat(out.resolve("scale-higgs-1-by-epoch.png")).isNotEmptyFile();
    assertThat(out.resolve("scale-higgs-2-by-epoch.png")).isNotEmptyFile();
    assertThat(out.resolve("scale-higgs-by-bytes.png")).isNotEmptyFile();
  }
}
