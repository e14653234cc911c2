package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rounds within an epoch: what syncInterval does over corgipile and over other inputs. */
class SyncIntervalTest {
  @TempDir
  static Path dir;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = dir.resolve("linear").toString();
    TrainingData.linear(6_000, 5, 32, 2).write().option("parquet.block.row.count.limit", 300).parquet(table);
  }

  private static Dataset<Row> corgipile(String shuffle) {
    return TrainingData.spark().read().format("corgipile").option("shuffle", shuffle).option("partitions", "3")
        .load(table);
  }

  private static long[] bits(double[] coefficients, double intercept) {
    long[] bits = Arrays.stream(coefficients).mapToLong(Double::doubleToRawLongBits).toArray();
    bits = Arrays.copyOf(bits, bits.length + 1);
    bits[coefficients.length] = Double.doubleToRawLongBits(intercept);
    return bits;
  }

  /**
   * The coefficients and intercept (as IEEE bits) that commit 57e75c3, which averaged once per
   * epoch and had no syncInterval, trained on these inputs: epoch sync must not have changed them.
   */
  @Test
  void syncIntervalEpochGivesTheModelsOfOnceAnEpochAveragingBitForBit() {
    SGDClassificationModel classifier = new SGDClassifier().setMaxIter(3).setTol(0).setSyncInterval("epoch")
        .fit(TrainingData.logistic(6_000, 5, 31, 3));
    assertThat(bits(classifier.coefficients().toArray(), classifier.intercept())).containsExactly(
        0x3fd57e6e2bd02f0fL, 0xbfe04ce865ac6e2dL, 0x3fe34cee6b519107L, 0xbfe8263d18763381L, 0x3fed5f3eebdf070aL,
        0x3fc45af74ed2035eL);
    SGDRegressionModel regressor = new SGDRegressor().setMaxIter(3).setTol(0).setBatchSize(4).setRegParam(0.01)
        .setElasticNetParam(0.5).setSyncInterval("epoch").fit(corgipile("block"));
    assertThat(bits(regressor.coefficients().toArray(), regressor.intercept())).containsExactly(
        0x3fcce5874ee70042L, 0xbfd3d56a139981abL, 0x3fda974c00d5deb3L, 0xbfde49d6e2241438L, 0x3fe25384b5c82391L,
        0x3fbbaac3a8fd7184L);
  }

  @Test
  void theDefaultFallsBackToOneRoundPerEpochOverAnInputThatIsNotCorgipile() {
    Dataset<Row> plain = TrainingData.logistic(3_000, 4, 5, 2);
    SGDClassificationModel byDefault = new SGDClassifier().setMaxIter(2).fit(plain);
    SGDClassificationModel byEpoch = new SGDClassifier().setMaxIter(2).setSyncInterval("epoch").fit(plain);
    assertThat(byDefault.coefficients().toArray()).containsExactly(byEpoch.coefficients().toArray());
    assertThat(byDefault.summary().roundsPerEpoch()).containsExactly(1, 1);
  }

  @Test
  void anExplicitSyncIntervalOverAnInputThatIsNotCorgipileIsAnErrorNamingTheWayOut() {
    Dataset<Row> plain = TrainingData.logistic(1_000, 4, 5, 2);
    assertThatThrownBy(() -> new SGDClassifier().setSyncInterval("buffer").fit(plain))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot train SGDClassifier: syncInterval 'buffer' averages the models several times"
            + " per epoch")
        .hasMessageContaining("the input does not come from one corgipile scan without a shuffle")
        .hasMessageEndingWith("or set syncInterval to 'epoch'");
    assertThatThrownBy(() -> new SGDRegressor().setSyncInterval("5000").fit(corgipile("corgipile").repartition(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("syncInterval '5000'")
        .hasMessageContaining("without a shuffle (repartition, join, aggregation)");
  }

  @Test
  void badValuesOfSyncIntervalNameTheAllowedValues() {
    for (String bad : new String[] {"0", "-3", "often", "1.5", ""}) {
      assertThatThrownBy(() -> new SGDClassifier().setSyncInterval(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageMatching("Cannot set param syncInterval of sgdClassifier_\\w+ to '" + bad
              + "': allowed values are 'epoch', 'buffer' or a positive number of rows per partition");
    }
  }
}
