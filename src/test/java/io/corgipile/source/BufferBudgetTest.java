package io.corgipile.source;

import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.LogCapture;
import io.corgipile.shuffle.SyncInterval;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.logging.log4j.Level;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The buffers are held to a task's memory on the driver: {@code auto} is capped with a warning, an
 * explicit size too large fails before reading. Scans are built with chosen executor figures (a
 * task share of 1.5 MiB) and their partitions read through the source's own readers, as tasks
 * would.
 */
class BufferBudgetTest {
  private static final int ROWS = 20_000;

  /** A task's share of 1.5 MiB: auto's two buffers (prefetch) take a quarter, 192 KiB each. */
  private static final TaskMemory SMALL =
      new TaskMemory(
          TaskMemory.RESERVED_BYTES + (1536 << 10), 1, "test figures", TaskMemory.EXECUTOR_MEMORY);

  private static final TaskMemory SMALL_LOCAL =
      new TaskMemory(
          TaskMemory.RESERVED_BYTES + (1536 << 10), 1, "test figures", TaskMemory.DRIVER_MEMORY);
  private static final TaskMemory LARGE =
      new TaskMemory(4L << 30, 1, "test figures", TaskMemory.EXECUTOR_MEMORY);
  private static final TaskMemory HUGE =
      new TaskMemory(64L << 30, 1, "test figures", TaskMemory.EXECUTOR_MEMORY);
  private static String table;
  private LogCapture log;

  @BeforeAll
  static void writeTable() {
    // 20 row groups of 1000 rows of a long and 3 doubles: rows of 40 bytes in the buffer (a null
    // word and 4 words), 66 with the index.
    table = TestTables.tempDir("budget").resolve("t").toString();
    spark()
        .range(0, ROWS, 1, 1)
        .selectExpr("id", "rand(1) as x1", "rand(2) as x2", "rand(3) as x3")
        .write()
        .option("parquet.block.row.count.limit", 1000)
        .parquet(table);
  }

  @BeforeEach
  void capture() {
    log = new LogCapture(CorgiPileScan.class);
  }

  @AfterEach
  void release() {
    log.close();
  }

  private static CorgiPileScan scan(TaskMemory memory, String... options) {
    Map<String, String> opts = new HashMap<>(Map.of("path", table, "partitions", "2", "seed", "7"));
    for (int i = 0; i < options.length; i += 2) {
      opts.put(options[i], options[i + 1]);
    }
    CorgiPileTable t =
        (CorgiPileTable) new CorgiPileSource().getTable(null, new Transform[0], opts);
    return ((CorgiPileScanBuilder) t.newScanBuilder(new CaseInsensitiveStringMap(opts)))
        .build(memory);
  }

  /** What each partition emits, in order, as its task would; and the largest buffer peak of any. */
  private record Read(List<List<Long>> partitions, long peakBufferBytes) {}

  private static Read read(CorgiPileScan scan) {
    Batch batch = scan.toBatch();
    PartitionReaderFactory factory = batch.createReaderFactory();
    List<List<Long>> out = new ArrayList<>();
    long peak = 0;
    for (InputPartition p : batch.planInputPartitions()) {
      List<Long> ids = new ArrayList<>();
      try (PartitionReader<InternalRow> r = factory.createReader(p)) {
        while (r.next()) {
          ids.add(r.get().getLong(0));
        }
        for (CustomTaskMetric m : r.currentMetricsValues()) {
          if (m.name().equals(CorgiPileMetrics.PEAK_BUFFER_BYTES)) {
            peak = Math.max(peak, m.value());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      out.add(ids);
    }
    return new Read(out, peak);
  }

  @Test
  void autoIsCappedToAQuarterOfTheTaskShareAndSaysSoOnce() {
    CorgiPileScan scan = scan(SMALL);
    scan.toBatch();
    scan.toBatch();
    assertThat(log.messages(Level.WARN)).hasSize(1);
    // auto: 4 row groups of a partition of 10 (10% is 1000 rows); the cap: 192 KiB / 66 bytes a row
    assertThat(log.messages(Level.WARN).get(0))
        .contains("bufferSize=auto capped the tuple buffer from 4,000 to 2,978 rows per partition")
        .contains("would take 0.7 MiB per task")
        .contains(
            "more than a quarter of what a task can hold, 1.5 MiB (test figures; less Spark's"
                + " reserved 300.0 MiB, over 1 task at once)")
        .contains(
            "set bufferSize to at most 768k (auto takes at most 192k), use more partitions, or give"
                + " executors more memory (spark.executor.memory)")
        .contains("now at most 0.4 MiB per task");
  }

  @Test
  void underTheCapEveryRowComesOnceInTheSameOrderAndTheBuffersStayWithinIt() {
    Read first = read(scan(SMALL));
    Read again = read(scan(SMALL));
    assertThat(first.partitions()).isEqualTo(again.partitions());
    assertThat(first.partitions().stream().flatMap(List::stream).sorted())
        .containsExactlyElementsOf(LongStream.range(0, ROWS).boxed().toList());
    // a task's two buffers
    assertThat(first.peakBufferBytes())
        .isPositive()
        .isLessThanOrEqualTo(2 * SMALL.autoBufferBytes(2));
    // the cap changed the fills: without it the same seed gives another order
    assertThat(first.partitions()).isNotEqualTo(read(scan(LARGE)).partitions());
  }

  @Test
  void noCapWhenMemorySufficesSoTheOrderDoesNotDependOnIt() {
    Read large = read(scan(LARGE));
    assertThat(log.messages(Level.WARN)).isEmpty();
    assertThat(large.partitions()).isEqualTo(read(scan(HUGE)).partitions());
  }

  @Test
  void anExplicitSizeTooLargeForATaskFailsBeforeReadingNamingWhatFits() {
    // 50% of one partition of 20,000 rows: 10,000 rows of 40 bytes, 16 KiB of chunk slack and
    // 52 bytes of index a row, twice: 1.8 MiB
    assertThatThrownBy(() -> scan(SMALL, "partitions", "1", "bufferSize", "50%").toBatch())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot read ")
        .hasMessageContaining(table)
        .hasMessageEndingWith(
            " with bufferSize=50%: its 2 buffers (prefetch) would need 1.8 MiB per task (a"
                + " partition of 20000 rows, rows of about 40 bytes), a task can hold 1.5 MiB (test"
                + " figures; less Spark's reserved 300.0 MiB, over 1 task at once); set bufferSize"
                + " to at most 768k (auto takes at most 192k), use more partitions, or give"
                + " executors more memory (spark.executor.memory), or set prefetch=false");
    // counting an epoch's rounds on the driver lays the partitions out too, and fails alike
    assertThatThrownBy(
            () ->
                scan(SMALL, "partitions", "1", "bufferSize", "50%")
                    .rounds(0, null, SyncInterval.EPOCH))
        .hasMessageContaining(" with bufferSize=50%: its 2 buffers (prefetch) would need 1.8 MiB");
    // a byte size beyond the partition's rows needs only what they take: 20,000 rows, 1.8 MiB
    assertThatThrownBy(
            () -> scan(SMALL, "partitions", "1", "bufferSize", "2m", "prefetch", "false").toBatch())
        .hasMessageContaining(" with bufferSize=2m: its buffer would need 1.8 MiB per task")
        .hasMessageNotContaining("prefetch=false");
  }

  @Test
  void inLocalModeTheMessageNamesTheDriversMemory() {
    assertThatThrownBy(() -> scan(SMALL_LOCAL, "partitions", "1", "bufferSize", "50%").toBatch())
        .hasMessageContaining(
            "use more partitions, or give the driver more memory (spark.driver.memory), or set"
                + " prefetch=false")
        .hasMessageNotContaining("spark.executor.memory");
  }

  @Test
  void anExplicitSizeThatFitsIsReadAsAsked() {
    Read read = read(scan(SMALL, "bufferSize", "2000"));
    assertThat(log.messages(Level.WARN)).isEmpty();
    assertThat(read.partitions().stream().mapToInt(List::size).sum()).isEqualTo(ROWS);
  }
}
