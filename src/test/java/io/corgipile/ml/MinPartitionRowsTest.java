package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.source.ReadScope;
import java.nio.file.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** minPartitionRows: small partitions of an input train as fewer, larger ones. */
class MinPartitionRowsTest {
  @TempDir static Path dir;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = dir.resolve("logistic").toString();
    TrainingData.logistic(4_000, 6, 3, 1)
        .write()
        .option("parquet.block.row.count.limit", 100)
        .parquet(table);
  }

  private static Dataset<Row> read(int partitions) {
    return TrainingData.spark()
        .read()
        .format("corgipile")
        .option("partitions", partitions)
        .load(table);
  }

  private static SGDClassificationModel fit(int partitions, int minPartitionRows) {
    return new SGDClassifier()
        .setMaxIter(3)
        .setTol(0)
        .setMinPartitionRows(minPartitionRows)
        .fit(read(partitions));
  }

  @Test
  void trainsTheSameModelAtEveryPartitionCountAboveRowsOverMinPartitionRows() {
    // 4,000 rows at 1,000 a partition: 4 partitions whether the input has 4, 8 or 40
    SGDClassificationModel four = fit(4, 1_000);
    for (int partitions : new int[] {8, 40}) {
      SGDClassificationModel more = fit(partitions, 1_000);
      assertThat(more.coefficients().toArray()).containsExactly(four.coefficients().toArray());
      assertThat(more.intercept()).isEqualTo(four.intercept());
    }
  }

  @Test
  void trainsInTheInputsPartitionsWhenTheyHoldEnoughRows() {
    // 4,000 rows in 8 partitions, at least 500 each: nothing to merge, so not the 4-partition model
    SGDClassificationModel eight = fit(8, 500);
    assertThat(eight.coefficients().toArray()).containsExactly(fit(8, 1).coefficients().toArray());
    assertThat(eight.coefficients().toArray()).isNotEqualTo(fit(4, 500).coefficients().toArray());
  }

  @Test
  void trainsOnEveryRowOnceAnEpochInFewerPartitions() {
    SGDClassificationModel model = fit(40, 1_500); // 2 partitions of 2,000 rows
    assertThat(model.summary().numPartitions()).isEqualTo(2);
    assertThat(model.summary().rowsPerEpoch()).containsOnly(4_000L);
    assertThat(fit(8, 500).summary().numPartitions()).isEqualTo(8);
  }

  /** 4,000 generated rows, not read by corgipile, in {@code partitions} partitions. */
  private static Dataset<Row> generated(int partitions) {
    return TrainingData.logistic(4_000, 6, 3, partitions);
  }

  @Test
  void coalescesAnInputThatIsNotCorgipileToConsecutivePartitions() {
    // without standardization a count finds the rows; the model is the one on the input coalesced
    // in order (Spark's coalesce of a generated range has no locations to balance, so it is too)
    SGDClassifier classifier =
        new SGDClassifier().setMaxIter(2).setTol(0).setStandardization(false).setStepSize(0.1);
    SGDClassificationModel coalesced = classifier.setMinPartitionRows(1_000).fit(generated(40));
    SGDClassificationModel asIs = classifier.setMinPartitionRows(1).fit(generated(40).coalesce(4));
    assertThat(coalesced.summary().numPartitions()).isEqualTo(4);
    assertThat(asIs.summary().numPartitions()).isEqualTo(4);
    assertThat(coalesced.coefficients().toArray()).containsExactly(asIs.coefficients().toArray());
  }

  @Test
  void countsAnInputThatIsNotCorgipileInTheFeatureSummary() {
    SGDClassificationModel model =
        new SGDClassifier().setMaxIter(1).setMinPartitionRows(1_500).fit(generated(40));
    assertThat(model.summary().numPartitions()).isEqualTo(2);
    assertThat(model.summary().rowsPerEpoch()).containsOnly(4_000L);
    SGDClassificationModel asIs =
        new SGDClassifier().setMaxIter(1).setMinPartitionRows(1).fit(generated(40));
    assertThat(asIs.summary().numPartitions()).isEqualTo(40);
  }

  @Test
  void leavesTheCapUnsetAfterTraining() {
    fit(40, 1_000);
    assertThat(TrainingData.spark().sparkContext().getLocalProperty("corgipile.maxPartitions"))
        .isNull();
    assertThat(read(8).rdd().getNumPartitions()).isEqualTo(8);
  }

  @Test
  void capsTheScansPlannedWhileSet() {
    ReadScope.setMaxPartitions(TrainingData.spark().sparkContext(), 3);
    try {
      assertThat(read(8).rdd().getNumPartitions()).isEqualTo(3);
      assertThat(read(2).rdd().getNumPartitions()).isEqualTo(2);
    } finally {
      ReadScope.setMaxPartitions(TrainingData.spark().sparkContext(), null);
    }
  }

  @Test
  void refusesACapBelowOnePartition() {
    assertThatThrownBy(() -> ReadScope.setMaxPartitions(TrainingData.spark().sparkContext(), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot plan a scan in at most 0 partitions: at least 1 is needed");
  }

  @Test
  void refusesAMinPartitionRowsBelowOne() {
    assertThatThrownBy(() -> new SGDClassifier().setMinPartitionRows(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minPartitionRows");
  }
}
