package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.shuffle.SyncInterval;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetInputFormat;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way a read can go wrong gives an error that names the path, file, row group or option. */
class ReadErrorsTest {
  private static String good;

  @BeforeAll
  static void writeTable() {
    good = TestTables.labelSorted(TestTables.tempDir("errors"), 2000, 500);
  }

  @AfterEach
  void clearSessionState() {
    spark().conf().unset(ReadOptions.SESSION_CONF_PREFIX + "shuffle");
    spark().sparkContext().setLocalProperty(ReadScope.EPOCH, null);
    spark().sparkContext().setLocalProperty(ReadScope.SEED, null);
    spark().sparkContext().setLocalProperty(ReadScope.ROUND, null);
    spark().sparkContext().setLocalProperty(ReadScope.ROUNDS, null);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, null);
  }

  /**
   * The messages of an exception and all its causes, so task failures wrapped by Spark are covered.
   */
  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append('\n');
    }
    return all.toString();
  }

  private static String failure(Runnable action) {
    try {
      action.run();
    } catch (Exception e) { // Spark rethrows SparkException, a checked exception, undeclared
      return messages(e);
    }
    throw new AssertionError("expected a failure");
  }

  private static Path firstParquet(String dir) throws Exception {
    try (Stream<Path> files = Files.list(Path.of(dir))) {
      return files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
  }

  /**
   * As {@code format("parquet")} reports it: Spark's own error, one line, which PySpark converts.
   */
  @Test
  void missingPath() {
    String missing = TestTables.tempDir("missing").resolve("nope").toString();
    assertThatThrownBy(() -> corgipile().load(missing))
        .isInstanceOfSatisfying(
            AnalysisException.class, e -> assertThat(e.getCondition()).isEqualTo("PATH_NOT_FOUND"))
        .hasMessageStartingWith("[PATH_NOT_FOUND] Path does not exist: ")
        .hasMessageContaining(missing);
  }

  @Test
  void noPathAtAll() {
    assertThatThrownBy(() -> corgipile().load())
        .hasMessage(
            "Cannot load corgipile table: no path given; use load(path, ...) or option path");
  }

  @Test
  void noParquetFiles() throws Exception {
    Path empty = TestTables.tempDir("empty");
    Files.writeString(empty.resolve("_SUCCESS"), "");
    Files.writeString(empty.resolve(".hidden.parquet"), "x");
    assertThatThrownBy(() -> corgipile().load(empty.toString()))
        .isInstanceOf(CorgiPileAnalysisException.class)
        .hasMessageStartingWith("Cannot load corgipile table: no Parquet files found in [" + empty)
        .hasMessageContaining("names start with '_' or '.' are skipped");
  }

  /**
   * Spark's schema inference reads the footer in a job; its failure is said in one line, naming the
   * file.
   */
  @Test
  void aFileThatIsNotParquet() throws Exception {
    Path dir = TestTables.tempDir("not-parquet");
    Path csv = dir.resolve("data.csv");
    Files.writeString(csv, "a,b\n1,2\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> corgipile().load(dir.toString()))
        .isInstanceOf(CorgiPileAnalysisException.class)
        .hasMessageStartingWith(
            "Cannot load corgipile table: cannot read file:" + csv.toUri().getPath() + ": ")
        .hasMessageContaining("is not a Parquet file")
        .satisfies(e -> assertThat(e.getMessage()).hasLineCount(1));
  }

  /**
   * Load reads one footer; planning, on the driver, reads the rest and fails as Spark's
   * AnalysisException.
   */
  @Test
  void aNonParquetFileAmongParquetFilesIsNamedWhenPlanning() throws Exception {
    Path dir = TestTables.tempDir("mixed");
    Files.copy(firstParquet(good), dir.resolve("a.parquet"));
    Files.writeString(
        dir.resolve("b.parquet"), "this is not parquet at all", StandardCharsets.UTF_8);
    Dataset<Row> df = corgipile().load(dir.toString());
    assertThatThrownBy(df::collectAsList)
        .isInstanceOf(CorgiPileAnalysisException.class)
        .hasMessageStartingWith(
            "Cannot read Parquet footer of file:" + dir.resolve("b.parquet").toUri().getPath())
        .hasCauseInstanceOf(CorgiPileReadException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasLineCount(1));
  }

  @Test
  void aTruncatedFile() throws Exception {
    Path dir = TestTables.tempDir("truncated");
    Files.copy(firstParquet(good), dir.resolve("a.parquet"));
    Path cut = dir.resolve("b.parquet");
    byte[] bytes = Files.readAllBytes(firstParquet(good));
    Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertThat(failure(() -> corgipile().load(dir.toString()).collectAsList()))
        .contains("b.parquet");
  }

  @ParameterizedTest(name = "shuffle={0}")
  @CsvSource({"corgipile", "block", "window", "none"})
  void aCorruptRowGroupIsNamedWithItsFile(String shuffle) throws Exception {
    Path dir = TestTables.tempDir("corrupt");
    Path file = dir.resolve("c.parquet");
    Files.copy(firstParquet(good), file);
    // The first page header follows the 4-byte magic; garbage there breaks row group 0 only.
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(4);
      raf.write(
          new byte[] {
            (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff
          });
    }
    String message =
        failure(() -> corgipile("shuffle", shuffle).load(dir.toString()).collectAsList());
    assertThat(message)
        .contains("Cannot read row group 0 (offset 4, ")
        .contains(file.toUri().getPath());
  }

  @Test
  void aDamagedPageFailsItsChecksumNamingFileAndRowGroup() throws Exception {
    Path dir = TestTables.tempDir("checksum").resolve("table");
    // plain doubles, uncompressed: a flipped bit stays a readable value, only the checksum can tell
    spark()
        .range(1000)
        .selectExpr("cast(id as double) + 0.125 as x")
        .coalesce(1)
        .write()
        .option("compression", "none")
        .option("parquet.enable.dictionary", "false")
        .parquet(dir.toString());
    Path file = firstParquet(dir.toString());
    byte[] bytes = Files.readAllBytes(file);
    byte[] value =
        java.nio.ByteBuffer.allocate(8)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putDouble(777.125)
            .array();
    int at = indexOf(bytes, value);
    assertThat(at).as("offset of 777.125 in the page").isPositive();
    bytes[at] ^= 1;
    Files.write(file, bytes);
    // the local file system's own checksum file would catch it first; object stores have none
    Files.delete(file.resolveSibling("." + file.getFileName() + ".crc"));

    assertThat(failure(() -> corgipile().load(dir.toString()).collectAsList()))
        .contains("Cannot read row group 0 (offset 4, 1000 rows) of file:" + file.toUri().getPath())
        .contains("CRC checksum verification failed");
    // Parquet's own key turns the check off, per read as in the session: the damaged value is then
    // read as Spark's scan reads it
    String damaged = "x > 777 and x < 778";
    assertThat(
            corgipile(ParquetInputFormat.PAGE_VERIFY_CHECKSUM_ENABLED, "false")
                .load(dir.toString())
                .where(damaged)
                .collectAsList())
        .isEqualTo(spark().read().parquet(dir.toString()).where(damaged).collectAsList())
        .singleElement()
        .satisfies(row -> assertThat(row.getDouble(0)).isNotEqualTo(777.125));
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void filesWithConflictingSchemas() throws Exception {
    Path dir = TestTables.tempDir("conflict");
    spark()
        .range(10)
        .selectExpr("id", "cast(id as int) as x")
        .coalesce(1)
        .write()
        .parquet(dir.resolve("1").toString());
    spark()
        .range(10)
        .selectExpr("id", "cast(id as string) as x")
        .coalesce(1)
        .write()
        .parquet(dir.resolve("2").toString());
    Path a = firstParquet(dir.resolve("1").toString());
    Path b = firstParquet(dir.resolve("2").toString());
    Path table = Files.createDirectory(dir.resolve("t"));
    Files.copy(a, table.resolve("a.parquet"));
    Files.copy(b, table.resolve("b.parquet"));
    String message = failure(() -> corgipile().load(table.toString()).collectAsList());
    assertThat(message)
        .contains("Cannot read Parquet file ")
        .contains("b.parquet")
        .contains("column x is string in this file but int in the table schema");
    // Spark's schema merge fails in a job: its root cause, in one line, said of this table
    assertThatThrownBy(() -> corgipile("mergeSchema", "true").load(table.toString()))
        .isInstanceOf(CorgiPileAnalysisException.class)
        .hasMessageStartingWith("Cannot load corgipile table from [" + table + "]: ")
        .satisfies(
            e ->
                assertThat(e.getMessage())
                    .hasLineCount(1)
                    .contains("Failed to merge incompatible data types \"INT\" and \"STRING\""));
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "shuffle|random|allowed values are corgipile, block, window, none",
        "blockAssignment|sometimes|allowed values are epoch, fixed",
        "prefetch|yes|allowed values are true, false",
        "bufferSize|0|expected auto (the larger of 10% of the partition's rows and 4 of its row"
            + " groups, at most the partition and a share of an executor's memory), a row count"
            + " (100000), a size of decoded rows (64m, 1g) or a share of the partition's rows"
            + " (10%)",
        "bufferSize|-5|expected auto",
        "bufferSize|0%|at most 100%",
        "bufferSize|150%|at most 100%",
        "bufferSize|10q|expected auto",
        "seed|abc|expected a 64-bit integer",
        "epoch|-1|expected an integer >= 0",
        "epoch|one|expected an integer >= 0",
        "partitions|0|expected an integer >= 1",
        "partitions|many|expected an integer >= 1"
      })
  void badOptionValues(String option, String value, String allowed) {
    assertThatThrownBy(() -> corgipile(option, value).load(good))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot set option " + option + " to '" + value + "': ")
        .hasMessageContaining(allowed);
  }

  /**
   * Spark's readers ignore options they do not know; this source names the one it does not and the
   * closest.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "bufferSzie|bufferSize",
        "buffer|bufferSize",
        "Shufle|shuffle",
        "mergeSchem|mergeSchema",
        "header|"
      })
  void anUnknownOptionIsNamedWithTheClosestKnownOne(String option, String closest) {
    assertThatThrownBy(() -> corgipile(option, "10%").load(good))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load corgipile table: unknown option '"
                + option
                + "'"
                + (closest == null ? "" : " (did you mean '" + closest + "'?)")
                + "; the source's options are shuffle, bufferSize, blockSize, seed, epoch,"
                + " partitions, blockAssignment, prefetch, versionAsOf, timestampAsOf, snapshot-id,"
                + " as-of-timestamp, branch, tag, and Spark's own Parquet options (such as"
                + " mergeSchema) and Hadoop settings (names with a dot) pass on to Spark's reader");
  }

  @Test
  void knownOptionsOfSparkAndHadoopPassInAnyCase() {
    assertThat(
            corgipile(
                    "BUFFERSIZE",
                    "50%",
                    "mergeschema",
                    "false",
                    "pathGlobFilter",
                    "*.parquet",
                    "recursiveFileLookup",
                    "true",
                    "datetimeRebaseMode",
                    "CORRECTED",
                    "ignoreCorruptFiles",
                    "false",
                    ParquetInputFormat.PAGE_VERIFY_CHECKSUM_ENABLED,
                    "true")
                .load(good)
                .count())
        .isEqualTo(2000);
  }

  @Test
  void anUnknownSessionSettingIsNamed() {
    spark().conf().set(ReadOptions.SESSION_CONF_PREFIX + "buffersize", "5%");
    try {
      assertThatThrownBy(() -> corgipile().load(good))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot load corgipile table: the session configuration has"
                  + " spark.datasource.corgipile.buffersize, which is no option (did you mean"
                  + " 'spark.datasource.corgipile.bufferSize'?); the source's options are shuffle,"
                  + " bufferSize, blockSize, seed, epoch, partitions, blockAssignment, prefetch,"
                  + " versionAsOf, timestampAsOf, snapshot-id, as-of-timestamp, branch, tag");
    } finally {
      spark().conf().unset(ReadOptions.SESSION_CONF_PREFIX + "buffersize");
    }
  }

  /** A version names one table's state: as a session setting it would pin every read. */
  @ParameterizedTest
  @ValueSource(
      strings = {"versionAsOf", "timestampAsOf", "snapshot-id", "as-of-timestamp", "branch", "tag"})
  void timeTravelIsNoSessionSetting(String option) {
    assertThat(ReadOptions.TIME_TRAVEL).contains(option);
    spark().conf().set(ReadOptions.SESSION_CONF_PREFIX + option, "3");
    try {
      assertThatThrownBy(() -> corgipile().load(good))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot load corgipile table: the session configuration has"
                  + " spark.datasource.corgipile."
                  + option
                  + ", but time travel names a snapshot of one table, so it is an option of a read"
                  + " (.option(\""
                  + option
                  + "\", ...)), not a session setting for every read");
    } finally {
      spark().conf().unset(ReadOptions.SESSION_CONF_PREFIX + option);
    }
  }

  @Test
  void timeTravelIsNoSessionSetting() {
    spark().conf().set(ReadOptions.SESSION_CONF_PREFIX + ReadOptions.VERSION_AS_OF, "3");
    try {
      assertThatThrownBy(() -> corgipile().load(good))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot load corgipile table: the session configuration has"
                  + " spark.datasource.corgipile.versionAsOf, but time travel names a snapshot of"
                  + " one table, so it is an option of a read (.option(\"versionAsOf\", ...)),"
                  + " not a session setting for every read");
    } finally {
      spark().conf().unset(ReadOptions.SESSION_CONF_PREFIX + ReadOptions.VERSION_AS_OF);
    }
  }

  @Test
  void badSessionConfigurationIsNamedByItsKey() {
    spark().conf().set(ReadOptions.SESSION_CONF_PREFIX + "shuffle", "sideways");
    assertThatThrownBy(() -> corgipile().load(good))
        .hasMessage(
            "Cannot set spark.datasource.corgipile.shuffle to 'sideways': "
                + "allowed values are corgipile, block, window, none");
  }

  @Test
  void optionsWinOverSessionConfigurationWhichWinsOverDefaults() {
    spark().conf().set(ReadOptions.SESSION_CONF_PREFIX + "shuffle", "none");
    assertThat(scanDescription(corgipile().load(good))).contains("shuffle=none");
    assertThat(scanDescription(corgipile("shuffle", "block").load(good))).contains("shuffle=block");
    spark().conf().unset(ReadOptions.SESSION_CONF_PREFIX + "shuffle");
    assertThat(scanDescription(corgipile().load(good)))
        .contains(
            "shuffle=corgipile, bufferSize=auto, blockSize=auto, seed=42, epoch=0,"
                + " partitions=default, blockAssignment=epoch, prefetch=true");
  }

  private static String scanDescription(Dataset<Row> df) {
    return ((org.apache.spark.sql.classic.Dataset<Row>) df)
        .queryExecution()
        .executedPlan()
        .toString();
  }

  @Test
  void aBadEpochLocalProperty() {
    Dataset<Row> df = corgipile().load(good);
    spark().sparkContext().setLocalProperty(ReadScope.EPOCH, "first");
    assertThat(failure(df::collectAsList))
        .contains("Cannot use local property corgipile.epoch='first': expected an integer >= 0");
  }

  @Test
  void aBadSeedLocalProperty() {
    Dataset<Row> df = corgipile().load(good);
    spark().sparkContext().setLocalProperty(ReadScope.SEED, "lucky");
    assertThat(failure(df::collectAsList))
        .contains("Cannot use local property corgipile.seed='lucky': expected a 64-bit integer");
  }

  @Test
  void aBadRoundLocalProperty() {
    Dataset<Row> df = corgipile().load(good);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    spark().sparkContext().setLocalProperty(ReadScope.ROUND, "-1");
    assertThat(failure(df::collectAsList))
        .contains("Cannot use local property corgipile.round='-1': expected an integer >= 0");
  }

  @Test
  void aRoundWithoutTheEpochsRoundCount() {
    Dataset<Row> df = corgipile().load(good);
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "buffer");
    spark().sparkContext().setLocalProperty(ReadScope.ROUND, "2");
    assertThat(failure(df::collectAsList))
        .contains(
            "Cannot read round 2 of the epoch: local property corgipile.rounds is not set; set it"
                + " to the epoch's round count (EpochRounds.of)");
    spark().sparkContext().setLocalProperty(ReadScope.ROUNDS, "0");
    assertThat(failure(df::collectAsList))
        .contains("Cannot use local property corgipile.rounds='0': expected an integer >= 1");
  }

  @Test
  void aBadSyncIntervalLocalProperty() {
    Dataset<Row> df = corgipile().load(good);
    spark().sparkContext().setLocalProperty(ReadScope.ROUND, "0");
    spark().sparkContext().setLocalProperty(ReadScope.SYNC_INTERVAL, "1.5");
    assertThat(failure(df::collectAsList))
        .contains(
            "Cannot use local property corgipile.syncInterval='1.5': expected "
                + SyncInterval.FORMAT);
  }
}
