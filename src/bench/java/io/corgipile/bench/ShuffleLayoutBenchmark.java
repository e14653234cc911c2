package io.corgipile.bench;

import io.corgipile.shuffle.SplitMix64;
import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.FixedWidthRowEncoder;
import io.corgipile.spark.RowArenaBatch;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
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
 * Whether a columnar shuffle would be faster than the row arena the reader uses: one full cycle per
 * invocation, for HIGGS-shaped rows (a double label and 28 double features) that arrive as Spark's
 * Parquet reader hands them, {@link OnHeapColumnVector}s in batches of 4096 rows: fill a buffer of
 * {@link #rows} rows from the batches, shuffle it, then read every value of every row in emitted
 * order through {@link ColumnVector#getDouble} of 4096-row batches, row by row as Spark's
 * column-to-row code reads them. Divide the score (ns per invocation) by {@code rows} for ns a row.
 *
 * <ul>
 *   <li>{@link #rowArena}: the reader's path: a {@link TupleShuffleBuffer} makes room for each run
 *       of rows in random ~256 KB buckets, the reader's encoder ({@link FixedWidthRowEncoder})
 *       writes a tile of 64 rows as UnsafeRows into cache-sized scratch, each row is copied from
 *       there to its place, the buffer is shuffled, and {@link RowArenaBatch} views are read.
 *   <li>{@link #columnGather}: a column array per field, filled batch by batch; one Fisher-Yates
 *       over the whole buffer; each output batch gathered column by column ({@code out[k] =
 *       col[perm[start + k]]}) into reused {@link OnHeapColumnVector}s.
 *   <li>{@link #bucketedColumns}: Rao-Sandelius as the row arena does it, but each bucket a
 *       column-major page: rows go to random buckets of ~256 KB as they arrive (a batch's rows
 *       sorted by bucket, then copied a bucket and a column at a time), each bucket is permuted,
 *       and output batches are gathered one bucket at a time.
 *   <li>{@link #sequentialFloor}: no buffer: the input batches read in order, what a plain scan
 *       pays for reading its rows.
 * </ul>
 *
 * <p>The input is one batch of decoded vectors, reused for every batch of a fill as Spark's reader
 * reuses its vectors (so the fill reads it from cache, as a fill reads a batch just decoded);
 * ShuffleLayoutBenchmarkTest gives each batch distinct rows and checks that every variant emits
 * each row once, whole, and (but the floor) in a shuffled order. The values are small integers, so
 * a sum is exact in any order. Each variant consumes what it reads into one checksum per
 * invocation, summing each value's bits as a long by default ({@code consumer=bits}): one-cycle
 * adds, so the reading, not a chain of floating-point additions, sets the pace; {@code -p
 * consumer=double} sums them as doubles instead. The check runs in the test, not in {@code @Setup}:
 * running every variant in each fork would make the shared read loop's calls polymorphic and slow
 * down whichever variant is measured.
 *
 * <p>Run with {@code scripts/bench-jmh ShuffleLayoutBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
public class ShuffleLayoutBenchmark {
  /** HIGGS: the label and 28 features, all doubles. */
  static final int COLUMNS = 29;

  /** Rows of a batch, in and out: Spark's default columnar batch size, and the reader's. */
  static final int BATCH_ROWS = 4096;

  /** Bytes of a bucket, as TupleShuffleBuffer.BUCKET_BYTES. */
  static final int BUCKET_BYTES = 256 << 10;

  /** As TupleShuffleBuffer.MAX_BUCKETS. */
  static final int MAX_BUCKETS = 4096;

  /**
   * A value is {@code row * ROW_STRIDE + column}: distinct, and exact as a double and in any sum.
   */
  static final int ROW_STRIDE = 32;

  static final StructType SCHEMA = schema();

  /** Rows per buffer. */
  @Param({"20000", "200000"})
  public int rows;

  /**
   * How the read values are consumed: {@code bits}, summing their bits as longs, or {@code double}.
   */
  @Param({"bits"})
  public String consumer;

  /**
   * Distinct input batches, used in turn; the test raises it so every row of a fill is distinct.
   */
  int inputBatches = 1;

  /**
   * Rows a bucket's page holds before it grows; 0 for room enough that none grows, the test sets it
   * low.
   */
  int bucketRows;

  /** Sees every emitted batch before it is consumed; null but in the test. */
  BatchProbe probe;

  /** Sees an emitted batch of {@code n} rows. */
  interface BatchProbe {
    void batch(ColumnVector[] columns, int n);
  }

  private boolean sumDoubles;
  private ColumnarBatch[] input;
  private ColumnVector[][] inputColumns;

  // rowArena
  private FixedWidthRowEncoder encoder;

  /** As BufferFiller.RUN_ROWS. */
  static final int RUN_ROWS = 256;

  /** As FixedWidthRowEncoder.TILE_ROWS. */
  static final int TILE_ROWS = 64;

  private byte[] tile;
  private final byte[][] runChunks = new byte[RUN_ROWS][];
  private final int[] runOffsets = new int[RUN_ROWS];
  private TupleShuffleBuffer buffer;
  private RowArenaBatch arenaBatch;
  private ColumnVector[] arenaColumns;
  private final SplitMix64 arenaRandom = new SplitMix64(1);

  // columnGather and bucketedColumns: the emitted batch
  private OnHeapColumnVector[] out;
  private ColumnVector[] outColumns;

  // columnGather
  private double[][] columns;
  private int[] permutation;
  private final SplitMix64 gatherRandom = new SplitMix64(2);

  // bucketedColumns: bucket b holds fill[b] rows in pages[b], column c at [c * capacity[b], ...)
  private int buckets;
  private double[][] pages;
  private int[] capacity;
  private int[] fill;

  /** The order of each bucket's rows, bucket after bucket: row slots within the bucket. */
  private int[] bucketOrder;

  private int[] bucketStart;
  // a batch's rows: their buckets, then sorted by bucket, where each bucket's rows start and the
  // next goes
  private int[] bucketOfRow;
  private int[] rowsByBucket;
  private int[] batchBucketStart;
  private int[] batchBucketNext;
  private final SplitMix64 bucketRandom = new SplitMix64(3);

  private static StructType schema() {
    StructType schema = new StructType().add("label", DataTypes.DoubleType);
    for (int f = 1; f < COLUMNS; f++) {
      schema = schema.add("f" + f, DataTypes.DoubleType);
    }
    return schema;
  }

  @Setup(Level.Trial)
  public void setUp() {
    sumDoubles =
        switch (consumer) {
          case "bits" -> false;
          case "double" -> true;
          default ->
              throw new IllegalArgumentException(
                  "Unknown consumer " + consumer + " (bits, double)");
        };
    input = new ColumnarBatch[inputBatches];
    inputColumns = new ColumnVector[inputBatches][];
    for (int b = 0; b < inputBatches; b++) {
      inputColumns[b] = new ColumnVector[COLUMNS];
      for (int c = 0; c < COLUMNS; c++) {
        OnHeapColumnVector v = new OnHeapColumnVector(BATCH_ROWS, DataTypes.DoubleType);
        for (int r = 0; r < BATCH_ROWS; r++) {
          v.putDouble(r, (double) ((long) (b * BATCH_ROWS + r) * ROW_STRIDE + c));
        }
        inputColumns[b][c] = v;
      }
      input[b] = new ColumnarBatch(inputColumns[b], BATCH_ROWS);
    }

    // the encoder the reader builds for this schema (BlockDecoder: every column, in order)
    encoder = FixedWidthRowEncoder.forSchema(SCHEMA, IntStream.range(0, COLUMNS).toArray());
    tile = new byte[TILE_ROWS * encoder.rowBytes()];
    buffer = new TupleShuffleBuffer(rows, Long.MAX_VALUE);
    arenaBatch = new RowArenaBatch(SCHEMA, BATCH_ROWS);
    arenaColumns = new ColumnVector[COLUMNS];
    for (int c = 0; c < COLUMNS; c++) {
      arenaColumns[c] = arenaBatch.batch().column(c);
    }

    out = new OnHeapColumnVector[COLUMNS];
    outColumns = new ColumnVector[COLUMNS];
    for (int c = 0; c < COLUMNS; c++) {
      out[c] = new OnHeapColumnVector(BATCH_ROWS, DataTypes.DoubleType);
      outColumns[c] = out[c];
    }

    columns = new double[COLUMNS][rows];
    permutation = new int[rows];

    // As TupleShuffleBuffer sizes its buckets, with a row of 29 doubles (no null bit set) for 240
    // bytes.
    buckets =
        (int)
            Math.max(1, Math.min(MAX_BUCKETS, (long) rows * COLUMNS * Double.BYTES / BUCKET_BYTES));
    int expected = (rows + buckets - 1) / buckets;
    int initial =
        bucketRows > 0
            ? bucketRows
            : expected
                + 8 * (int) Math.ceil(Math.sqrt(expected))
                + 64; // overflow all but never happens
    pages = new double[buckets][COLUMNS * initial];
    capacity = new int[buckets];
    Arrays.fill(capacity, initial);
    fill = new int[buckets];
    bucketOrder = new int[rows];
    bucketStart = new int[buckets + 1];
    bucketOfRow = new int[BATCH_ROWS];
    rowsByBucket = new int[BATCH_ROWS];
    batchBucketStart = new int[buckets + 1];
    batchBucketNext = new int[buckets];
  }

  @Benchmark
  public void rowArena(Blackhole bh) {
    bh.consume(rowArena());
  }

  @Benchmark
  public void columnGather(Blackhole bh) {
    bh.consume(columnGather());
  }

  @Benchmark
  public void bucketedColumns(Blackhole bh) {
    bh.consume(bucketedColumns());
  }

  @Benchmark
  public void sequentialFloor(Blackhole bh) {
    bh.consume(sequentialFloor());
  }

  /** The reader's path, as BatchRows, BufferFiller and ShuffledBatchReader run it. */
  long rowArena() {
    buffer.startFill(arenaRandom, rows);
    int rowBytes = encoder.rowBytes();
    for (int b = 0, filled = 0; filled < rows; b++) {
      ColumnarBatch batch = input[b % inputBatches];
      int n = Math.min(BATCH_ROWS, rows - filled);
      batch.setNumRows(n);
      // BufferFiller.fill: room for a run of rows in their random buckets; BatchRows.writeRun
      // encodes
      // a tile of rows into cache-sized scratch and copies each row from there to its place
      for (int first = 0; first < n; first += RUN_ROWS) {
        int run = Math.min(RUN_ROWS, n - first);
        if (buffer.reserve(rowBytes, run, runChunks, runOffsets) < run) {
          throw new IllegalStateException(
              "The buffer refused rows of " + (filled + first) + " of " + rows);
        }
        for (int i = 0; i < run; i++) {
          if (i % TILE_ROWS == 0) {
            encoder.encode(batch, first + i, Math.min(TILE_ROWS, run - i), tile);
          }
          System.arraycopy(tile, (i % TILE_ROWS) * rowBytes, runChunks[i], runOffsets[i], rowBytes);
        }
      }
      filled += n;
    }
    buffer.shuffle();
    long sum = 0;
    int size = buffer.size();
    for (int start = 0; start < size; start += BATCH_ROWS) {
      int n = Math.min(BATCH_ROWS, size - start);
      arenaBatch.point(buffer, start, n);
      sum += consume(arenaColumns, n);
    }
    return sum;
  }

  /**
   * Column arrays, one permutation of the whole buffer, each output batch gathered column by
   * column.
   */
  long columnGather() {
    for (int b = 0, filled = 0; filled < rows; b++) {
      ColumnVector[] in = inputColumns[b % inputBatches];
      int n = Math.min(BATCH_ROWS, rows - filled);
      for (int c = 0; c < COLUMNS; c++) {
        copy(in[c], columns[c], filled, n);
      }
      filled += n;
    }
    for (int i = 0; i < rows; i++) {
      permutation[i] = i;
    }
    gatherRandom.shuffle(permutation, rows);
    long sum = 0;
    for (int start = 0; start < rows; start += BATCH_ROWS) {
      int n = Math.min(BATCH_ROWS, rows - start);
      for (int c = 0; c < COLUMNS; c++) {
        double[] column = columns[c];
        OnHeapColumnVector to = out[c];
        for (int k = 0; k < n; k++) {
          to.putDouble(k, column[permutation[start + k]]);
        }
      }
      sum += consume(outColumns, n);
    }
    return sum;
  }

  /**
   * Rows {@code [0, n)} of {@code v} into {@code to} from {@code at}. ColumnVector has no copy into
   * a caller's array (getDoubles allocates one): a loop over getDouble, which the JIT turns into a
   * copy.
   */
  private static void copy(ColumnVector v, double[] to, int at, int n) {
    for (int r = 0; r < n; r++) {
      to[at + r] = v.getDouble(r);
    }
  }

  /**
   * Random buckets of column-major pages, each permuted, output batches gathered a bucket at a
   * time.
   */
  long bucketedColumns() {
    Arrays.fill(fill, 0, buckets, 0);
    for (int b = 0, filled = 0; filled < rows; b++) {
      ColumnVector[] in = inputColumns[b % inputBatches];
      int n = Math.min(BATCH_ROWS, rows - filled);
      // Each row's bucket, drawn in arrival order; then the batch's rows sorted by bucket (stably,
      // so
      // each bucket gets them in arrival order, as a row at a time would place them) and copied a
      // bucket and a column at a time: a run of contiguous slots, not a store into 29 pages per
      // row.
      Arrays.fill(batchBucketStart, 0, buckets + 1, 0);
      for (int r = 0; r < n; r++) {
        int bucket = buckets == 1 ? 0 : bucketRandom.nextInt(buckets);
        bucketOfRow[r] = bucket;
        batchBucketStart[bucket + 1]++;
      }
      for (int i = 0; i < buckets; i++) {
        batchBucketStart[i + 1] += batchBucketStart[i];
      }
      System.arraycopy(batchBucketStart, 0, batchBucketNext, 0, buckets);
      for (int r = 0; r < n; r++) {
        rowsByBucket[batchBucketNext[bucketOfRow[r]]++] = r;
      }
      for (int bucket = 0; bucket < buckets; bucket++) {
        int from = batchBucketStart[bucket];
        int m = batchBucketStart[bucket + 1] - from;
        if (m == 0) {
          continue;
        }
        int slot = fill[bucket];
        while (slot + m > capacity[bucket]) {
          grow(bucket);
        }
        fill[bucket] = slot + m;
        double[] page = pages[bucket];
        for (int c = 0; c < COLUMNS; c++) {
          ColumnVector v = in[c];
          int base = c * capacity[bucket] + slot;
          for (int j = 0; j < m; j++) {
            page[base + j] = v.getDouble(rowsByBucket[from + j]);
          }
        }
      }
      filled += n;
    }
    // Each bucket's slots in a random order (Fisher-Yates), the buckets one after another.
    for (int b = 0; b < buckets; b++) {
      int from = bucketStart[b];
      bucketStart[b + 1] = from + fill[b];
      for (int i = 0; i < fill[b]; i++) {
        bucketOrder[from + i] = i;
      }
      for (int i = fill[b] - 1; i > 0; i--) {
        int j = bucketRandom.nextInt(i + 1);
        int t = bucketOrder[from + i];
        bucketOrder[from + i] = bucketOrder[from + j];
        bucketOrder[from + j] = t;
      }
    }
    long sum = 0;
    int bucket = 0;
    for (int start = 0; start < rows; start += BATCH_ROWS) {
      int n = Math.min(BATCH_ROWS, rows - start);
      // The batch's rows, a run of each bucket in turn; each run gathered column by column.
      for (int k = 0; k < n; ) {
        while (bucketStart[bucket + 1] <= start + k) {
          bucket++;
        }
        int run = Math.min(n - k, bucketStart[bucket + 1] - (start + k));
        double[] page = pages[bucket];
        int order = start + k;
        for (int c = 0; c < COLUMNS; c++) {
          OnHeapColumnVector to = out[c];
          int base = c * capacity[bucket];
          for (int i = 0; i < run; i++) {
            to.putDouble(k + i, page[base + bucketOrder[order + i]]);
          }
        }
        k += run;
      }
      sum += consume(outColumns, n);
    }
    return sum;
  }

  /**
   * A bucket's page with room for twice its rows; only a bucket far above its expected size needs
   * it.
   */
  private void grow(int bucket) {
    int old = capacity[bucket];
    double[] page = new double[COLUMNS * 2 * old];
    for (int c = 0; c < COLUMNS; c++) {
      System.arraycopy(pages[bucket], c * old, page, c * 2 * old, old);
    }
    pages[bucket] = page;
    capacity[bucket] = 2 * old;
  }

  /** The input batches read in order, as a plain scan reads them. */
  long sequentialFloor() {
    long sum = 0;
    for (int b = 0, filled = 0; filled < rows; b++) {
      int n = Math.min(BATCH_ROWS, rows - filled);
      sum += consume(inputColumns[b % inputBatches], n);
      filled += n;
    }
    return sum;
  }

  /** Reads every value of rows {@code [0, n)}, row by row, as Spark's column-to-row code does. */
  private long consume(ColumnVector[] batch, int n) {
    if (probe != null) {
      probe.batch(batch, n);
    }
    return sumDoubles ? (long) sumAsDoubles(batch, n) : sumBits(batch, n);
  }

  private static long sumBits(ColumnVector[] batch, int n) {
    long sum = 0;
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < COLUMNS; c++) {
        sum += Double.doubleToRawLongBits(batch[c].getDouble(r));
      }
    }
    return sum;
  }

  private static double sumAsDoubles(ColumnVector[] batch, int n) {
    double sum = 0;
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < COLUMNS; c++) {
        sum += batch[c].getDouble(r);
      }
    }
    return sum;
  }
}
