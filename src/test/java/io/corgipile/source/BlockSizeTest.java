package io.corgipile.source;

import static io.corgipile.source.TestTables.canonicalRows;
import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.orderByPartition;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.Level;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Row groups cut into parts of consecutive rows at page boundaries ({@code blockSize}): each part
 * decodes exactly its rows, every row is read once per epoch in every mode, and the order is still
 * a function of the seed, also through a task retry.
 */
class BlockSizeTest {
  private static final int ROWS = 6000;
  private static final int GROUP_ROWS = 2000;
  private static final int PAGE_ROWS = 100;
  private static final String VECTORIZED = "spark.sql.parquet.enableVectorizedReader";
  private static String table;

  /**
   * One file of 3 row groups of 2000 rows in pages of 100, sorted by label, with a nullable
   * dictionary-encoded string and a nullable double, so a part starts inside dictionary pages and
   * null runs.
   */
  @BeforeAll
  static void writeTable() {
    table = TestTables.tempDir("blocksize").resolve("paged").toString();
    spark()
        .range(0, ROWS, 1, 1)
        .selectExpr(
            "id",
            "cast(id >= " + ROWS / 2 + " as int) as label",
            "cast(id as double) / 2 as x",
            "if(id % 7 = 0, null, concat('s', id % 50)) as s",
            "if(id % 5 = 0, null, id * 1.5) as d")
        .write()
        .option("parquet.block.row.count.limit", GROUP_ROWS)
        .option("parquet.page.row.count.limit", PAGE_ROWS)
        .parquet(table);
  }

  @AfterEach
  void restoreVectorizedReader() {
    spark().conf().unset(VECTORIZED);
  }

  private static BlockPlan planOf(String... options) {
    Dataset<Row> df = corgipile(options).load(table);
    return ((CorgiPileScan) TestTables.scanOf(df)).plan();
  }

  /** The first row index of every page of {@code column} in each row group of the table's file. */
  private static List<List<Long>> pageStarts(int column) throws Exception {
    String file;
    try (java.util.stream.Stream<java.nio.file.Path> files =
        java.nio.file.Files.list(java.nio.file.Path.of(table))) {
      file =
          files.map(Object::toString).filter(f -> f.endsWith(".parquet")).findFirst().orElseThrow();
    }
    List<List<Long>> starts = new ArrayList<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new Path(file), spark().sparkContext().hadoopConfiguration()))) {
      for (BlockMetaData group : reader.getFooter().getBlocks()) {
        OffsetIndex index = reader.readOffsetIndex(group.getColumns().get(column));
        List<Long> pages = new ArrayList<>();
        for (int p = 0; p < index.getPageCount(); p++) {
          pages.add(index.getFirstRowIndex(p));
        }
        starts.add(pages);
      }
    }
    return starts;
  }

  @Test
  void anExplicitSizeCutsEveryRowGroupAtPageBoundariesIntoPartsOfAtLeastThatManyRows()
      throws Exception {
    List<List<Long>> pages = pageStarts(0);
    assertThat(pages).hasSize(ROWS / GROUP_ROWS);
    assertThat(pages.get(0)).as("the fixture's pages").hasSizeGreaterThan(10);
    BlockPlan plan = planOf("blockSize", "250", "shuffle", "none");
    List<Block> wholeGroups = planOf("blockSize", "rowGroup").blocks();
    assertThat(wholeGroups)
        .hasSize(ROWS / GROUP_ROWS)
        .allSatisfy(b -> assertThat(b.wholeRowGroup()).isTrue());
    assertThat(plan.totalRows()).isEqualTo(ROWS);
    for (int group = 0; group < pages.size(); group++) {
      int g = group;
      List<Block> parts =
          plan.blocks().stream().filter(b -> b.rowGroup() == g).collect(Collectors.toList());
      assertThat(parts).hasSizeGreaterThan(4);
      long next = 0;
      for (int i = 0; i < parts.size(); i++) {
        Block part = parts.get(i);
        assertThat(part.firstRow()).isEqualTo(next);
        assertThat(pages.get(group)).contains(part.firstRow());
        assertThat(part.groupRows()).isEqualTo(GROUP_ROWS);
        assertThat(part.rows()).isGreaterThanOrEqualTo(i == parts.size() - 1 ? 125 : 250);
        next += part.rows();
      }
      assertThat(next).isEqualTo(GROUP_ROWS);
      assertThat(parts.stream().mapToLong(Block::compressedBytes).sum())
          .as("the parts' bytes")
          .isEqualTo(wholeGroups.get(group).compressedBytes());
      assertThat(parts.stream().mapToLong(Block::uncompressedBytes).sum())
          .isEqualTo(wholeGroups.get(group).uncompressedBytes());
    }
    assertThat(planOf("blockSize", Integer.toString(GROUP_ROWS)).blocks())
        .hasSize(ROWS / GROUP_ROWS);
  }

  @Test
  void partsOfRowGroupsReadInStorageOrderGiveExactlySparksRows() {
    Dataset<Row> parts =
        corgipile("blockSize", "1", "shuffle", "none", "partitions", "1").load(table);
    assertThat(orderByPartition(parts, "id"))
        .containsExactly(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
    List<String> expected =
        spark().read().parquet(table).orderBy("id").collectAsList().stream()
            .map(Row::toString)
            .collect(Collectors.toList());
    assertThat(parts.collectAsList().stream().map(Row::toString).collect(Collectors.toList()))
        .isEqualTo(expected);
    // Parts cut at the first column's pages, read through other columns only.
    assertThat(
            corgipile("blockSize", "1", "shuffle", "none", "partitions", "1")
                .load(table)
                .select("s", "d")
                .collectAsList()
                .stream()
                .map(Row::toString)
                .collect(Collectors.toList()))
        .isEqualTo(
            spark().read().parquet(table).orderBy("id").select("s", "d").collectAsList().stream()
                .map(Row::toString)
                .collect(Collectors.toList()));
  }

  @ParameterizedTest(name = "shuffle={0} prefetch={1}")
  @CsvSource({"corgipile,true", "corgipile,false", "block,true", "window,true", "none,false"})
  void everyRowOnceAndTheSameOrderForASeed(String shuffle, String prefetch) {
    String[] options = {
      "blockSize",
      "250",
      "shuffle",
      shuffle,
      "prefetch",
      prefetch,
      "bufferSize",
      "600",
      "partitions",
      "2",
      "seed",
      "7",
      "epoch",
      "1"
    };
    List<List<Long>> first = orderByPartition(corgipile(options).load(table), "id");
    assertThat(first.stream().flatMap(List::stream).sorted().collect(Collectors.toList()))
        .isEqualTo(LongStream.range(0, ROWS).boxed().collect(Collectors.toList()));
    assertThat(orderByPartition(corgipile(options).load(table), "id")).isEqualTo(first);
    assertThat(canonicalRows(corgipile(options).load(table)))
        .isEqualTo(canonicalRows(spark().read().parquet(table)));
  }

  @Test
  void partsShuffleFinerThanWholeRowGroups() {
    List<List<Long>> parts =
        orderByPartition(
            corgipile("blockSize", "250", "shuffle", "block", "partitions", "1", "seed", "3")
                .load(table),
            "id");
    List<List<Long>> groups =
        orderByPartition(
            corgipile("blockSize", "rowGroup", "shuffle", "block", "partitions", "1", "seed", "3")
                .load(table),
            "id");
    // In block order, rows of one block come in storage order: count the jumps between blocks.
    assertThat(jumps(parts.get(0))).isGreaterThan(10);
    assertThat(jumps(groups.get(0))).isLessThanOrEqualTo(ROWS / GROUP_ROWS);
  }

  private static int jumps(List<Long> ids) {
    int jumps = 0;
    for (int i = 1; i < ids.size(); i++) {
      if (ids.get(i) != ids.get(i - 1) + 1) {
        jumps++;
      }
    }
    return jumps;
  }

  @ParameterizedTest(name = "shuffle={0} prefetch={1}")
  @CsvSource({"corgipile,true", "corgipile,false", "block,true", "window,true"})
  void aRetriedTaskEmitsTheSameRowsInTheSameOrder(String shuffle, String prefetch) {
    Dataset<Row> df =
        corgipile(
                "blockSize",
                "250",
                "shuffle",
                shuffle,
                "prefetch",
                prefetch,
                "bufferSize",
                "600",
                "partitions",
                "2",
                "epoch",
                "2")
            .load(table)
            .select("id");
    List<List<Long>> clean = ShuffleOrderTest.readFailingOnce(df, false);
    assertThat(ShuffleOrderTest.readFailingOnce(df, true)).isEqualTo(clean);
    assertThat(clean.get(0).size()).isGreaterThan(1000);
  }

  @Test
  void autoCutsWhereABufferWouldHoldFewRowGroupsAndOnlyInTheCorgipileShuffle() {
    // auto's buffer holds the whole partition, 3 row groups: parts of 1/64 of it, at least a page.
    BlockPlan auto = planOf("partitions", "1");
    assertThat(auto.blocks()).hasSizeGreaterThan(ROWS / PAGE_ROWS / 2);
    assertThat(auto.blocks()).allSatisfy(b -> assertThat(b.rows()).isLessThan(2 * PAGE_ROWS + 1));
    assertThat(planOf("partitions", "1", "shuffle", "block").blocks()).hasSize(ROWS / GROUP_ROWS);
    assertThat(planOf("partitions", "1", "shuffle", "window").blocks()).hasSize(ROWS / GROUP_ROWS);
    Dataset<Row> read = corgipile("partitions", "1").load(table);
    assertThat(read.count()).isEqualTo(ROWS);
    List<Row> rows = read.collectAsList();
    assertThat(rows).hasSize(ROWS);
    assertThat(TestTables.scanMetrics(read))
        .containsEntry(CorgiPileMetrics.BLOCKS_READ, (long) auto.blocks().size());
  }

  @Test
  void autoKeepsWholeRowGroupsWhereABufferHoldsEnoughOfThem() {
    // 65 row groups of 200 rows in pages of 100.
    String many = TestTables.tempDir("blocksize-many").resolve("many").toString();
    spark()
        .range(0, 13_000, 1, 1)
        .selectExpr("id", "cast(id as double) as x")
        .write()
        .option("parquet.block.row.count.limit", 200)
        .option("parquet.page.row.count.limit", 100)
        .parquet(many);
    Dataset<Row> all = corgipile("partitions", "1", "bufferSize", "100%").load(many);
    assertThat(((CorgiPileScan) TestTables.scanOf(all)).plan().blocks()).hasSize(65);
    Dataset<Row> tenth = corgipile("partitions", "1", "bufferSize", "10%").load(many);
    assertThat(((CorgiPileScan) TestTables.scanOf(tenth)).plan().blocks()).hasSize(130);
  }

  /**
   * Another writer's pages (parquet-testing, written by Impala): 7300 rows in pages of a few dozen.
   */
  @ParameterizedTest
  @CsvSource({"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet"})
  void cutsAnotherWritersTinyPagesAndReadsTheSameRows(String name) {
    String file =
        java.nio.file.Path.of("src/test/resources/parquet-testing/data", name)
            .toAbsolutePath()
            .toString();
    Dataset<Row> parts =
        corgipile("blockSize", "1", "shuffle", "none", "partitions", "1").load(file);
    assertThat(((CorgiPileScan) TestTables.scanOf(parts)).plan().blocks()).hasSizeGreaterThan(100);
    assertThat(parts.collectAsList().stream().map(Row::toString).collect(Collectors.toList()))
        .isEqualTo(
            spark().read().parquet(file).collectAsList().stream()
                .map(Row::toString)
                .collect(Collectors.toList()));
  }

  @Test
  void pagesAreReadWithoutVectoredReadsUnlessTheOptionSaysSo() {
    String key = org.apache.parquet.hadoop.ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED;
    assertThat(
            ((CorgiPileScan) TestTables.scanOf(corgipile().load(table)))
                .settings()
                .hadoopConf()
                .get(key))
        .isEqualTo("false");
    assertThat(
            ((CorgiPileScan) TestTables.scanOf(corgipile(key, "true").load(table)))
                .settings()
                .hadoopConf()
                .get(key))
        .isEqualTo("true");
  }

  @Test
  void schemasSparkReadsWithTheRecordReaderKeepWholeRowGroups() {
    spark().conf().set(VECTORIZED, "false");
    try (LogCapture log = new LogCapture(CorgiPileScan.class)) {
      assertThat(planOf("blockSize", "250").blocks()).hasSize(ROWS / GROUP_ROWS);
      assertThat(log.messages(Level.WARN))
          .containsExactly(
              "corgipile: blockSize=250 reads whole row groups: Spark reads this schema with"
                  + " Parquet's record reader, which reads whole row groups");
    }
    assertThat(canonicalRows(corgipile("blockSize", "250").load(table)))
        .isEqualTo(canonicalRows(spark().read().parquet(table)));
  }

  @Test
  void aBadValueNamesTheOptionAndWhatIsAllowed() {
    for (String bad : List.of("0", "-3", "row-group", "1.5")) {
      assertThatThrownBy(() -> corgipile("blockSize", bad).load(table))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Cannot set option blockSize to '" + bad + "': expected auto (")
          .hasMessageContaining("rowGroup (whole row groups) or a row count");
    }
    spark().conf().set(ReadOptions.SESSION_CONF_PREFIX + ReadOptions.BLOCK_SIZE, "none");
    try {
      assertThatThrownBy(() -> corgipile().load(table))
          .hasMessageStartingWith("Cannot set spark.datasource.corgipile.blockSize to 'none'");
      assertThat(planOf("blockSize", "rowGroup").blocks()).hasSize(ROWS / GROUP_ROWS);
    } finally {
      spark().conf().unset(ReadOptions.SESSION_CONF_PREFIX + ReadOptions.BLOCK_SIZE);
    }
  }
}
