package io.corgipile.table.delta;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.launcher.JavaModuleOptions;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.functions;

/**
 * Delta tables written by Delta Lake's own Spark writer (delta-spark), and what Delta's own reader
 * returns from each of their versions, for the planner's tests.
 *
 * <p>Delta's writes and DML need its session extension and catalog, which are static settings of a
 * session: they run in a JVM of their own ({@link #write}), not in the tests' shared session. The
 * JVM writes {@value #EXPECTED}, lines of tab-separated fields:
 *
 * <ul>
 *   <li>{@code schema, table, version, the schema Delta's reader gives as JSON};
 *   <li>{@code row, table, version, file name, row index in the file, partition value or \N}: one
 *       per live row of each version, as Delta's reader gives it with {@code _metadata};
 *   <li>{@code commit, table, version, commit timestamp in ms}: Delta's history;
 *   <li>{@code data, table, version, row as JSON}: one per live row of each version, as Delta's
 *       reader gives it ({@code toJSON}, the table's columns in its order);
 *   <li>{@code filtered, table, version, row as JSON}: the same of {@value #ROW_GROUPS}'s last
 *       version under {@value #ROW_GROUPS_FILTER}, and of {@value #SWAPPED}'s under {@value
 *       #SWAPPED_FILTER}.
 * </ul>
 *
 * <p>The tables are written once per test JVM ({@link #tables}), for every test class that reads
 * them.
 */
public final class DeltaFixtures {
  static final String EXPECTED = "expected.tsv";

  /** Several appends: versions 0-2; 3 appends with a new column (the schema evolves). */
  static final String APPENDS = "appends";

  /**
   * Deletion vectors: 0 write, 1 delete (a DV per file), 2 delete again (DVs replaced; a
   * checkpoint), 3 update (DVs and a new file), 4 compaction (files rewritten without their deleted
   * rows).
   */
  static final String DELETES = "deletes";

  /** 0 write, 1 overwrite. */
  static final String OVERWRITE = "overwrite";

  /** Partitioned by {@code part} (with a null partition), deletion vectors: 0 write, 1 delete. */
  static final String PARTITIONED = "partitioned";

  /**
   * Column mapping by name, partitioned by {@code part}, a struct {@code s} of {@code a} and {@code
   * b}: 0 write, 1 delete (half of part a), 2 {@code x} renamed {@code feature}, 3 {@code s.a}
   * renamed {@code s.alpha}, 4 {@code label} dropped, 5 {@code label} added again (null in the old
   * files, whose {@code label} column is the dropped one's), 6 append.
   */
  static final String MAPPED = "mapped";

  /** Column mapping by id: 0 write (two files), 1 {@code x} renamed {@code feature}, 2 append. */
  public static final String MAPPED_BY_ID = "mappedbyid";

  /**
   * Row groups of 100 rows, {@code x} = id / 2 and {@code y} = 1000 - id: 0 write, 1 column mapping
   * by name set on the table (its columns keep their Parquet names), 2-4 {@code x} and {@code y}
   * swap names: the column the table calls {@code x} is {@code y} in the files.
   */
  static final String SWAPPED = "swapped";

  /**
   * Keeps the first two of {@value #SWAPPED}'s row groups by their statistics (ids 0 to 100); read
   * by the files' own names, it keeps none.
   */
  static final String SWAPPED_FILTER = "x >= 900";

  /**
   * Row groups of 100 rows, ids in order, and {@code pos}, the row's position in its file: 0 write
   * (a file of 5 row groups), 1 append (another), 2 delete (deletion vectors) of rows in the second
   * and third row groups of each file.
   */
  static final String ROW_GROUPS = "rowgroups";

  /** Drops each file's first row group of {@value #ROW_GROUPS} by its statistics, and no other. */
  static final String ROW_GROUPS_FILTER = "pos >= 100";

  /**
   * Partitioned by an int, a date, a timestamp and a decimal, each with a null partition, written
   * in the session time zone America/Los_Angeles: 0 write.
   */
  static final String TYPED_PARTITIONS = "typedparts";

  private static Path tables;

  private DeltaFixtures() {}

  /**
   * The folder of the tables and {@value #EXPECTED}, written on first use in a JVM of its own and
   * deleted when this JVM exits.
   */
  public static synchronized Path tables() throws IOException, InterruptedException {
    if (tables == null) {
      Path dir = Files.createTempDirectory("delta-fixtures");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
      write(dir);
      tables = dir;
    }
    return tables;
  }

  /** The lines of {@value #EXPECTED} of one kind, split into their fields. */
  static List<String[]> expected(String kind) throws IOException, InterruptedException {
    List<String[]> lines = new ArrayList<>();
    for (String line : Files.readAllLines(tables().resolve(EXPECTED))) {
      String[] fields = line.split("\t", -1);
      if (fields[0].equals(kind)) {
        lines.add(fields);
      }
    }
    return lines;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind
    }
  }

  /** Writes the tables into {@code dir} in a JVM of its own; fails with its output. */
  private static void write(Path dir) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:+IgnoreUnrecognizedVMOptions");
    command.addAll(List.of(JavaModuleOptions.defaultModuleOptions().split(" ")));
    command.add("-Xmx1g");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(DeltaFixtures.class.getName());
    command.add(dir.toString());
    Path log = dir.resolve("writer.log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = builder.start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the Delta writer timed out:\n" + Files.readString(log));
    }
    if (p.exitValue() != 0) {
      throw new AssertionError("the Delta writer failed:\n" + Files.readString(log));
    }
  }

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    SparkSession spark =
        SparkSession.builder()
            .master("local[1]")
            .appName("delta-fixtures")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            // Delta rebuilds a table's state after each commit in 50 shuffle partitions by default:
            // most of the writer's time, for tables of a few files
            .config("spark.databricks.delta.snapshotPartitions", "1")
            // pages of 100 rows, which the source's blockSize cuts row groups at
            .config("spark.hadoop.parquet.page.row.count.limit", "100")
            .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
            .config(
                "spark.sql.catalog.spark_catalog",
                "org.apache.spark.sql.delta.catalog.DeltaCatalog")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try (PrintWriter out =
        new PrintWriter(Files.newBufferedWriter(dir.resolve(EXPECTED), StandardCharsets.UTF_8))) {
      Writer w = new Writer(spark, dir, out);

      String t = w.path(APPENDS);
      rows(spark, 0, 300).repartition(2).write().format("delta").save(t);
      rows(spark, 300, 500).write().format("delta").mode("append").save(t);
      rows(spark, 500, 700).repartition(2).write().format("delta").mode("append").save(t);
      rows(spark, 700, 800)
          .withColumn("note", functions.lit("new"))
          .write()
          .format("delta")
          .mode("append")
          .option("mergeSchema", "true")
          .save(t);
      w.record(APPENDS, 3, null);

      t = w.path(DELETES);
      rows(spark, 0, 1000)
          .repartition(2)
          .write()
          .format("delta")
          .option("delta.enableDeletionVectors", "true")
          .option("delta.checkpointInterval", "2")
          .save(t);
      spark.sql("DELETE FROM delta.`" + t + "` WHERE id % 7 = 0");
      spark.sql("DELETE FROM delta.`" + t + "` WHERE id BETWEEN 100 AND 150 OR id = 999");
      spark.sql("UPDATE delta.`" + t + "` SET x = -x WHERE id % 10 = 5");
      spark.sql("OPTIMIZE delta.`" + t + "`");
      w.record(DELETES, 4, null);

      t = w.path(OVERWRITE);
      rows(spark, 0, 500).repartition(2).write().format("delta").save(t);
      rows(spark, 1000, 1300).write().format("delta").mode("overwrite").save(t);
      w.record(OVERWRITE, 1, null);

      t = w.path(PARTITIONED);
      partitioned(spark, 0, 900)
          .write()
          .format("delta")
          .partitionBy("part")
          .option("delta.enableDeletionVectors", "true")
          .save(t);
      spark.sql("DELETE FROM delta.`" + t + "` WHERE id % 5 = 1 AND part = 'b'");
      w.record(PARTITIONED, 1, "part");

      t = w.path(MAPPED);
      partitioned(spark, 0, 600)
          .withColumn(
              "s",
              functions.struct(functions.col("x").multiply(2).as("a"), functions.col("id").as("b")))
          .write()
          .format("delta")
          .partitionBy("part")
          .option("delta.columnMapping.mode", "name")
          .option("delta.enableDeletionVectors", "true")
          .save(t);
      spark.sql("DELETE FROM delta.`" + t + "` WHERE id % 8 = 0");
      spark.sql("ALTER TABLE delta.`" + t + "` RENAME COLUMN x TO feature");
      spark.sql("ALTER TABLE delta.`" + t + "` RENAME COLUMN s.a TO alpha");
      spark.sql("ALTER TABLE delta.`" + t + "` DROP COLUMN label");
      spark.sql("ALTER TABLE delta.`" + t + "` ADD COLUMNS (label INT)");
      // DataFrame appends: SQL inserts of delta-spark 4.3 (built for Spark 4.1) fail on Spark 4.2
      spark
          .sql(
              "SELECT id, id * 0.5D AS feature, IF(id % 2 = 0, 'a', 'b') AS part,"
                  + " named_struct('alpha', id * 1.0D, 'b', id) AS s, CAST(id % 3 AS INT) AS label"
                  + " FROM range(600, 700, 1, 1)")
          .write()
          .format("delta")
          .mode("append")
          .save(t);
      w.record(MAPPED, 6, "part");

      t = w.path(MAPPED_BY_ID);
      rows(spark, 0, 400)
          .repartition(2)
          .write()
          .format("delta")
          .option("delta.columnMapping.mode", "id")
          .save(t);
      spark.sql("ALTER TABLE delta.`" + t + "` RENAME COLUMN x TO feature");
      spark
          .sql("SELECT id, CAST(-id AS DOUBLE) AS feature, 1 AS label FROM range(400, 450, 1, 1)")
          .write()
          .format("delta")
          .mode("append")
          .save(t);
      w.record(MAPPED_BY_ID, 2, null);

      t = w.path(SWAPPED);
      spark.conf().set("parquet.block.row.count.limit", "100");
      positioned(spark, 0, 500)
          .withColumn("y", functions.lit(1000).minus(functions.col("id")).cast("double"))
          .write()
          .format("delta")
          .save(t);
      spark.conf().unset("parquet.block.row.count.limit");
      spark.sql(
          "ALTER TABLE delta.`"
              + t
              + "` SET TBLPROPERTIES ('delta.columnMapping.mode' = 'name',"
              + " 'delta.minReaderVersion' = '2', 'delta.minWriterVersion' = '5')");
      spark.sql("ALTER TABLE delta.`" + t + "` RENAME COLUMN x TO x_then");
      spark.sql("ALTER TABLE delta.`" + t + "` RENAME COLUMN y TO x");
      spark.sql("ALTER TABLE delta.`" + t + "` RENAME COLUMN x_then TO y");
      w.record(SWAPPED, 4, null);
      w.filtered(SWAPPED, 4, SWAPPED_FILTER);

      t = w.path(ROW_GROUPS);
      // Delta's writer takes the session's Parquet settings through its Hadoop configuration
      spark.conf().set("parquet.block.row.count.limit", "100");
      positioned(spark, 0, 500)
          .write()
          .format("delta")
          .option("delta.enableDeletionVectors", "true")
          .save(t);
      positioned(spark, 500, 1000).write().format("delta").mode("append").save(t);
      spark.conf().unset("parquet.block.row.count.limit");
      spark.sql("DELETE FROM delta.`" + t + "` WHERE pos BETWEEN 100 AND 299 AND id % 3 = 0");
      w.record(ROW_GROUPS, 2, null);
      w.filtered(ROW_GROUPS, 2, ROW_GROUPS_FILTER);

      t = w.path(TYPED_PARTITIONS);
      String zone = spark.conf().get("spark.sql.session.timeZone");
      spark.conf().set("spark.sql.session.timeZone", "America/Los_Angeles");
      spark
          .sql(
              "SELECT id, id * 0.5D AS x, CAST(id % 2 AS INT) AS label, IF(id % 5 = 0, NULL,"
                  + " CAST(id % 3 AS INT)) AS pint, IF(id % 7 = 0, NULL, DATE_ADD(DATE'2026-02-27',"
                  + " CAST(id % 4 AS INT))) AS pdate, IF(id % 11 = 0, NULL, TIMESTAMP'2026-03-08"
                  + " 01:30:00' + MAKE_INTERVAL(0, 0, 0, 0, CAST(id % 3 AS INT), 0, 0)) AS pts,"
                  + " IF(id % 13 = 0, NULL, CAST(id % 2 - 0.25 AS DECIMAL(10, 2))) AS pdec FROM"
                  + " range(0, 300, 1, 1)")
          .write()
          .format("delta")
          .partitionBy("pint", "pdate", "pts", "pdec")
          .save(t);
      // read back in the tests' zone: the values are instants, whatever zone wrote them
      spark.conf().set("spark.sql.session.timeZone", zone);
      w.record(TYPED_PARTITIONS, 0, null);
    } finally {
      spark.stop();
    }
  }

  /** Rows {@code id} in [from, to) and a derived {@code x}, as a single ordered partition. */
  private static Dataset<Row> rows(SparkSession spark, long from, long to) {
    return spark
        .range(from, to, 1, 1)
        .withColumn("x", functions.col("id").multiply(0.5))
        .withColumn("label", functions.col("id").mod(2).cast("int"));
  }

  /** Rows {@code id} in [from, to) and {@code pos}, the row's position in a file of them. */
  private static Dataset<Row> positioned(SparkSession spark, long from, long to) {
    return rows(spark, from, to).withColumn("pos", functions.col("id").minus(from));
  }

  /** Rows with {@code part} a, b, c or null by {@code id % 4}. */
  private static Dataset<Row> partitioned(SparkSession spark, long from, long to) {
    return rows(spark, from, to)
        .withColumn(
            "part",
            functions
                .when(functions.col("id").mod(4).equalTo(0), "a")
                .when(functions.col("id").mod(4).equalTo(1), "b")
                .when(functions.col("id").mod(4).equalTo(2), "c"));
  }

  /** A column's name in the data files: its physical name under column mapping, as Delta says. */
  static String physicalName(SparkSession spark, String table, String column) {
    var metadata =
        DeltaLog.forTable(spark, table)
            .unsafeVolatileSnapshot()
            .metadata()
            .schema()
            .apply(column)
            .metadata();
    String key = "delta.columnMapping.physicalName";
    return metadata.contains(key) ? metadata.getString(key) : column;
  }

  /** Writes what Delta's reader and history say of each version of a table. */
  private record Writer(SparkSession spark, Path dir, PrintWriter out) {
    String path(String table) {
      return dir.resolve(table).toString();
    }

    /** Writes the rows of the table's latest version, {@code version}, under {@code filter}. */
    void filtered(String table, long version, String filter) {
      Dataset<Row> latest = spark.read().format("delta").load(path(table));
      for (String row : latest.where(filter).toJSON().collectAsList()) {
        out.println("filtered\t" + table + "\t" + version + "\t" + row);
      }
    }

    void record(String table, long lastVersion, String partitionColumn) {
      for (Row h :
          spark
              .sql("DESCRIBE HISTORY delta.`" + path(table) + "`")
              .select("version", "timestamp")
              .collectAsList()) {
        out.println(
            "commit\t"
                + table
                + "\t"
                + h.getLong(0)
                + "\t"
                + ((java.sql.Timestamp) h.get(1)).getTime());
      }
      // Delta's _metadata has no row_index: the live rows' positions come from reading the data
      // files as plain Parquet (its _metadata.row_index), matched on file and id (ids are unique
      // in a file).
      String physicalId = physicalName(spark, path(table), "id");
      Map<String, Long> positions = new HashMap<>();
      for (Row r :
          spark
              .read()
              .option("recursiveFileLookup", "true")
              .option("pathGlobFilter", "*.parquet")
              .parquet(path(table))
              .select(
                  functions.col("_metadata.file_name"),
                  functions.col(physicalId),
                  functions.col("_metadata.row_index"))
              .collectAsList()) {
        positions.put(r.getString(0) + "/" + r.getLong(1), r.getLong(2));
      }
      for (long v = 0; v <= lastVersion; v++) {
        Dataset<Row> version =
            spark.read().format("delta").option("versionAsOf", v).load(path(table));
        out.println("schema\t" + table + "\t" + v + "\t" + version.schema().json());
        for (String row : version.toJSON().collectAsList()) {
          out.println("data\t" + table + "\t" + v + "\t" + row);
        }
        Dataset<Row> live =
            version.select(
                functions.col("_metadata.file_name"),
                functions.col("id"),
                partitionColumn == null
                    ? functions.lit(null).cast("string")
                    : functions.col(partitionColumn));
        for (Row r : live.collectAsList()) {
          Long position = positions.get(r.getString(0) + "/" + r.getLong(1));
          out.println(
              "row\t"
                  + table
                  + "\t"
                  + v
                  + "\t"
                  + r.getString(0)
                  + "\t"
                  + position
                  + "\t"
                  + (r.isNullAt(2) ? "\\N" : r.getString(2)));
        }
      }
    }
  }
}
