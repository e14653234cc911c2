package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How well each mode mixes label-sorted data: the share of positives in consecutive windows of the
 * emitted stream, against bounds from the binomial distribution.
 *
 * <p>The table has {@value #ROWS} rows, the first half negative, in row groups of {@value
 * #GROUP_ROWS} rows, each therefore of one label. A {@value #BUFFER_ROWS}-row buffer holds {@code
 * b} = {@value #BUFFER_ROWS} / {@value #GROUP_ROWS} whole row groups drawn at random, so in {@code
 * corgipile} mode the share of positives in a window of {@code w} = {@value #WINDOW} emitted rows
 * is, around p = 1/2, the sum of two sampling errors: of the b row groups in the buffer (variance
 * p(1-p)/b) and of the w rows within the shuffled buffer (at most p(1-p)/w). Every window must lie
 * within z standard deviations, z = 5.85 being the two-sided normal quantile for a family-wise
 * error of 1e-6 over the {@code ROWS / w} windows (Bonferroni). The seed is fixed, so the test is
 * exactly repeatable; the bound says that a correct shuffle passes it for all but a
 * one-in-a-million seed.
 */
class ShuffleQualityTest {
  private static final int ROWS = 100_000;
  private static final int GROUP_ROWS = 100;
  private static final int BUFFER_ROWS = 10_000;
  private static final int WINDOW = 500;
  private static final double Z = 5.85;
  private static final double P = 0.5;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = TestTables.labelSorted(TestTables.tempDir("quality"), ROWS, GROUP_ROWS);
  }

  private static double bound() {
    double blocks = (double) BUFFER_ROWS / GROUP_ROWS;
    return Z * Math.sqrt(P * (1 - P) / blocks + P * (1 - P) / WINDOW);
  }

  /** Deviation of each window's share of positives from 1/2, in emitted order. */
  private static double[] deviations(String shuffle) {
    List<Row> labels =
        corgipile("shuffle", shuffle, "bufferSize", "10%", "partitions", "1", "seed", "1")
            .load(table)
            .select("label")
            .collectAsList();
    assertThat(labels).hasSize(ROWS);
    double[] out = new double[ROWS / WINDOW];
    for (int w = 0; w < out.length; w++) {
      int positives = 0;
      for (int i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
        positives += labels.get(i).getInt(0);
      }
      out[w] = Math.abs((double) positives / WINDOW - P);
    }
    return out;
  }

  private static long outside(double[] deviations) {
    double bound = bound();
    return java.util.Arrays.stream(deviations).filter(d -> d > bound).count();
  }

  private static double mean(double[] deviations) {
    return java.util.Arrays.stream(deviations).average().orElseThrow();
  }

  @Test
  void fixtureIsLabelSortedInSingleLabelRowGroups() {
    // Row groups of exactly 100 rows: none straddles the label boundary at row 50,000.
    assertThat(TestTables.rowGroups(table)).isEqualTo(ROWS / GROUP_ROWS);
  }

  @Test
  void corgipileKeepsEveryWindowNearTheGlobalShareAndNoneDoesNot() {
    double[] corgipile = deviations("corgipile");
    double[] none = deviations("none");
    double[] block = deviations("block");
    double[] window = deviations("window");
    int windows = ROWS / WINDOW;

    assertThat(outside(corgipile)).as("corgipile windows outside %.3f", bound()).isZero();
    assertThat(outside(none)).as("none: every window is all one label").isEqualTo(windows);
    // block: a window spans 5 random row groups, so its share is Binomial(5, 1/2) / 5 and is
    // outside
    // the bound only when all five agree (probability 1/16); window: a sliding window over sorted
    // data
    // mixes labels only near the boundary.
    assertThat(outside(block)).isBetween(1L, windows / 4L);
    assertThat(outside(window)).isBetween(windows / 2L, windows - 1L);

    assertThat(mean(corgipile)).isLessThan(mean(block));
    assertThat(mean(block)).isLessThan(mean(window));
    assertThat(mean(window)).isLessThan(mean(none));
    assertThat(mean(none)).isEqualTo(0.5);
  }
}
