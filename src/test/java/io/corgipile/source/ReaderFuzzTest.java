package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged Parquet files (seeded byte flips and truncations of small files Spark wrote) either read
 * exactly as Spark's own reader reads them or fail naming the file, without hanging or running out
 * of memory. {@code scripts/fuzz-reader} runs more cases than this.
 */
class ReaderFuzzTest {
  private static final long SEED = 20261202L;

  /**
   * The default read, and the other modes' own decoding paths: {@code block} emits whole blocks,
   * and {@code window} and {@code none} without the prefetch thread decode on the task's thread,
   * which no stall watch covers, so a looping decode there would hang the read.
   */
  @ParameterizedTest(name = "options [{0}], {1} cases")
  @CsvSource(
      delimiter = '|',
      value = {
        "|150",
        "shuffle=block|40",
        "shuffle=window,prefetch=false|40",
        "shuffle=none,prefetch=false|40"
      })
  void damagedFilesReadLikeSparkOrFailNamingTheFile(String options, int cases) {
    options = options == null ? "" : options;
    ReaderFuzz.quietTaskFailures();
    ReaderFuzz fuzz =
        new ReaderFuzz(TestTables.tempDir("reader-fuzz"), 10_000, true, readOptions(options));
    long start = System.nanoTime();
    Map<ReaderFuzz.Verdict, Integer> counts = new EnumMap<>(ReaderFuzz.Verdict.class);
    List<String> bad = new ArrayList<>();
    for (long seed = SEED; seed < SEED + cases; seed++) {
      ReaderFuzz.Result result = fuzz.run(seed);
      counts.merge(result.verdict(), 1, Integer::sum);
      if (result.verdict() != ReaderFuzz.Verdict.IDENTICAL
          && result.verdict() != ReaderFuzz.Verdict.FAILED_NAMING_FILE) {
        bad.add(result.line());
      }
    }
    System.out.printf(
        "reader fuzz: %d cases in %.1f s: %s%n",
        counts.values().stream().mapToInt(n -> n).sum(), (System.nanoTime() - start) / 1e9, counts);
    assertThat(bad)
        .as("cases neither read like Spark nor failed naming the file")
        .withFailMessage(() -> String.join("\n", bad))
        .isEmpty();
    // Both outcomes occur, so the damage is neither all harmless nor all fatal.
    assertThat(counts)
        .containsKeys(ReaderFuzz.Verdict.IDENTICAL, ReaderFuzz.Verdict.FAILED_NAMING_FILE);
  }

  /**
   * Cases {@code scripts/fuzz-reader --seed S --files 1} found, where corgipile returned rows that
   * Spark's reader does not: Spark drops a row group whose footer has a dictionary offset before
   * the file's start (seed 29) or a negative total size (5050320, found fuzzing the window mode;
   * the footer field is the row group's own, apart from its column chunks') and every row of a file
   * with a negative row count (seed 55); both readers returned 4,194,559 different rows for a row
   * group whose row count grew (seed 20261282). Ones where both looped forever in Spark's
   * vectorized decoder: on damaged definition levels (20261337, which failed its page checksum once
   * checksums were verified) and, without checksums, on a page header grown by a size claiming a
   * gigabyte (920045); page headers of the last column chunk read that made Parquet's reader
   * allocate more than the heap, with checksums or without (930159, 920273); and a page size
   * doubled in the last chunk's header, which Spark's reader fails on and corgipile read through
   * the offset index (991317). These five now fail at the last chunk's header check. After each, no
   * thread of the reader is left running.
   */
  private static final String[][] REJECTED = {
    {
      "29",
      "true",
      "column id of row group 2 (offset 2226, dictionary offset -1099511627829, 265"
          + " bytes) lies outside the file"
    },
    {"55", "true", "row group 2 has a negative row count (-4194431); the file is corrupt"},
    {
      "5050320",
      "true",
      "row group 0 (offset 4, 30 rows) has a file offset or total size in the footer that places it"
          + " outside the file, so Spark's reader would skip it"
    },
    {
      "20261282",
      "true",
      "row group 3 has 4194559 rows but column id has 30 values; the file is" + " corrupt"
    },
    {
      "20261337",
      "true",
      "Cannot read column b: its page at offset 4418 takes 40 bytes by its"
          + " header, 36 by the offset index"
    },
    {
      "920045",
      "false",
      "Cannot read column b: its page at offset 4280 takes 34 bytes by its"
          + " header, 30 by the offset index"
    },
    {"930159", "true", "Cannot read column b: the header of its page at offset"},
    {
      "920273",
      "false",
      "Cannot read column b: the header of its page at offset 2124 claims"
          + " 1073750484 bytes, past the end"
    },
    {
      "991317",
      "true",
      "Cannot read column b: its page at offset 3298 takes 53 bytes by its header,"
          + " 38 by the offset index"
    }
  };

  /** Each case with the default read and with storage order decoded on the task's thread. */
  static Stream<Arguments> rejectedCases() {
    return Stream.of("", "shuffle=none,prefetch=false")
        .flatMap(
            options ->
                Arrays.stream(REJECTED)
                    .map(
                        c ->
                            Arguments.of(
                                Long.parseLong(c[0]), Boolean.parseBoolean(c[1]), options, c[2])));
  }

  @ParameterizedTest(name = "seed {0}, options [{2}]")
  @MethodSource("rejectedCases")
  void damagedFilesThatSparkReadsDifferentlyAreRejected(
      long seed, boolean pageChecksums, String options, String expected)
      throws InterruptedException {
    ReaderFuzz.Result result =
        new ReaderFuzz(
                TestTables.tempDir("reader-fuzz-seed"), 30_000, pageChecksums, readOptions(options))
            .run(seed);
    assertThat(result.verdict()).isEqualTo(ReaderFuzz.Verdict.FAILED_NAMING_FILE);
    assertThat(result.detail()).contains(expected);
    long deadline =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RoundLookahead.UNCLAIMED_MILLIS + 15_000);
    while (!TestTables.readerThreads().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(TestTables.readerThreads()).as("reader threads left running").isEmpty();
  }

  /** "name=value,name=value" as the pairs {@link ReaderFuzz} takes; empty for none. */
  private static String[] readOptions(String options) {
    return options.isEmpty()
        ? new String[0]
        : Arrays.stream(options.split(","))
            .flatMap(option -> Arrays.stream(option.split("=", 2)))
            .toArray(String[]::new);
  }
}
