package io.corgipile.source;

import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.EpochSeeds;
import io.corgipile.shuffle.FillPlan;
import io.corgipile.shuffle.Prefetcher;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.shuffle.SlidingWindow;
import io.corgipile.shuffle.TupleShuffleBuffer;
import io.corgipile.spark.ScanSettings;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.TaskFailureListener;

/**
 * Builds each partition's reader on the executor. It travels once per stage inside Spark's task
 * binary, so the block plan is shipped once, not once per task.
 */
final class CorgiPileReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final BlockPlan plan;
  private final ReadConf conf;
  private final FillLayout layout;
  private final ScanSettings settings;
  private final int numFields;
  private final String scan;
  private final int lookahead;
  private final boolean hasDeletes;

  /**
   * @param scan identifies the scan, for {@link RoundLookahead}'s keys
   * @param lookahead the fills an executor may hold ahead of its rounds ({@link RoundLookahead}), 0
   *     for none
   */
  CorgiPileReaderFactory(
      BlockPlan plan,
      ReadConf conf,
      FillLayout layout,
      ScanSettings settings,
      int numFields,
      String scan,
      int lookahead) {
    this.plan = plan;
    this.conf = conf;
    this.layout = layout;
    this.settings = settings;
    this.numFields = numFields;
    this.scan = scan;
    this.lookahead = lookahead;
    this.hasDeletes = plan.hasDeletes();
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    Slice slice = slice((CorgiPileInputPartition) partition);
    if (conf.shuffle() == ShuffleMode.CORGIPILE && !slice.inAnyOrder()) {
      ShuffledBuffers buffers = shuffledBuffers(slice);
      return new CorgiPilePartitionReader(
          new BufferedTupleStream(buffers, numFields), buffers.metrics());
    }
    ReaderMetrics metrics = new ReaderMetrics();
    if (conf.shuffle() == ShuffleMode.WINDOW && !slice.inAnyOrder()) {
      return new CorgiPilePartitionReader(window(slice, metrics), metrics);
    }
    // none and block, when Spark takes rows rather than column batches, and a job in any order
    return new CorgiPilePartitionReader(
        new DirectTupleStream(rows(slice, new BlockOpener(plan, settings, metrics), metrics)),
        metrics);
  }

  /**
   * Spark takes column batches when it can: {@code none} and {@code block} pass its own vectorized
   * batches through; {@code corgipile} and {@code window} over primitive columns hand out views of
   * the rows they hold. A table with deleted rows is read as rows in every mode, as a job in any
   * order would pass batches, deleted rows and all, through.
   */
  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    if (hasDeletes) {
      return false;
    }
    return switch (conf.shuffle()) {
      case NONE, BLOCK -> settings.supportsColumnar();
      case CORGIPILE, WINDOW -> settings.supportsColumnar() && settings.fixedWidthRows();
    };
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    Slice slice = slice((CorgiPileInputPartition) partition);
    if (conf.shuffle() == ShuffleMode.CORGIPILE && !slice.inAnyOrder()) {
      ShuffledBuffers buffers = shuffledBuffers(slice);
      return new ShuffledBatchReader(buffers, settings.readSchema(), buffers.metrics());
    }
    ReaderMetrics metrics = new ReaderMetrics();
    if (conf.shuffle() == ShuffleMode.WINDOW && !slice.inAnyOrder()) {
      return new WindowBatchReader(window(slice, metrics), settings.readSchema(), metrics);
    }
    // none and block: a round is whole blocks, so the slice starts at a block's first row; a job in
    // any order reads the whole epoch, whole blocks too
    return new ColumnarPartitionReader(
        new BlockOpener(plan, settings, metrics), slice.blocks, metrics);
  }

  /**
   * What the running task reads: its epoch and seeds, its partition's stream in that epoch, and the
   * slice of it the job's round reads (the whole stream when the job does not read in rounds), with
   * the slice's blocks in reading order.
   */
  private record Slice(
      int epoch,
      int partition,
      long seed,
      ReadScope.Round round,
      FillLayout.PartitionStream stream,
      FillPlan.Slice range,
      int[] blocks,
      TaskContext task,
      boolean inAnyOrder,
      ReadScope.Round nextEpoch) {
    /**
     * The slice as a job in any order reads it: without the buffer, and its blocks in storage
     * order, so each file is read front to back and the disk's readahead brings in the blocks read
     * next, not ones the page cache may lose before a random order reaches them. Only whole blocks
     * can be reordered.
     */
    Slice takenInAnyOrder() {
      int[] ordered = blocks;
      if (range.skipRows() == 0) {
        ordered = blocks.clone();
        Arrays.sort(ordered); // the plan numbers blocks in file, row group and row order
      }
      return new Slice(
          epoch, partition, seed, round, stream, range, ordered, task, true, nextEpoch);
    }

    /**
     * Round {@code round}'s slice of {@code stream}, and its blocks; {@code nextEpoch} the first
     * round of the epoch the driver reads next, when it said ({@link ReadScope#setNext}).
     */
    static Slice of(
        int epoch,
        int partition,
        long seed,
        ReadScope.Round round,
        FillLayout.PartitionStream stream,
        TaskContext task,
        ReadScope.Round nextEpoch) {
      FillPlan.Slice range = stream.slice(round.interval(), round.index(), round.count());
      int[] blocks = Arrays.copyOfRange(stream.blocks(), range.firstBlock(), range.endBlock());
      return new Slice(
          epoch, partition, seed, round, stream, range, blocks, task, false, nextEpoch);
    }

    EpochSeeds seeds() {
      return new EpochSeeds(seed);
    }

    /** The same partition's slice in round {@code index} of the epoch. */
    Slice inRound(int index) {
      return of(
          epoch,
          partition,
          seed,
          new ReadScope.Round(round.interval(), index, round.count()),
          stream,
          null,
          null);
    }

    /** Whether the slice reads a single planned fill. */
    boolean readsOneFill() {
      return range.endFill() - range.firstFill() == 1;
    }

    RoundLookahead.Key key(String scan) {
      return new RoundLookahead.Key(
          scan, seed, epoch, partition, round.index(), round.count(), round.interval());
    }
  }

  private Slice slice(CorgiPileInputPartition partition) {
    TaskContext task = TaskContext.get();
    ReadScope.InTask scope = ReadScope.of(task);
    int epoch = scope.epoch() == null ? conf.epoch() : scope.epoch();
    long seed = scope.seed() == null ? conf.seed() : scope.seed();
    Slice slice =
        Slice.of(
            epoch,
            partition.index(),
            seed,
            scope.round(),
            layout.partition(epoch, seed, partition.index()),
            task,
            scope.next());
    return scope.anyOrder() ? slice.takenInAnyOrder() : slice;
  }

  /**
   * The slice's rows through a sliding window: the {@code window} mode. With prefetch they are
   * decoded ahead on a background thread; the window itself runs on the task's thread, on the same
   * rows in the same order either way.
   */
  private WindowTupleStream window(Slice slice, ReaderMetrics metrics) {
    BlockRowStream rows = rows(slice, new BlockOpener(plan, settings, metrics), metrics);
    TupleStream source =
        conf.prefetch()
            ? new PrefetchedTupleStream(rows, numFields, prefetchThread(slice))
            : new DirectTupleStream(rows);
    // The window starts afresh at the slice's start and drains at its end, drawing from a stream
    // of the slice's first fill: each row is still emitted once, whatever the rounds.
    BufferSize.Capacity capacity = slice.stream.capacity();
    return new WindowTupleStream(
        source,
        new SlidingWindow(
            capacity.maxRows(),
            capacity.maxBytes(),
            slice
                .seeds()
                .random(
                    slice.epoch,
                    slice.partition,
                    EpochSeeds.Purpose.WINDOW_SLOT,
                    slice.range.firstFill())),
        numFields,
        metrics);
  }

  private static String prefetchThread(Slice slice) {
    return "corgipile-prefetch-"
        + (slice.task == null ? "" : "stage-" + slice.task.stageId() + "-")
        + "partition-"
        + slice.partition;
  }

  private static BlockRowStream rows(Slice slice, BlockOpener opener, ReaderMetrics metrics) {
    return new BlockRowStream(
        opener, slice.blocks, slice.range.skipRows(), slice.range.rows(), metrics);
  }

  /**
   * The slice's {@code corgipile} buffers: double-buffered with prefetch. When the executor may
   * look ahead, a slice's first buffer is taken filled from {@link RoundLookahead} when an earlier
   * task here filled it, and a slice of a single fill needs no second buffer. Once the slice's last
   * fill is in the buffer the task reads and no other is held, the partition's next round (of this
   * epoch, or the next epoch's first when the driver said one follows) is filled ahead; so a
   * partition holds two buffers at most, the two that prefetch budgets.
   */
  private ShuffledBuffers shuffledBuffers(Slice slice) {
    if (lookahead == 0) {
      return shuffledBuffers(slice, conf.prefetch());
    }
    FilledSlice ahead;
    try {
      ahead = RoundLookahead.EXECUTOR.take(slice.key(scan));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a buffer filled ahead", e);
    }
    boolean oneFill = slice.readsOneFill();
    ShuffledBuffers buffers =
        ahead != null
            ? ShuffledBuffers.prefilled(
                ahead, oneFill ? null : buffer(slice), prefetchThread(slice))
            : shuffledBuffers(slice, !oneFill);
    if (slice.task != null) {
      // a failed or killed task (a cancelled fit, a job that gives up) leaves no fills of its scan
      // behind
      slice.task.addTaskFailureListener(
          (TaskFailureListener) (context, error) -> RoundLookahead.EXECUTOR.drop(scan));
    }
    Slice next = roundAfter(slice, 1);
    fillAhead(next, buffers::afterLastFill);
    // Once this task has let its buffers go, the partition's round after next, when the next reads
    // one fill: so the fill runs while the driver merges the round and starts the next, when the
    // cores would otherwise wait, and the next round's task holds its buffer and that one.
    if (next != null && next.readsOneFill()) {
      fillAhead(roundAfter(slice, 2), buffers::afterLastBuffer);
    }
    return buffers;
  }

  /**
   * The partition's slice {@code rounds} rounds after {@code slice}: of its epoch, or the next
   * epoch's first when the driver said that one follows; null when neither is known.
   */
  private Slice roundAfter(Slice slice, int rounds) {
    int index = slice.round.index() + rounds;
    if (index < slice.round.count()) {
      return slice.inRound(index);
    }
    if (index > slice.round.count() || slice.nextEpoch == null) {
      return null;
    }
    int epoch = slice.epoch + 1;
    return Slice.of(
        epoch,
        slice.partition,
        slice.seed,
        slice.nextEpoch,
        layout.partition(epoch, slice.seed, slice.partition),
        null,
        null);
  }

  /** Has {@code when} start filling {@code ahead}'s first buffer ahead; nothing when it is null. */
  private void fillAhead(Slice ahead, Consumer<Runnable> when) {
    if (ahead != null) {
      when.accept(
          () -> RoundLookahead.EXECUTOR.start(ahead.key(scan), lookahead, () -> fillFirst(ahead)));
    }
  }

  /**
   * Opens {@code slice} and fills its first buffer, off any task: on a fill thread of its own, as a
   * task's, so a decoder that spins fails the fill (the task then reads the slice itself and fails
   * naming the block) instead of keeping the task that waits for the fill waiting for ever.
   */
  private FilledSlice fillFirst(Slice slice) throws Exception {
    ReaderMetrics metrics = new ReaderMetrics();
    BlockRowStream source = rows(slice, new BlockOpener(plan, settings, metrics), metrics);
    BufferFiller filler = filler(slice, source);
    TupleShuffleBuffer buffer = buffer(slice);
    Prefetcher<TupleShuffleBuffer> fill =
        new Prefetcher<>(prefetchThread(slice), filler::fill, buffer, null, source);
    boolean hasRows;
    try {
      hasRows = fill.next() != null;
    } catch (InterruptedException | RuntimeException | Error e) {
      fill.stopThenClose(source); // not under a fill thread still decoding
      throw e;
    }
    fill.stop(); // it waits for the buffer back, which the task that takes the slice keeps
    return new FilledSlice(source, filler, buffer, hasRows, metrics);
  }

  private ShuffledBuffers shuffledBuffers(Slice slice, boolean prefetch) {
    ReaderMetrics metrics = new ReaderMetrics();
    BlockRowStream source = rows(slice, new BlockOpener(plan, settings, metrics), metrics);
    BufferFiller filler = filler(slice, source);
    TupleShuffleBuffer first = buffer(slice);
    return new ShuffledBuffers(
        source, filler, first, prefetch ? buffer(slice) : null, prefetchThread(slice), metrics);
  }

  private static BufferFiller filler(Slice slice, BlockRowStream source) {
    // Each planned fill has its own stream, so a round can start at any fill.
    EpochSeeds seeds = slice.seeds();
    return new BufferFiller(
        source,
        slice.stream.fills(),
        slice.range.firstFill(),
        slice.range.endFill(),
        fill -> seeds.random(slice.epoch, slice.partition, EpochSeeds.Purpose.TUPLE_ORDER, fill));
  }

  private static TupleShuffleBuffer buffer(Slice slice) {
    BufferSize.Capacity capacity = slice.stream.capacity();
    return new TupleShuffleBuffer(capacity.maxRows(), capacity.maxBytes());
  }
}
