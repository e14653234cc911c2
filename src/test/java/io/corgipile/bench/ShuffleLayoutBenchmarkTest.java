package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every variant of ShuffleLayoutBenchmark does the whole work: it emits each row of the buffer
 * once, with its own values in every column, and the shuffling ones in a new random order each
 * fill; so all give the same checksum and none can win by skipping work.
 */
class ShuffleLayoutBenchmarkTest {
  /**
   * The rows of each emitted batch, by the row number its values encode; checks each row is whole.
   */
  private static final class Recorder implements ShuffleLayoutBenchmark.BatchProbe {
    final List<Integer> order = new ArrayList<>();
    final List<Integer> batchSizes = new ArrayList<>();

    @Override
    public void batch(ColumnVector[] columns, int n) {
      assertThat(columns).hasSize(ShuffleLayoutBenchmark.COLUMNS);
      batchSizes.add(n);
      for (int r = 0; r < n; r++) {
        long first = (long) columns[0].getDouble(r);
        assertThat(first % ShuffleLayoutBenchmark.ROW_STRIDE).isZero();
        for (int c = 1; c < columns.length; c++) {
          assertThat(columns[c].getDouble(r))
              .as("column %d of row %d", c, first)
              .isEqualTo((double) (first + c));
        }
        order.add((int) (first / ShuffleLayoutBenchmark.ROW_STRIDE));
      }
    }
  }

  private static ShuffleLayoutBenchmark benchmark(int rows, String consumer) {
    ShuffleLayoutBenchmark b = new ShuffleLayoutBenchmark();
    b.rows = rows;
    b.consumer = consumer;
    b.inputBatches =
        (rows + ShuffleLayoutBenchmark.BATCH_ROWS - 1) / ShuffleLayoutBenchmark.BATCH_ROWS;
    b.setUp();
    return b;
  }

  /**
   * Sum of the bits of every value {@code row * ROW_STRIDE + column}, row and column over the
   * buffer.
   */
  private static long expectedBits(int rows) {
    long sum = 0;
    for (long r = 0; r < rows; r++) {
      for (int c = 0; c < ShuffleLayoutBenchmark.COLUMNS; c++) {
        sum += Double.doubleToRawLongBits((double) (r * ShuffleLayoutBenchmark.ROW_STRIDE + c));
      }
    }
    return sum;
  }

  private static long expectedDoubles(int rows) {
    long n = rows;
    int columns = ShuffleLayoutBenchmark.COLUMNS;
    return ShuffleLayoutBenchmark.ROW_STRIDE * columns * (n * (n - 1) / 2)
        + n * ((long) columns * (columns - 1) / 2);
  }

  /** Runs a variant twice (two fills), checking what it emitted; the emitted orders. */
  private static List<List<Integer>> run(
      ShuffleLayoutBenchmark b, LongSupplier variant, long expected) {
    List<List<Integer>> orders = new ArrayList<>();
    for (int fill = 0; fill < 2; fill++) {
      Recorder recorder = new Recorder();
      b.probe = recorder;
      assertThat(variant.getAsLong()).isEqualTo(expected);
      assertThat(recorder.order).hasSize(b.rows);
      assertThat(recorder.order.stream().distinct().count()).as("distinct rows").isEqualTo(b.rows);
      assertThat(recorder.order.stream().mapToInt(Integer::intValue).max().getAsInt())
          .isEqualTo(b.rows - 1);
      for (int i = 0; i < recorder.batchSizes.size() - 1; i++) {
        assertThat(recorder.batchSizes.get(i)).isEqualTo(ShuffleLayoutBenchmark.BATCH_ROWS);
      }
      orders.add(recorder.order);
    }
    return orders;
  }

  private static void assertShuffled(List<List<Integer>> orders, int rows) {
    for (List<Integer> order : orders) {
      long inPlace = 0;
      for (int i = 0; i < rows; i++) {
        if (order.get(i) == i) {
          inPlace++;
        }
      }
      assertThat(inPlace)
          .as("rows left in place (a permutation leaves one on average)")
          .isLessThan(20);
    }
    assertThat(orders.get(0)).as("a new order each fill").isNotEqualTo(orders.get(1));
  }

  // 5000: one bucket and a short last batch; 100,000: many buckets, runs crossing batch boundaries.
  @ParameterizedTest
  @ValueSource(ints = {5000, 100_000})
  void everyVariantEmitsEveryRowOnceWhole(int rows) {
    ShuffleLayoutBenchmark b = benchmark(rows, "bits");
    long expected = expectedBits(rows);
    List<List<Integer>> floor = run(b, b::sequentialFloor, expected);
    for (List<Integer> order : floor) {
      for (int i = 0; i < rows; i++) {
        assertThat(order.get(i)).isEqualTo(i);
      }
    }
    assertShuffled(run(b, b::rowArena, expected), rows);
    assertShuffled(run(b, b::columnGather, expected), rows);
    assertShuffled(run(b, b::bucketedColumns, expected), rows);
  }

  @ParameterizedTest
  @ValueSource(ints = {5000, 100_000})
  void theDoubleConsumerSumsExactly(int rows) {
    ShuffleLayoutBenchmark b = benchmark(rows, "double");
    long expected = expectedDoubles(rows);
    run(b, b::sequentialFloor, expected);
    run(b, b::rowArena, expected);
    run(b, b::columnGather, expected);
    run(b, b::bucketedColumns, expected);
  }

  @Test
  void bucketPagesThatFillUpGrow() {
    ShuffleLayoutBenchmark b = new ShuffleLayoutBenchmark();
    b.rows = 100_000;
    b.consumer = "bits";
    b.inputBatches =
        (b.rows + ShuffleLayoutBenchmark.BATCH_ROWS - 1) / ShuffleLayoutBenchmark.BATCH_ROWS;
    b.bucketRows = 100; // about a tenth of what a bucket gets
    b.setUp();
    assertShuffled(run(b, b::bucketedColumns, expectedBits(b.rows)), b.rows);
  }

  @ParameterizedTest
  @ValueSource(ints = {5000, 20_000})
  void theBenchmarksOwnSetupGivesEqualSums(int rows) {
    // As JMH runs it: one input batch reused, so rows repeat; the sums must still agree.
    ShuffleLayoutBenchmark b = new ShuffleLayoutBenchmark();
    b.rows = rows;
    b.consumer = "bits";
    b.setUp();
    long floor = b.sequentialFloor();
    assertThat(b.rowArena()).isEqualTo(floor);
    assertThat(b.columnGather()).isEqualTo(floor);
    assertThat(b.bucketedColumns()).isEqualTo(floor);
  }
}
