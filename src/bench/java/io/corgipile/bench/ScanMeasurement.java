package io.corgipile.bench;

import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;

/** One timed scan of one variant: what it took and what it saw. */
final class ScanMeasurement {
  final String variant;
  final String phase;
  final int rep;
  final int position;
  final double seconds;
  final int partitions;
  final ScanChecksum checksum;

  ScanMeasurement(String variant, String phase, int rep, int position, double seconds, int partitions,
      ScanChecksum checksum) {
    this.variant = variant;
    this.phase = phase;
    this.rep = rep;
    this.position = position;
    this.seconds = seconds;
    this.partitions = partitions;
    this.checksum = checksum;
  }

  /** Plans, runs and consumes one scan; the time covers all of it (file listing and footers included). */
  static ScanMeasurement measure(SparkSession spark, ScanVariant v, String path, List<String> columns, String phase,
      int rep, int position, boolean cold) {
    System.gc();
    if (cold) {
      PageCache.drop();
    }
    SparkContext sc = spark.sparkContext();
    sc.setJobDescription("bench-scan " + phase + " " + rep + " " + v.name);
    int n = columns.size();
    long t0 = System.nanoTime();
    Dataset<Row> df = v.load(spark, path, columns);
    RDD<InternalRow> rdd = df.queryExecution().toRdd();
    int partitions = rdd.getNumPartitions();
    ScanChecksum c = rdd.toJavaRDD().mapPartitions(it -> ScanChecksum.consume(it, n)).reduce(ScanChecksum::merge);
    long t1 = System.nanoTime();
    sc.setJobDescription(null);
    double seconds = (t1 - t0) / 1e9;
    System.err.printf(Locale.ROOT, "[bench-scan] %-7s rep %d  %-22s %8.3f s  rows=%d  partitions=%d%n",
        phase, rep, v.name, seconds, c.rows, partitions);
    return new ScanMeasurement(v.name, phase, rep, position, seconds, partitions, c);
  }
}
