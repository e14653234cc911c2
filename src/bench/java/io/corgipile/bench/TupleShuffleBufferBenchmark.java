package io.corgipile.bench;

import io.corgipile.shuffle.SplitMix64;
import io.corgipile.shuffle.TupleShuffleBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.spark.unsafe.Platform;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a tuple-level shuffle costs per row: one fill of a buffer of HIGGS-sized rows (240 bytes, 29
 * doubles), then a read of every double of every row in emitted order; against the same rows copied
 * and read in order (the floor), and against one Fisher-Yates over the whole buffer.
 *
 * <p>Run with {@code scripts/bench-jmh}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
public class TupleShuffleBufferBenchmark {
  static final int ROW_BYTES = 240;

  /** Rows per buffer: cache-resident, and 10% of a 5-million-row partition. */
  @Param({"20000", "500000"})
  public int rows;

  private byte[] source;
  private byte[] copy;
  private TupleShuffleBuffer buffer;

  @Setup(Level.Trial)
  public void setUp() {
    source = new byte[4096 * ROW_BYTES];
    for (int i = 0; i < source.length; i++) {
      source[i] = (byte) i;
    }
    copy = new byte[rows * ROW_BYTES];
    buffer = new TupleShuffleBuffer(rows, Long.MAX_VALUE);
  }

  private static long sumRow(byte[] page, long base) {
    long sum = 0;
    for (int f = 0; f < 29; f++) {
      sum += Platform.getLong(page, base + 8 + 8L * f);
    }
    return sum;
  }

  /** The least any buffer costs: copy the rows into one array, read them back in order. */
  @Benchmark
  public void copiedInOrder(Blackhole bh) {
    for (int i = 0; i < rows; i++) {
      System.arraycopy(source, (i % 4096) * ROW_BYTES, copy, i * ROW_BYTES, ROW_BYTES);
    }
    long sum = 0;
    for (int i = 0; i < rows; i++) {
      sum += sumRow(copy, Platform.BYTE_ARRAY_OFFSET + (long) i * ROW_BYTES);
    }
    bh.consume(sum);
  }

  private int[] order;

  /**
   * The textbook way: copy the rows into one array, Fisher-Yates over all of them, read in that
   * order.
   */
  @Benchmark
  public void plainFisherYates(Blackhole bh) {
    if (order == null) {
      order = new int[rows];
    }
    for (int i = 0; i < rows; i++) {
      System.arraycopy(source, (i % 4096) * ROW_BYTES, copy, i * ROW_BYTES, ROW_BYTES);
      order[i] = i;
    }
    plainRandom.shuffle(order, rows);
    long sum = 0;
    for (int i = 0; i < rows; i++) {
      sum += sumRow(copy, Platform.BYTE_ARRAY_OFFSET + (long) order[i] * ROW_BYTES);
    }
    bh.consume(sum);
  }

  private final SplitMix64 plainRandom = new SplitMix64(2);
  private final SplitMix64 bufferRandom = new SplitMix64(1);

  /**
   * What corgipile does per buffer: fill, shuffle in cache-sized buckets, read every row in that
   * order.
   */
  @Benchmark
  public void shuffled(Blackhole bh) {
    buffer.startFill(bufferRandom, rows);
    for (int i = 0; i < rows; i++) {
      buffer.tryAdd(source, (i % 4096) * ROW_BYTES, ROW_BYTES);
    }
    buffer.shuffle();
    long sum = 0;
    for (int i = 0; i < buffer.size(); i++) {
      sum += sumRow(buffer.pageOf(i), Platform.BYTE_ARRAY_OFFSET + buffer.offsetOf(i));
    }
    bh.consume(sum);
  }
}
