package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import io.corgipile.SharedSpark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.Geography;
import org.apache.spark.sql.types.Geometry;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Conformance of {@code format("corgipile")} with {@code spark.read().parquet(...)} over the Apache
 * parquet-testing corpus vendored in {@code src/test/resources/parquet-testing} (see its
 * ORIGIN.md).
 *
 * <p>Every {@code *.parquet} and {@code *.parquet.encrypted} file under {@code data/} and {@code
 * bad_data/} (found at run time, sub-folders included) is first read with Spark's own reader:
 * schema, then all rows. Then, for each {@link #CONFIGS reader configuration}:
 *
 * <ul>
 *   <li>if Spark reads the file, corgipile must report the same schema and return the same multiset
 *       of rows (compared order-independently through a canonical string per row; with the default
 *       options its {@code count()} must match too);
 *   <li>if Spark rejects it, corgipile must fail too, within {@link #READ_TIMEOUT}, without an
 *       {@link OutOfMemoryError}, and with the file name somewhere in its error's message chain.
 * </ul>
 *
 * <p>Memory is bounded in two ways. Rows are compared in a canonical string form and only one
 * file's reference is held at a time (the corpus is small: at most tens of thousands of rows per
 * file). And before any row is decoded, the footer's decoded (uncompressed) size is checked: above
 * {@link #MAX_DECODED_BYTES} rows are decoded only if some column chunk uses a codec this JVM
 * lacks, since then both readers fail at the first page, before allocating anything. Otherwise only
 * schema and {@code count()} (which needs no column data) are compared and the case is reported as
 * skipped. This is what keeps {@code large_string_map.brotli.parquet} (4 KB on disk, two 1 GiB
 * strings decoded, more than 2 GiB per column chunk) from exhausting the 4 GB heap that all test
 * classes share: an OutOfMemoryError in a Spark task kills the whole test JVM, so it must be
 * prevented, not caught. Spark 4.2 ships no Brotli codec, so today both readers do attempt that
 * file and fail fast. Every read also runs under {@link #READ_TIMEOUT} ({@code
 * assertTimeoutPreemptively}), and the Spark jobs of a read that times out are cancelled, so a hang
 * fails one case instead of the build.
 *
 * <p>Files corgipile rejects on purpose although Spark reads them are listed in {@link
 * #STRICTER_THAN_SPARK}; the summary printed after the class (in the surefire {@code -output.txt})
 * lists Spark's verdict per file and the result per case.
 */
class ParquetConformanceTest {
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
  private static final long MAX_DECODED_BYTES = 64L << 20;
  private static final long MAX_ROWS = 1_000_000L;
  private static final int SMALL_BUFFER = 7;

  /**
   * Reader configurations: each shuffle mode with a 7-row buffer (many buffer fills, windows and
   * blocks per file), the corgipile shuffle with row groups cut at every page, and the defaults (no
   * option). Only the defaults also check {@code count()}, whose scan reads no column: one Spark
   * job fewer for every other case keeps the class fast.
   */
  private static final Map<String, Map<String, String>> CONFIGS = new LinkedHashMap<>();

  private static final String DEFAULTS = "defaults";

  static {
    for (String mode : List.of("corgipile", "block", "window", "none")) {
      CONFIGS.put(
          "shuffle=" + mode + ",bufferSize=" + SMALL_BUFFER,
          Map.of(
              ReadOptions.SHUFFLE, mode, ReadOptions.BUFFER_SIZE, Integer.toString(SMALL_BUFFER)));
    }
    // Every page its own block where the file has offset indexes (the tiny-pages files), whole row
    // groups where it has none.
    CONFIGS.put(
        "shuffle=corgipile,bufferSize=" + SMALL_BUFFER + ",blockSize=1",
        Map.of(
            ReadOptions.SHUFFLE,
            "corgipile",
            ReadOptions.BUFFER_SIZE,
            Integer.toString(SMALL_BUFFER),
            ReadOptions.BLOCK_SIZE,
            "1"));
    CONFIGS.put(DEFAULTS, Map.of());
  }

  /**
   * Files Spark reads without complaint but corgipile rejects on purpose, with the part of the
   * error expected. ARROW-RS-GH-6229-DICTHEADER's footer puts its only row group (25 rows, 2574
   * compressed bytes) in a 533-byte file: parquet-mr keeps a row group only if its midpoint lies in
   * the split, so Spark silently returns no rows; corgipile says the file is corrupt instead of
   * losing 25 rows. The two files whose pages carry wrong checksums: Spark's scan does not verify
   * them, corgipile does.
   */
  private static final Map<String, String> STRICTER_THAN_SPARK =
      Map.of(
          "bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet",
          "row group 0 (offset 4, 2574 bytes, 25 rows) extends past the end of the file (533"
              + " bytes)",
          "data/datapage_v1-corrupt-checksum.parquet",
          "CRC checksum verification failed",
          "data/rle-dict-uncompressed-corrupt-checksum.parquet",
          "CRC checksum verification failed");

  private static final AtomicLong JOB_GROUPS = new AtomicLong();
  private static final Map<String, String> SPARK_VERDICTS = new TreeMap<>();
  private static final Map<String, Map<String, String>> RESULTS = new TreeMap<>();
  private static Reference reference;

  /** Optional regular expression (system property) that selects corpus files, for local runs. */
  private static final String FILES_PROPERTY = "parquetConformance.files";

  private static long startNanos;
  private static long startCpuNanos;

  static Stream<Arguments> cases() {
    String only = System.getProperty(FILES_PROPERTY);
    return corpusFiles().stream()
        .filter(file -> only == null || file.matches(only))
        .flatMap(file -> CONFIGS.keySet().stream().map(config -> Arguments.of(file, config)));
  }

  @ParameterizedTest(name = "{0} [{1}]")
  @MethodSource("cases")
  void readsLikeSparksParquetReader(String file, String config) {
    String result = "FAILED";
    try {
      result = "ok" + check(file, config);
    } catch (org.opentest4j.TestAbortedException e) {
      result = "SKIPPED (" + e.getMessage() + ")";
      throw e;
    } catch (AssertionError | RuntimeException e) {
      result = "FAILED: " + oneLine(String.valueOf(e.getMessage()), 300);
      throw e;
    } finally {
      synchronized (RESULTS) {
        RESULTS.computeIfAbsent(file, f -> new LinkedHashMap<>()).put(config, result);
      }
    }
  }

  /** Runs one case; returns a note for the summary. */
  private String check(String file, String config) {
    Reference ref = referenceFor(file);
    if (ref.timedOut) {
      fail(
          "Spark's own reader did not finish " + file + "; nothing to compare with",
          ref.spark.error);
    }
    Outcome corgi =
        read(
            "corgipile " + file + " [" + config + "]",
            () -> {
              DataFrameReader reader = SharedSpark.get().read().format("corgipile");
              CONFIGS.get(config).forEach(reader::option);
              return reader.load(ref.path);
            },
            ref.decodeRows,
            config.equals(DEFAULTS) || !ref.decodeRows);

    String stricter = STRICTER_THAN_SPARK.get(file);
    if (stricter != null) {
      assertThat(corgi.error).as("corgipile must reject %s [%s]", file, config).isNotNull();
      assertThat(chain(corgi.error))
          .contains(stricter)
          .contains(Path.of(file).getFileName().toString());
      return " (Spark reads it silently; corgipile rejects it: "
          + oneLine(corgipileMessage(corgi.error), 160)
          + ")";
    }
    if (ref.spark.error != null) {
      assertRejected(file, config, ref, corgi);
      return " (both reject; corgipile: " + oneLine(corgipileMessage(corgi.error), 160) + ")";
    }
    if (corgi.error != null) {
      fail(
          "Spark reads "
              + file
              + " ("
              + ref.spark.count
              + " rows) but corgipile ["
              + config
              + "] fails: "
              + chain(corgi.error),
          corgi.error);
    }
    assertThat(corgi.schema)
        .as(
            "schema of %s [%s]; Spark:%n%s%ncorgipile:%n%s",
            file, config, ref.spark.schema.treeString(), corgi.schema.treeString())
        .isEqualTo(ref.spark.schema);
    assertThat(corgi.count).as("row count of %s [%s]", file, config).isEqualTo(ref.spark.count);
    if (ref.spark.rows == null) {
      Assumptions.abort("rows not compared: " + ref.whyRowsNotDecoded);
    }
    assertSameMultiset(file, config, ref.spark.rows, corgi.rows);
    return " (" + corgi.rows.size() + " rows)";
  }

  /**
   * Tasks failing on purpose (about 35 rejected files, 5 configurations, 2 attempts) log pages of
   * traces.
   */
  private static final List<String> QUIETED_LOGGERS =
      List.of("org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager");

  private static final Map<String, Level> SAVED_LEVELS = new HashMap<>();

  @BeforeAll
  static void quietExpectedTaskFailures() {
    startNanos = System.nanoTime();
    startCpuNanos = processCpuNanos();
    for (String name : QUIETED_LOGGERS) {
      SAVED_LEVELS.put(name, LogManager.getLogger(name).getLevel());
      Configurator.setLevel(name, Level.OFF);
    }
  }

  @AfterAll
  static void printSummary() {
    SAVED_LEVELS.forEach(Configurator::setLevel);
    System.out.println(
        "=== Spark's own reader over the corpus (" + SPARK_VERDICTS.size() + " files) ===");
    SPARK_VERDICTS.forEach((file, verdict) -> System.out.println(verdict));
    System.out.println("=== corgipile against Spark, per file and configuration ===");
    RESULTS.forEach(
        (file, byConfig) ->
            byConfig.forEach(
                (config, result) -> System.out.printf("%-60s %-36s %s%n", file, config, result)));
    System.out.printf(
        "=== %d cases in %.1f s wall clock, %.1f s CPU time of the test JVM ===%n",
        RESULTS.values().stream().mapToInt(Map::size).sum(),
        (System.nanoTime() - startNanos) / 1e9,
        (processCpuNanos() - startCpuNanos) / 1e9);
  }

  private static long processCpuNanos() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Reading

  /** What one reader made of one file: schema, count and canonical rows (sorted), or its error. */
  private record Outcome(StructType schema, long count, List<String> rows, Throwable error) {}

  /** Spark's reading of a file, computed once per file and shared by its configurations. */
  private record Reference(
      String file,
      String path,
      boolean decodeRows,
      String whyRowsNotDecoded,
      Outcome spark,
      boolean timedOut) {}

  private static synchronized Reference referenceFor(String file) {
    if (reference == null || !reference.file.equals(file)) {
      reference = null; // let the previous file's rows go before reading the next
      String path = corpusRoot().resolve(file).toString();
      String whyNot = whyRowsCannotBeDecodedSafely(path);
      Outcome spark;
      boolean timedOut = false;
      try {
        spark =
            read(
                "spark.read().parquet " + file,
                () -> SharedSpark.get().read().parquet(path),
                whyNot == null,
                whyNot != null);
      } catch (AssertionError e) {
        spark = new Outcome(null, -1, null, e); // kept, so the file's other cases fail at once
        timedOut = true;
      }
      reference = new Reference(file, path, whyNot == null, whyNot, spark, timedOut);
      SPARK_VERDICTS.put(
          file,
          spark.error == null
              ? String.format(
                  "SPARK READS   %-60s %6d rows%s",
                  file, spark.count, whyNot == null ? "" : " (rows not compared: " + whyNot + ")")
              : String.format(
                  "SPARK %s %-60s %s",
                  timedOut ? "TIMEOUT" : "REJECTS", file, oneLine(rootMessage(spark.error), 220)));
    }
    return reference;
  }

  /**
   * Loads, then (if {@code count}) counts, then (if {@code decodeRows}) collects, all inside {@link
   * #READ_TIMEOUT}; the first failure ends the read and is returned in the outcome. Without {@code
   * count} the count is the number of rows collected.
   */
  private static Outcome read(
      String what, Supplier<Dataset<Row>> load, boolean decodeRows, boolean count) {
    SparkContext sc = SharedSpark.get().sparkContext();
    String group = "parquet-conformance-" + JOB_GROUPS.incrementAndGet();
    try {
      return assertTimeoutPreemptively(
          READ_TIMEOUT,
          () -> {
            sc.setJobGroup(group, what, true);
            StructType schema = null;
            long n = -1;
            try {
              Dataset<Row> df = load.get();
              schema = df.schema();
              if (count) {
                n = df.count();
              }
              List<String> rows = null;
              if (decodeRows && n <= MAX_ROWS) {
                List<Row> collected = df.collectAsList();
                rows = new ArrayList<>(collected.size());
                for (Row r : collected) {
                  rows.add(canonical(r));
                }
                Collections.sort(rows);
                n = count ? n : rows.size();
              }
              return new Outcome(schema, n, rows, null);
            } catch (Throwable t) {
              return new Outcome(schema, n, null, t);
            } finally {
              sc.clearJobGroup();
            }
          },
          () -> what + " did not finish within " + READ_TIMEOUT.toSeconds() + " s (hang?)");
    } catch (Throwable timedOut) {
      sc.cancelJobGroup(
          group); // the read was abandoned: stop its jobs, or they keep the cores busy
      throw timedOut;
    }
  }

  /**
   * Null if decoding every row is safe; else why not. Reads the footer directly: an unreadable
   * footer (e.g. encrypted) is fine, no reader can decode rows without it.
   */
  private static String whyRowsCannotBeDecodedSafely(String path) {
    Configuration conf = SharedSpark.get().sparkContext().hadoopConfiguration();
    ParquetMetadata footer;
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(path), conf))) {
      footer = reader.getFooter();
    } catch (IOException | RuntimeException e) {
      return null;
    }
    long decoded = 0;
    String missingCodec = null;
    try {
      for (BlockMetaData block : footer.getBlocks()) {
        decoded += block.getTotalByteSize();
        for (ColumnChunkMetaData column : block.getColumns()) {
          if (missingCodec == null && !codecAvailable(column.getCodec())) {
            missingCodec = column.getCodec().name();
          }
        }
      }
    } catch (RuntimeException e) {
      return null; // encrypted column metadata: no reader here can decrypt, so none decodes rows
    }
    if (decoded <= MAX_DECODED_BYTES || missingCodec != null) {
      return null;
    }
    return "decoded size " + decoded + " bytes exceeds " + MAX_DECODED_BYTES + " bytes";
  }

  private static boolean codecAvailable(CompressionCodecName codec) {
    String className = codec.getHadoopCompressionCodecClassName();
    if (className == null || codec == CompressionCodecName.UNCOMPRESSED) {
      return true;
    }
    try {
      Class.forName(className, false, ParquetConformanceTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Checks

  private static void assertRejected(String file, String config, Reference ref, Outcome corgi) {
    String sparkError = oneLine(rootMessage(ref.spark.error), 300);
    if (corgi.error == null) {
      fail(
          "Spark rejects "
              + file
              + " ("
              + sparkError
              + ") but corgipile ["
              + config
              + "] reads it: schema "
              + corgi.schema.simpleString()
              + ", "
              + corgi.count
              + " rows");
    }
    for (Throwable t = corgi.error; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError) {
        fail("corgipile [" + config + "] ran out of memory on " + file, corgi.error);
      }
    }
    String fileName = Paths.get(file).getFileName().toString();
    if (!chain(corgi.error).contains(fileName)) {
      fail(
          "Spark rejects "
              + file
              + " ("
              + sparkError
              + "); corgipile ["
              + config
              + "] fails too, but no message in its cause chain names the file: "
              + chain(corgi.error),
          corgi.error);
    }
  }

  private static void assertSameMultiset(
      String file, String config, List<String> expected, List<String> actual) {
    if (expected.equals(actual)) {
      return;
    }
    Map<String, Integer> diff = new HashMap<>();
    expected.forEach(r -> diff.merge(r, 1, Integer::sum));
    actual.forEach(r -> diff.merge(r, -1, Integer::sum));
    List<String> missing = new ArrayList<>();
    List<String> extra = new ArrayList<>();
    diff.forEach(
        (row, n) -> {
          for (int i = 0; i < Math.abs(n); i++) {
            (n > 0 ? missing : extra).add(row);
          }
        });
    Collections.sort(missing);
    Collections.sort(extra);
    Function<List<String>, String> sample =
        rows ->
            rows.stream()
                .limit(5)
                .map(r -> "\n    " + oneLine(r, 400))
                .collect(Collectors.joining());
    fail(
        String.format(
            "rows of %s [%s] differ from Spark's: %d rows expected, %d returned; %d rows"
                + " missing:%s%n  %d rows unexpected:%s",
            file,
            config,
            expected.size(),
            actual.size(),
            missing.size(),
            sample.apply(missing),
            extra.size(),
            sample.apply(extra)));
  }

  // ---------------------------------------------------------------------------------------------
  // Canonical form of a row: exact (bytes in hex, floating point by Java's shortest repr, which
  // keeps -0.0 apart from 0.0 and prints every NaN alike), field names included, map entries in
  // stored order.

  static String canonical(Object v) {
    StringBuilder sb = new StringBuilder();
    canonical(v, sb);
    return sb.toString();
  }

  private static void canonical(Object v, StringBuilder sb) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Row) {
      Row r = (Row) v;
      String[] names = r.schema() == null ? null : r.schema().fieldNames();
      sb.append('{');
      for (int i = 0; i < r.length(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(names == null ? Integer.toString(i) : names[i]).append('=');
        canonical(r.get(i), sb);
      }
      sb.append('}');
    } else if (v instanceof byte[]) {
      sb.append("0x").append(HexFormat.of().formatHex((byte[]) v));
    } else if (v instanceof String) {
      sb.append('"').append(((String) v).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    } else if (v instanceof scala.collection.Map) {
      sb.append("map(");
      boolean first = true;
      for (Map.Entry<?, ?> e :
          scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Map<?, ?>) v)
              .entrySet()) {
        sb.append(first ? "" : ", ");
        first = false;
        canonical(e.getKey(), sb);
        sb.append(" -> ");
        canonical(e.getValue(), sb);
      }
      sb.append(')');
    } else if (v instanceof scala.collection.Iterable) {
      sb.append('[');
      boolean first = true;
      for (Object o :
          scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Iterable<?>) v)) {
        sb.append(first ? "" : ", ");
        first = false;
        canonical(o, sb);
      }
      sb.append(']');
    } else if (v instanceof Geometry) {
      Geometry g = (Geometry) v;
      sb.append("geometry(")
          .append(g.getSrid())
          .append(", 0x")
          .append(HexFormat.of().formatHex(g.getBytes()))
          .append(')');
    } else if (v instanceof Geography) {
      Geography g = (Geography) v;
      sb.append("geography(")
          .append(g.getSrid())
          .append(", 0x")
          .append(HexFormat.of().formatHex(g.getBytes()))
          .append(')');
    } else if (v instanceof BigDecimal || v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else {
      // Dates, timestamps, times, intervals, variants: their toString shows the whole value.
      sb.append(v.getClass().getSimpleName()).append(':').append(v);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Corpus and messages

  private static Path corpusRoot() {
    URL origin =
        ParquetConformanceTest.class.getClassLoader().getResource("parquet-testing/ORIGIN.md");
    Objects.requireNonNull(origin, "parquet-testing corpus missing from the test resources");
    try {
      return Paths.get(origin.toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Paths relative to the corpus root, e.g. {@code data/alltypes_plain.parquet}, sorted. */
  static List<String> corpusFiles() {
    Path root = corpusRoot();
    List<String> files = new ArrayList<>();
    for (String dir : List.of("data", "bad_data")) {
      try (Stream<Path> walk = Files.walk(root.resolve(dir))) {
        walk.filter(Files::isRegularFile)
            .map(p -> root.relativize(p).toString().replace('\\', '/'))
            .filter(p -> p.endsWith(".parquet") || p.endsWith(".parquet.encrypted"))
            .forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Collections.sort(files);
    assertThat(files).as("corpus files under " + root).hasSizeGreaterThan(50);
    return files;
  }

  /** Every message of a throwable's cause chain, joined. */
  private static String chain(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(sb.length() == 0 ? "" : " <- caused by ")
          .append(c.getClass().getName())
          .append(": ")
          .append(c.getMessage());
      if (c.getCause() == c) {
        break;
      }
    }
    return sb.toString();
  }

  /** The message of the first CorgiPileReadException in the chain, else of the outermost error. */
  private static String corgipileMessage(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof CorgiPileReadException) {
        return c.getClass().getSimpleName() + ": " + c.getMessage();
      }
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  private static String rootMessage(Throwable t) {
    String best = t.getClass().getSimpleName() + ": " + t.getMessage();
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        best = c.getClass().getSimpleName() + ": " + c.getMessage();
      }
    }
    return best;
  }

  private static String oneLine(String s, int max) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() <= max ? one : one.substring(0, max) + "...";
  }
}
