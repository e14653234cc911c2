package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.SharedSpark;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void readsEveryRow() throws Exception {
    SparkSession spark = SharedSpark.get();
    Path dir = Files.createTempDirectory("smoke");
    spark.range(0, 100000).selectExpr("id", "id % 2 as label", "cast(id as string) as s")
        .coalesce(1).write().option("parquet.block.size", 64 * 1024).parquet(dir.resolve("t").toString());
    Dataset<Row> df = spark.read().format("corgipile").load(dir.resolve("t").toString());
    df.printSchema();
    System.out.println(df.queryExecution().executedPlan());
    assertThat(df.count()).isEqualTo(100000);
    assertThat(df.selectExpr("sum(id)").first().getLong(0)).isEqualTo(99999L * 100000 / 2);
    df.show(5);
  }
}
