package io.corgipile.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.deploy.SparkHadoopUtil;

/**
 * The Hadoop configuration a Spark application will read files with, made before Spark starts: from
 * the settings spark-submit passes the driver ({@code spark.hadoop.*}, {@code spark.buffer.size},
 * cloud credentials from the environment), as {@code SparkContext} makes it.
 */
public final class SubmittedHadoopConf {
  private SubmittedHadoopConf() {}

  public static Configuration read() {
    return SparkHadoopUtil.get().newConfiguration(new SparkConf());
  }
}
