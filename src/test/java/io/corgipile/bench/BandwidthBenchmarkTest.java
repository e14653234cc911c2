package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bandwidth benchmark's report, from scale runs' CSVs made here: merged CSV, summary and chart.
 */
class BandwidthBenchmarkTest {
  @TempDir Path dir;

  /**
   * A run's {@code scale.csv} at one rate: every epoch takes 2 s (3 s the first) plus its bytes at
   * the rate; int8 sends an eighth of none's bytes back. At 20 Mbit/s int8 ends at another
   * accuracy.
   */
  private void writeRun(String rate, double mbit) throws IOException {
    List<String> lines = new ArrayList<>(List.of(ScaleBenchmark.CSV_HEADER));
    for (String compression : new String[] {"none", "int8"}) {
      long to = 1_000_000;
      long from = compression.equals("none") ? 4_000_000 : 500_000;
      double accuracy = compression.equals("int8") && rate.equals("20") ? 0.6700 : 0.6800;
      for (int epoch = 1; epoch <= 3; epoch++) {
        double seconds = (epoch == 1 ? 3 : 2) + (to + from) * 8 / (mbit * 1e6);
        lines.add(
            String.format(
                Locale.ROOT,
                "wide,8,auto,buffer,1.0,0.8,%s,%d,11,%.4f,%.3f,%d,%d,8",
                compression,
                epoch,
                accuracy,
                seconds,
                to,
                from));
      }
    }
    Path run = Files.createDirectories(dir.resolve("runs").resolve(rate));
    Files.write(run.resolve("scale.csv"), lines);
    Files.writeString(run.resolve("loadavg"), "3.10 2.95\n");
  }

  @Test
  void mergesTheRunsAndSummarizesSecondsAgainstBandwidth() throws Exception {
    writeRun("unlimited", Double.POSITIVE_INFINITY);
    writeRun("100", 100);
    writeRun("20", 20);
    Path out = dir.resolve("out");
    BandwidthBenchmark.main(
        new String[] {
          "report",
          "--runs",
          dir.resolve("runs").toString(),
          "--rates",
          "unlimited,100,20",
          "--out",
          out.toString(),
          "--scale-args",
          "--datasets wide --epochs 3"
        });

    List<String> csv = Files.readAllLines(out.resolve(BandwidthBenchmark.CSV));
    assertThat(csv).hasSize(1 + 3 * 2 * 3);
    assertThat(csv.get(0)).isEqualTo("rateMbit," + ScaleBenchmark.CSV_HEADER);
    assertThat(csv.get(7))
        .isEqualTo("100,wide,8,auto,buffer,1.0,0.8,none,1,11,0.6800,3.400,1000000,4000000,8");

    String summary = Files.readString(out.resolve("summary.md"));
    String none = "| wide, P=8, syncInterval=buffer, syncMomentum=0.8, deltaCompression=none | ";
    String int8 = "| wide, P=8, syncInterval=buffer, syncMomentum=0.8, deltaCompression=int8 | ";
    assertThat(summary)
        .contains("ScaleBenchmark `--datasets wide --epochs 3`", "after epoch 3")
        .contains(none + "unlimited | 11 | 3.00 | 2.00 | 1.00 | 1.00 | 4.00 | - | 0.6800 |")
        .contains(none + "100 | 11 | 3.40 | 2.40 | 1.20 | 1.00 | 4.00 | 0.40 | 0.6800 |")
        .contains(none + "20 | 11 | 5.00 | 4.00 | 2.00 | 1.00 | 4.00 | 2.00 | 0.6800 |")
        .contains(int8 + "20 | 11 | 3.60 | 2.60 | 1.30 | 1.00 | 0.50 | 0.60 | 0.6700 |")
        .contains(
            "Test accuracy differs between rates for: wide, P=8, syncInterval=buffer,"
                + " syncMomentum=0.8, deltaCompression=int8.");
    assertThat(summary)
        .contains(
            "| Mbit/s | load at start | load at end |\n"
                + "|---|---:|---:|\n"
                + "| unlimited | 3.10 | 2.95 |\n");
    assertThat(out.resolve(BandwidthBenchmark.CHART)).isNotEmptyFile();

    // the summary again from the merged CSV alone, which does not hold the load averages
    Path again = dir.resolve("again");
    BandwidthBenchmark.main(
        new String[] {
          "report",
          "--from-csv",
          out.resolve(BandwidthBenchmark.CSV).toString(),
          "--out",
          again.toString(),
          "--scale-args",
          "--datasets wide --epochs 3"
        });
    String withoutLoads =
        summary.substring(0, summary.indexOf("\nThe machine's"))
            + summary.substring(summary.indexOf("\nChart:"));
    assertThat(again.resolve("summary.md")).hasContent(withoutLoads);
  }

  /** A CSV merged before scale.csv recorded the partitions that trained, as the committed one. */
  @Test
  void readsMergedCsvsWithoutThePartitionsThatTrained() throws Exception {
    Path csv = dir.resolve(BandwidthBenchmark.CSV);
    Files.write(
        csv,
        List.of(
            "rateMbit," + ScaleBenchmark.OLD_CSV_HEADER,
            "20,wide,8,auto,buffer,1.0,0.8,none,1,11,0.4897,35.636,5245982,23383596"));

    List<BandwidthBenchmark.RatedEpoch> epochs = BandwidthBenchmark.read(csv);

    assertThat(epochs).hasSize(1);
    assertThat(epochs.get(0).rate()).isEqualTo("20");
    assertThat(epochs.get(0).epoch().trainedPartitions()).isEqualTo(8);
  }

  @Test
  void saysWhichRunIsMissing() throws Exception {
    writeRun("unlimited", Double.POSITIVE_INFINITY);
    assertThatThrownBy(
            () ->
                BandwidthBenchmark.main(
                    new String[] {
                      "report",
                      "--runs",
                      dir.resolve("runs").toString(),
                      "--rates",
                      "unlimited,20",
                      "--out",
                      dir.resolve("out").toString()
                    }))
        .hasMessageStartingWith("Cannot merge the run at rate 20: ")
        .hasMessageEndingWith("is missing (did the run fail?)");
  }
}
