package io.corgipile.source;

import io.corgipile.SharedSpark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Parquet fixtures generated in code, and helpers to look at what a scan returned; public for the
 * bench's tests, which count row groups too.
 */
public final class TestTables {
  private TestTables() {}

  static SparkSession spark() {
    return SharedSpark.get();
  }

  /**
   * The live threads that read for tasks (buffer fills and fills ahead of a round), each named with
   * its state and stack, so a test that finds one left says what it is doing.
   */
  static List<String> readerThreads() {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(
            e ->
                e.getKey().isAlive()
                    && (e.getKey().getName().startsWith("corgipile-prefetch-")
                        || e.getKey().getName().startsWith("corgipile-lookahead-")))
        .map(
            e ->
                e.getKey().getName()
                    + " ("
                    + e.getKey().getState()
                    + ")"
                    + Stream.of(e.getValue())
                        .map(f -> "\n    at " + f)
                        .collect(Collectors.joining()))
        .toList();
  }

  static Path tempDir(String prefix) {
    try {
      Path dir = Files.createTempDirectory(prefix);
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A table of every kind of column Spark writes to Parquet, with nulls, in {@code files} files of
   * many small row groups. Column {@code id} is 0..rows-1.
   */
  static String allTypes(Path dir, int rows, int files) {
    SparkSession spark = spark();
    spark
        .udf()
        .register(
            "test_vector",
            (UDF1<Long, Object>)
                id ->
                    id % 3 == 0
                        ? Vectors.sparse(5, new int[] {(int) (id % 5)}, new double[] {id})
                        : Vectors.dense(id, -id, id / 7.0),
            new VectorUDT());
    String path = dir.resolve("all_types").toString();
    spark
        .range(0, rows, 1, files)
        .selectExpr(
            "id",
            "id % 2 = 0 as bool",
            "cast(id % 100 as tinyint) as b",
            "cast(id % 1000 as smallint) as sh",
            "cast(id as int) as i",
            "if(id % 11 = 0, null, id * 7919) as l",
            "cast(id / 3.0 as float) as f",
            "if(id % 13 = 0, cast('NaN' as double), id * 1.5) as d",
            "cast(id / 100.0 as decimal(9, 2)) as dec_small",
            "cast(id * 12345678901 as decimal(38, 6)) as dec_big",
            "date_add(date'2000-01-01', cast(id % 20000 as int)) as dt",
            "timestamp_micros(1600000000000000 + id * 1000003) as ts",
            "if(id % 7 = 0, null, concat('s-', id, repeat('x', cast(id % 17 as int)))) as s",
            "cast(concat('bin', id) as binary) as bin",
            "if(id % 5 = 0, null, sequence(0, cast(id % 4 as int))) as arr",
            "named_struct('a', id, 'b', if(id % 3 = 0, null, cast(id as string)), "
                + "'c', named_struct('x', id * 2.0)) as st",
            "if(id % 6 = 0, null, map('k' || (id % 3), id, 'z', -id)) as m",
            "array(named_struct('p', id), named_struct('p', -id)) as arr_st",
            "test_vector(id) as vec")
        .write()
        .option("parquet.block.size", 16 * 1024)
        .parquet(path);
    return path;
  }

  /**
   * {@code rows} rows sorted by a 0/1 label, half of each, in one file of row groups of exactly
   * {@code rowsPerGroup} rows (the last one may be shorter).
   */
  static String labelSorted(Path dir, int rows, int rowsPerGroup) {
    String path = dir.resolve("sorted").toString();
    spark()
        .range(0, rows, 1, 1)
        .selectExpr(
            "id", "cast(id >= " + rows / 2 + " as int) as label", "cast(id as double) / 2 as x")
        .write()
        .option("parquet.block.row.count.limit", rowsPerGroup)
        .parquet(path);
    return path;
  }

  static DataFrameReader corgipile(String... options) {
    DataFrameReader reader = spark().read().format("corgipile");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader;
  }

  /** Every row as a string, sorted: a multiset comparable across readers. */
  static List<String> canonicalRows(Dataset<Row> df) {
    List<String> rows =
        df.selectExpr("cast(struct(*) as string) as s")
            .as(org.apache.spark.sql.Encoders.STRING())
            .collectAsList();
    List<String> sorted = new ArrayList<>(rows);
    Collections.sort(sorted);
    return sorted;
  }

  /** The values of {@code column} (a long) in emitted order, one list per partition. */
  static List<List<Long>> orderByPartition(Dataset<Row> df, String column) {
    return df.select(column)
        .javaRDD()
        .mapPartitions(
            it -> {
              List<Long> ids = new ArrayList<>();
              it.forEachRemaining(r -> ids.add(((Number) r.get(0)).longValue()));
              return Collections.singletonList(ids).iterator();
            })
        .collect();
  }

  /** Row groups per file of a Parquet directory. */
  public static int rowGroups(String dir) {
    try (Stream<Path> files = Files.walk(Path.of(dir))) {
      int groups = 0;
      for (Path p :
          files.filter(f -> f.toString().endsWith(".parquet")).collect(Collectors.toList())) {
        try (ParquetFileReader r =
            ParquetFileReader.open(
                HadoopInputFile.fromPath(
                    new org.apache.hadoop.fs.Path(p.toString()), new Configuration()))) {
          groups += r.getRowGroups().size();
        }
      }
      return groups;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The custom metrics of the corgipile scan in an executed query. */
  public static Map<String, Long> scanMetrics(Dataset<Row> executed) {
    SparkPlan plan =
        ((org.apache.spark.sql.classic.Dataset<Row>) executed).queryExecution().executedPlan();
    List<SparkPlan> scans = new ArrayList<>();
    collectScans(plan, scans);
    if (scans.size() != 1) {
      throw new IllegalStateException("expected one scan in " + plan);
    }
    Map<String, SQLMetric> metrics = CollectionConverters.asJava(scans.get(0).metrics());
    return metrics.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().value()));
  }

  /** The scan of the only {@code corgipile} read in a query, as in its physical plan. */
  static Scan scanOf(Dataset<Row> df) {
    List<SparkPlan> scans = new ArrayList<>();
    collectScans(
        ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().executedPlan(), scans);
    if (scans.size() != 1) {
      throw new IllegalStateException("expected one scan in " + df);
    }
    return ((BatchScanExec) scans.get(0)).scan();
  }

  private static void collectScans(SparkPlan plan, List<SparkPlan> out) {
    if (plan instanceof BatchScanExec) {
      out.add(plan);
    } else if (plan instanceof AdaptiveSparkPlanExec) {
      collectScans(((AdaptiveSparkPlanExec) plan).executedPlan(), out);
    } else if (plan instanceof QueryStageExec) {
      collectScans(((QueryStageExec) plan).plan(), out);
    } else {
      for (SparkPlan child : CollectionConverters.asJava(plan.children())) {
        collectScans(child, out);
      }
    }
  }
}
