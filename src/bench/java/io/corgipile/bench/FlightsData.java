package io.corgipile.bench;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.dayofweek;
import static org.apache.spark.sql.functions.hour;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.pmod;
import static org.apache.spark.sql.functions.when;
import static org.apache.spark.sql.functions.xxhash64;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.OneHotEncoder;
import org.apache.spark.ml.feature.StandardScaler;
import org.apache.spark.ml.feature.StringIndexer;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The flights-3m dataset of the convergence benchmark: 3,000,000 US flights of January to June 2001
 * stored in date order, a real table whose storage order is far from random. The task is to predict
 * a departure delay of more than 15 minutes (about 20% of the flights) from the distance, the hour,
 * the weekday, the origin and the destination, the last four one-hot encoded, so the trainer sees
 * sparse vectors of a few hundred features.
 *
 * <p>{@link #fetch} downloads the file once, {@link #prepare} writes the train and test tables
 * once, {@link #featurePipeline} turns their columns into {@code features}.
 */
public final class FlightsData {
  public static final String PACKAGE = "vega-datasets@3.2.1";
  static final String MEMBER = "package/data/flights-3m.parquet";
  public static final String FILE_NAME = "flights-3m.parquet";

  /** The npm command that downloads the package tarball into the working directory. */
  static final List<String> NPM_PACK = List.of("npm", "pack", PACKAGE);

  static final long COMMAND_TIMEOUT_MINUTES = 10;

  public static final String LABEL = "label";
  public static final String FEATURES = "features";

  /** The one-hot encoded columns, in the order their blocks appear in {@code features}. */
  public static final List<String> CATEGORICAL =
      List.of("origin", "destination", "weekday", "hour");

  /** The numeric column, standardized, last in {@code features}. */
  public static final String NUMERIC = "distance";

  /** One row in {@value #TEST_MODULUS} goes to the test set. */
  static final int TEST_MODULUS = 10;

  static final long TEST_HASH_SEED = 42L;
  static final String META_FILE = "_flights_meta.properties";

  /** Bump when the tables' content or layout changes, so old copies are rewritten. */
  static final String LAYOUT_VERSION = "1";

  private FlightsData() {}

  /**
   * What {@link #prepare} wrote.
   *
   * @param train the training table: one Parquet file, rows in date order
   * @param test the held-out table, in no particular order
   * @param trainPositiveShare the share of label 1 in the training table
   * @param trainRowGroups the row groups of the training table
   */
  public record Prepared(
      Path train,
      Path test,
      long trainRows,
      long testRows,
      double trainPositiveShare,
      double testPositiveShare,
      int trainRowGroups) {}

  // ---------------------------------------------------------------- fetching

  /**
   * The path of flights-3m.parquet in {@code cacheDir}, downloaded with {@code npm pack} on the
   * first call.
   *
   * @throws IllegalStateException when npm is missing or fails, as it does without network access
   * @throws java.io.UncheckedIOException when {@code cacheDir} cannot be written
   */
  public static Path fetch(Path cacheDir) {
    return fetch(cacheDir, NPM_PACK);
  }

  /**
   * {@link #fetch(Path)} with another command in place of {@code npm pack}: tests need one that
   * fails.
   */
  static Path fetch(Path cacheDir, List<String> packCommand) {
    Path target = cacheDir.resolve(FILE_NAME).toAbsolutePath();
    if (Files.isRegularFile(target)) {
      return target;
    }
    Path work = null;
    try {
      Files.createDirectories(cacheDir);
      // in cacheDir, so the final rename stays on one file system and is atomic
      work = Files.createTempDirectory(cacheDir, ".fetch-");
      run(packCommand, work, "the benchmark needs npm and access to the npm registry");
      Path tarball;
      try (Stream<Path> files = Files.list(work)) {
        List<Path> tgz =
            files
                .filter(p -> p.getFileName().toString().endsWith(".tgz"))
                .collect(Collectors.toList());
        if (tgz.size() != 1) {
          throw fetchFailed(
              packCommand,
              "it left " + tgz.size() + " .tgz files, expected one",
              "the benchmark needs npm and access to the npm registry");
        }
        tarball = tgz.get(0);
      }
      run(
          List.of("tar", "-xzf", tarball.getFileName().toString(), MEMBER),
          work,
          "the tarball of " + PACKAGE + " should hold " + MEMBER);
      Files.move(work.resolve(MEMBER), target, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot fetch flights-3m into " + cacheDir + ": " + e.getMessage(), e);
    } finally {
      if (work != null) {
        deleteQuietly(work);
      }
    }
  }

  /**
   * Runs {@code command} in {@code dir}; its output goes to files there, so no pipe can fill up.
   */
  private static void run(List<String> command, Path dir, String hint) throws IOException {
    Path out = dir.resolve(".stdout");
    Path err = dir.resolve(".stderr");
    Process p;
    try {
      p =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
    } catch (IOException e) {
      throw fetchFailed(command, "cannot start it: " + e.getMessage(), hint);
    }
    try {
      if (!p.waitFor(COMMAND_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw fetchFailed(command, "no answer in " + COMMAND_TIMEOUT_MINUTES + " minutes", hint);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw fetchFailed(command, "interrupted", hint);
    }
    if (p.exitValue() != 0) {
      throw fetchFailed(command, "exit code " + p.exitValue() + ": " + tail(err, 6, 600), hint);
    }
  }

  private static IllegalStateException fetchFailed(List<String> command, String why, String hint) {
    return new IllegalStateException(
        "Cannot fetch flights-3m: `"
            + String.join(" ", command)
            + "` failed ("
            + why
            + "); "
            + hint);
  }

  /** The last lines of a log, at most {@code maxChars} of them, on one line. */
  private static String tail(Path log, int lines, int maxChars) throws IOException {
    List<String> all =
        Files.readAllLines(log, StandardCharsets.UTF_8).stream()
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toList());
    String s = String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
    if (s.isEmpty()) {
      return "no error output";
    }
    return s.length() <= maxChars ? s : "..." + s.substring(s.length() - maxChars);
  }

  private static void deleteQuietly(Path p) {
    try {
      ScanTable.deleteRecursively(p);
    } catch (IOException e) {
      System.err.println("[flights] cannot delete " + p + ": " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------- preparing

  /**
   * Writes {@code outDir/train} and {@code outDir/test} from the flights Parquet file {@code
   * source}, or reuses them when an earlier call with the same arguments completed.
   *
   * <p>Both tables have the columns {@code label} (1.0 when the delay is over 15 minutes, else
   * 0.0), {@code distance} (double), {@code hour} (0-23), {@code weekday} (1 = Sunday to 7 =
   * Saturday), {@code origin}, {@code destination}, and for checks {@code date}, {@code delay} and
   * {@code row}, the row's position in {@code source}.
   *
   * @param maxRows how many rows of {@code source} to use, taken evenly over the whole file so both
   *     tables cover every date; {@link Long#MAX_VALUE} for all
   * @param rowGroupRows the rows of a row group of the training table
   */
  public static Prepared prepare(
      SparkSession spark, Path source, Path outDir, long maxRows, int rowGroupRows) {
    if (maxRows < 1 || rowGroupRows < 1) {
      throw new IllegalArgumentException(
          "maxRows and rowGroupRows must be >= 1, got " + maxRows + " and " + rowGroupRows);
    }
    if (!Files.isRegularFile(source)) {
      // row numbers come from the position in one file; several files would repeat them
      throw new IllegalArgumentException("Not a Parquet file: " + source);
    }
    Path dir = outDir.toAbsolutePath();
    try {
      Properties wanted = parameters(source, maxRows, rowGroupRows);
      Prepared reused = reuse(dir, wanted);
      if (reused != null) {
        System.err.println("[flights] reusing " + dir);
        return reused;
      }
      Files.createDirectories(dir.getParent());
      // written aside and renamed into place, so an interrupted run leaves no table that looks
      // complete
      Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp-" + ProcessHandle.current().pid());
      ScanTable.deleteRecursively(tmp);
      long t0 = System.nanoTime();
      write(spark, source, tmp, maxRows, rowGroupRows);
      Prepared written = summarize(spark, tmp, dir);
      double seconds = (System.nanoTime() - t0) / 1e9;
      Properties meta = new Properties();
      meta.putAll(wanted);
      meta.setProperty("trainRows", String.valueOf(written.trainRows()));
      meta.setProperty("testRows", String.valueOf(written.testRows()));
      meta.setProperty("trainPositiveShare", String.valueOf(written.trainPositiveShare()));
      meta.setProperty("testPositiveShare", String.valueOf(written.testPositiveShare()));
      meta.setProperty("trainRowGroups", String.valueOf(written.trainRowGroups()));
      meta.setProperty("preparedSeconds", String.format(Locale.ROOT, "%.1f", seconds));
      meta.setProperty(
          "preparedAt",
          ZonedDateTime.now().withNano(0).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
      try (OutputStream o = Files.newOutputStream(tmp.resolve(META_FILE))) {
        meta.store(o, "flights-3m train/test tables; complete when this file exists");
      }
      ScanTable.deleteRecursively(dir);
      Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
      System.err.printf(
          Locale.ROOT,
          "[flights] wrote %s in %.1f s: %,d train rows (%d row groups), %,d test rows%n",
          dir,
          seconds,
          written.trainRows(),
          written.trainRowGroups(),
          written.testRows());
      return written;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot prepare the flights tables in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** What decides the tables' content: a table written with other values is rewritten. */
  private static Properties parameters(Path source, long maxRows, int rowGroupRows)
      throws IOException {
    Properties p = new Properties();
    p.setProperty("layout", LAYOUT_VERSION);
    p.setProperty("source", source.toAbsolutePath().toString());
    p.setProperty("sourceBytes", String.valueOf(Files.size(source)));
    p.setProperty("maxRows", String.valueOf(maxRows));
    p.setProperty("rowGroupRows", String.valueOf(rowGroupRows));
    p.setProperty("testModulus", String.valueOf(TEST_MODULUS));
    p.setProperty("testHashSeed", String.valueOf(TEST_HASH_SEED));
    return p;
  }

  /**
   * The tables in {@code dir} if they are complete and were written with {@code wanted}; else null.
   */
  private static Prepared reuse(Path dir, Properties wanted) {
    Path metaFile = dir.resolve(META_FILE);
    if (!Files.isRegularFile(metaFile)
        || !Files.isRegularFile(dir.resolve("train").resolve("_SUCCESS"))
        || !Files.isRegularFile(dir.resolve("test").resolve("_SUCCESS"))) {
      return null;
    }
    Properties meta = new Properties();
    try (InputStream in = Files.newInputStream(metaFile)) {
      meta.load(in);
    } catch (IOException e) {
      return null;
    }
    for (String key : wanted.stringPropertyNames()) {
      if (!wanted.getProperty(key).equals(meta.getProperty(key))) {
        return null;
      }
    }
    try {
      return new Prepared(
          dir.resolve("train"),
          dir.resolve("test"),
          Long.parseLong(meta.getProperty("trainRows")),
          Long.parseLong(meta.getProperty("testRows")),
          Double.parseDouble(meta.getProperty("trainPositiveShare")),
          Double.parseDouble(meta.getProperty("testPositiveShare")),
          Integer.parseInt(meta.getProperty("trainRowGroups")));
    } catch (RuntimeException e) {
      return null; // a damaged meta file: write the tables again
    }
  }

  private static void write(
      SparkSession spark, Path source, Path dir, long maxRows, int rowGroupRows) {
    Dataset<Row> raw = spark.read().parquet(source.toString());
    long total = raw.count(); // from the footers
    // the position in the file, whatever splits Spark reads it in: the order to keep and the key to
    // hash
    Column row = col("_metadata.row_index");
    Dataset<Row> flights =
        raw.select(
            when(col("delay").gt(15), 1.0).otherwise(0.0).as(LABEL),
            col("distance").cast("double").as("distance"),
            hour(col("date")).as("hour"),
            dayofweek(col("date")).as("weekday"),
            col("origin"),
            col("destination"),
            col("date"),
            col("delay"),
            row.as("row"));
    if (maxRows < total) {
      // keeps row r when floor((r+1)m/n) > floor(rm/n): exactly m rows, evenly spaced over all
      // dates
      flights =
          flights.filter(
              String.format(
                  Locale.ROOT,
                  "(`row` + 1) * %d div %d > `row` * %d div %d",
                  maxRows,
                  total,
                  maxRows,
                  total));
    }
    Column isTest = pmod(xxhash64(col("row"), lit(TEST_HASH_SEED)), lit(TEST_MODULUS)).equalTo(0);
    flights
        .filter(not(isTest))
        // one file sorted by (date, row) in one task: storage order is date order, the file's own
        // order when it is sorted by date, as flights-3m is
        .coalesce(1)
        .sortWithinPartitions("date", "row")
        .write()
        .option("parquet.block.row.count.limit", rowGroupRows)
        .parquet(dir.resolve("train").toString());
    flights.filter(isTest).write().parquet(dir.resolve("test").toString());
  }

  /**
   * Rows, positive shares and row groups of the tables in {@code tmp}, as they will be in {@code
   * dir}.
   */
  private static Prepared summarize(SparkSession spark, Path tmp, Path dir) throws IOException {
    Row train =
        spark.read().parquet(tmp.resolve("train").toString()).agg(count(lit(1)), avg(LABEL)).head();
    Row test =
        spark.read().parquet(tmp.resolve("test").toString()).agg(count(lit(1)), avg(LABEL)).head();
    ScanTable info = new ScanTable();
    ScanTable.footers(spark, tmp.resolve("train"), info);
    return new Prepared(
        dir.resolve("train"),
        dir.resolve("test"),
        train.getLong(0),
        test.getLong(0),
        train.isNullAt(1) ? Double.NaN : train.getDouble(1),
        test.isNullAt(1) ? Double.NaN : test.getDouble(1),
        info.rowGroups);
  }

  // ---------------------------------------------------------------- features

  /**
   * An unfitted pipeline that adds {@code features} to the tables of {@link #prepare}: the one-hot
   * codes of {@link #CATEGORICAL} (a category unseen in fitting gets all zeros), then the
   * standardized distance. The vector has one slot per category seen in fitting plus one, and 5
   * non-zeros at most, so it is sparse. Append a classifier to its stages to train.
   */
  public static Pipeline featurePipeline() {
    String[] indexed = CATEGORICAL.stream().map(c -> c + "_index").toArray(String[]::new);
    String[] encoded = CATEGORICAL.stream().map(c -> c + "_onehot").toArray(String[]::new);
    // "keep" adds an index for unseen categories; dropLast drops exactly that one from the one-hot
    // codes
    StringIndexer indexer =
        new StringIndexer()
            .setInputCols(CATEGORICAL.toArray(new String[0]))
            .setOutputCols(indexed)
            .setHandleInvalid("keep");
    OneHotEncoder oneHot =
        new OneHotEncoder().setInputCols(indexed).setOutputCols(encoded).setDropLast(true);
    VectorAssembler numeric =
        new VectorAssembler()
            .setInputCols(new String[] {NUMERIC})
            .setOutputCol(NUMERIC + "_vector");
    StandardScaler scaler =
        new StandardScaler()
            .setInputCol(NUMERIC + "_vector")
            .setOutputCol(NUMERIC + "_scaled")
            .setWithMean(true)
            .setWithStd(true);
    String[] parts =
        Stream.concat(Stream.of(encoded), Stream.of(NUMERIC + "_scaled")).toArray(String[]::new);
    VectorAssembler assembler = new VectorAssembler().setInputCols(parts).setOutputCol(FEATURES);
    return new Pipeline()
        .setStages(new PipelineStage[] {indexer, oneHot, numeric, scaler, assembler});
  }
}
