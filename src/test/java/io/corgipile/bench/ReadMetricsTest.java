package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.SharedSpark;
import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An epoch's bytes are those of all its rounds' jobs, not of its last. */
class ReadMetricsTest {
  @TempDir Path dir;

  @Test
  void anEpochOfManyRoundsCountsTheBytesOfEveryRound() throws IOException {
    SparkSession spark = SharedSpark.get();
    String table = dir.resolve("t").toString();
    spark
        .range(0, 40_000, 1, 2)
        .selectExpr(
            "cast(id % 2 as double) as label", "rand(1) as a", "rand(2) as b", "rand(3) as c")
        .write()
        .option("parquet.block.row.count.limit", 2_000)
        .parquet(table);
    long tableBytes;
    try (Stream<Path> files = Files.list(Path.of(table))) {
      tableBytes =
          files
              .filter(f -> f.toString().endsWith(".parquet"))
              .mapToLong(f -> f.toFile().length())
              .sum();
    }
    ReadMetrics metrics = ReadMetrics.register(spark);
    try {
      metrics.reset();
      SGDClassificationModel model =
          new SGDClassifier()
              .setFeaturesCols(new String[] {"a", "b", "c"})
              .setMaxIter(1)
              .setStepSize(0.01)
              .setSyncInterval("buffer")
              .fit(
                  spark
                      .read()
                      .format("corgipile")
                      .option("partitions", 2)
                      .option("bufferSize", 2_000)
                      .load(table));

      assertThat(model.summary().roundsPerEpoch()[0]).isGreaterThanOrEqualTo(8);
      // Every row group is read once in the epoch; with only the last round counted it was an
      // eighth.
      assertThat(metrics.bytesOfEpoch(1)).isGreaterThan(tableBytes * 3 / 4);
    } finally {
      spark.sparkContext().removeSparkListener(metrics);
    }
  }
}
