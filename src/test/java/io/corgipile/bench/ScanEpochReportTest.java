package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The epoch mode's summary, from made-up measurements: the table, the copy's line and the goals.
 */
class ScanEpochReportTest {
  private static final long MB = 1_000_000L;

  private static ScanMeasurement epoch(
      String variant, String phase, int epoch, double seconds, long readMb, long writtenMb) {
    ScanChecksum c = new ScanChecksum();
    c.rows = 10;
    return new ScanMeasurement(
        variant,
        phase,
        epoch,
        0,
        seconds,
        2,
        phase.equals("copy") ? null : c,
        new ProcIo(readMb * MB, readMb * MB, writtenMb * MB),
        new HeapPeak.Result(600L << 20, 200L << 20, 900L << 20, 4, 100),
        variant.equals("corgipile") ? 150L << 20 : 0,
        1L << 30);
  }

  private static List<ScanMeasurement> run(double fullSeconds, long corgiReadMb) {
    List<ScanMeasurement> all = new ArrayList<>();
    for (int e = 1; e <= 2; e++) {
      all.add(epoch("none", "epoch", e, 10, 2000, 0));
      all.add(epoch("corgipile", "epoch", e, 12 + e, e == 1 ? 2000 : corgiReadMb, 0));
      all.add(epoch("full-shuffle", "epoch", e, fullSeconds, 6000, 2500));
    }
    all.add(epoch("shuffled-copy", "copy", 0, 50, 4000, 4500));
    all.add(epoch("shuffled-copy", "epoch", 1, 9, 2100, 0));
    all.add(epoch("shuffled-copy", "epoch", 2, 11, 2100, 0));
    return all;
  }

  private static final ScanArgs ARGS =
      ScanArgs.parse(
          new String[] {
            "--epochs", "2", "--variants", "none,corgipile,full-shuffle,shuffled-copy"
          });

  @Test
  void tableCopyAndGoalsMet() {
    String s =
        ScanEpochReport.body(
            ScanVariant.chosen(ARGS), run(45, 2080), 2000 * MB, List.of(0L, 0L, 0L, 5 * MB), true);
    assertThat(s)
        .contains(
            "| corgipile | format(\"corgipile\") shuffle=corgipile, prefetch=true, bufferSize=auto"
                + " (default) | 2 | 13.50 | 1.00x | 2040.0 | 1.020x | 0.0 | 600.0 | 200.0 | 150.0 |"
                + " 1024.0 | 0.0 |")
        .contains(
            "| full-shuffle | spark.read().parquet(path).orderBy(rand(seed + epoch)), every epoch |"
                + " 2 | 45.00 | 3.33x | 6000.0 | 3.000x | 2500.0 |")
        .contains("| shuffled-copy | ")
        .contains("5.0 |\n")
        .contains(
            "The shuffled copy: writing it took 50.00 s (2 files), read 4000.0 MB from storage and"
                + " wrote 4500.0 MB; with its 2 epochs 70.00 s, 35.00 s an epoch (2.59x"
                + " corgipile's).")
        .contains(
            "- a full shuffle every epoch at least 3x a corgipile epoch: 3.33x (45.00 s against"
                + " 13.50 s): **met**")
        .contains(
            "- corgipile's storage bytes per epoch at most 1.05x one pass over the table: 1.020x on"
                + " average, 1.040x in its worst epoch: **met**")
        .contains("| full-shuffle | epoch | 2 | 45.00 | 6000.0 | 2500.0 | 6000.0 | 600.0 |");
  }

  @Test
  void goalsNotMetOrNotTested() {
    String s = ScanEpochReport.goals(run(27, 2200), 2000 * MB, true);
    assertThat(s)
        .contains("2.00x (27.00 s against 13.50 s): **not met**")
        .contains("1.050x on average, 1.100x in its worst epoch: **not met**");
    assertThat(ScanEpochReport.goals(run(27, 2200), 2000 * MB, false))
        .startsWith(
            "Goals (where the table does not fit in memory; this run had no memory limit, so they"
                + " are not tested by it)")
        .doesNotContain("**not met**")
        .contains("(not tested)");
  }
}
