package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.shuffle.SyncInterval;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.spark.TaskContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rounds within an epoch: what syncInterval does over corgipile and over other inputs. */
class SyncTrainingTest {
  @TempDir static Path dir;
  private static String table;

  @BeforeAll
  static void writeTable() {
    table = dir.resolve("linear").toString();
    TrainingData.linear(6_000, 5, 32, 2)
        .write()
        .option("parquet.block.row.count.limit", 300)
        .parquet(table);
  }

  private static Dataset<Row> corgipile(String shuffle) {
    return corgipile(shuffle, "3");
  }

  private static Dataset<Row> corgipile(String shuffle, String partitions) {
    return TrainingData.spark()
        .read()
        .format("corgipile")
        .option("shuffle", shuffle)
        .option("partitions", partitions)
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
    // pinned before standardization, the step calibration and minPartitionRows existed, so without
    // them (the default steps then, the input's 3 partitions)
    SGDClassificationModel classifier =
        new SGDClassifier()
            .setMinPartitionRows(1)
            .setMaxIter(3)
            .setTol(0)
            .setSyncInterval("epoch")
            .setStandardization(false)
            .setStepSize(SGDClassifierParams.DEFAULT_STEP_SIZE)
            .fit(TrainingData.logistic(6_000, 5, 31, 3));
    assertThat(bits(classifier.coefficients().toArray(), classifier.intercept()))
        .containsExactly(
            0x3fd57e6e2bd02f0fL,
            0xbfe04ce865ac6e2dL,
            0x3fe34cee6b519107L,
            0xbfe8263d18763381L,
            0x3fed5f3eebdf070aL,
            0x3fc45af74ed2035eL);
    SGDRegressionModel regressor =
        new SGDRegressor()
            .setMinPartitionRows(1)
            .setMaxIter(3)
            .setTol(0)
            .setBatchSize(4)
            .setRegParam(0.01)
            .setElasticNetParam(0.5)
            .setSyncInterval("epoch")
            .setStandardization(false)
            .setStepSize(SGDRegressorParams.DEFAULT_STEP_SIZE)
            .fit(corgipile("block"));
    assertThat(bits(regressor.coefficients().toArray(), regressor.intercept()))
        .containsExactly(
            0x3fcce5874ee70042L,
            0xbfd3d56a139981abL,
            0x3fda974c00d5deb3L,
            0xbfde49d6e2241438L,
            0x3fe25384b5c82391L,
            0x3fbbaac3a8fd7184L);
  }

  @Test
  void theDefaultFallsBackToOneRoundPerEpochOverAnInputThatIsNotCorgipile() {
    Dataset<Row> plain = TrainingData.logistic(3_000, 4, 5, 2);
    SGDClassificationModel byDefault = new SGDClassifier().setMaxIter(2).fit(plain);
    SGDClassificationModel byEpoch =
        new SGDClassifier().setMaxIter(2).setSyncInterval("epoch").fit(plain);
    assertThat(byDefault.coefficients().toArray())
        .containsExactly(byEpoch.coefficients().toArray());
    assertThat(byDefault.summary().roundsPerEpoch()).containsExactly(1, 1);
  }

  /**
   * {@code auto} averages every buffer in the first epoch and, after it, while a partition holds at
   * most four; it cuts a later epoch of more into four rounds of whole buffers. Over another input
   * it falls back to one round per epoch.
   */
  @Test
  void autoIsARoundPerBufferUpToFourRoundsPerEpoch() {
    SGDRegressor auto = new SGDRegressor().setMinPartitionRows(1).setMaxIter(2).setTol(0);
    assertThat(auto.getSyncInterval()).isEqualTo("auto");
    SGDRegressor perBuffer =
        new SGDRegressor().setMinPartitionRows(1).setMaxIter(2).setTol(0).setSyncInterval("buffer");
    Dataset<Row> twoBuffers =
        corgipile("corgipile"); // buffers of 1200 and 800 of a partition's 2000 rows
    SGDLinearModelView fewBuffers = SGDLinearModelView.of(auto.fit(twoBuffers));
    assertThat(fewBuffers.summary().roundsPerEpoch()).containsExactly(2, 2);
    assertThat(model(fewBuffers))
        .containsExactly(model(SGDLinearModelView.of(perBuffer.fit(twoBuffers))));

    Dataset<Row> sixBuffers =
        TrainingData.spark()
            .read()
            .format("corgipile")
            .option("partitions", "3")
            .option("bufferSize", "300")
            .load(table);
    SGDLinearModelView manyBuffers = SGDLinearModelView.of(auto.fit(sixBuffers));
    assertThat(manyBuffers.summary().roundsPerEpoch()).containsExactly(6, 4);
    assertThat(manyBuffers.summary().rowsPerEpoch()).containsExactly(6_000, 6_000);
    assertThat(SGDLinearModelView.of(perBuffer.fit(sixBuffers)).summary().roundsPerEpoch())
        .containsExactly(6, 6);
    assertThat(model(SGDLinearModelView.of(auto.fit(sixBuffers))))
        .containsExactly(model(manyBuffers));

    Dataset<Row> plain = TrainingData.logistic(1_000, 4, 5, 2);
    SGDClassificationModel fallback =
        new SGDClassifier().setMaxIter(2).setSyncInterval("AUTO").fit(plain);
    assertThat(fallback.summary().roundsPerEpoch()).containsExactly(1, 1);
  }

  @Test
  void anExplicitSyncIntervalOverAnInputThatIsNotCorgipileIsAnErrorNamingTheWayOut() {
    Dataset<Row> plain = TrainingData.logistic(1_000, 4, 5, 2);
    assertThatThrownBy(() -> new SGDClassifier().setSyncInterval("buffer").fit(plain))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot train SGDClassifier: syncInterval 'buffer' averages the models several times"
                + " per epoch")
        .hasMessageContaining("the input does not come from one corgipile scan without a shuffle")
        .hasMessageEndingWith("or set syncInterval to 'epoch'");
    assertThatThrownBy(
            () ->
                new SGDRegressor()
                    .setMinPartitionRows(1)
                    .setSyncInterval("5000")
                    .fit(corgipile("corgipile").repartition(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("syncInterval '5000'")
        .hasMessageContaining("without a shuffle (repartition, join, aggregation)");
  }

  @Test
  void badValuesOfSyncIntervalNameTheAllowedValues() {
    for (String bad : new String[] {"0", "-3", "often", "1.5", ""}) {
      assertThatThrownBy(() -> new SGDClassifier().setSyncInterval(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageMatching(
              "Cannot set param syncInterval of sgdClassifier_\\w+ to '"
                  + bad
                  + "': allowed values are "
                  + Pattern.quote(SyncInterval.FORMAT));
    }
  }

  private static double[] model(SGDLinearModelView fitted) {
    double[] w = Arrays.copyOf(fitted.coefficients(), fitted.coefficients().length + 1);
    w[w.length - 1] = fitted.intercept();
    return w;
  }

  /** Coefficients and intercept of a fitted model, whichever estimator made it. */
  private record SGDLinearModelView(
      double[] coefficients, double intercept, SGDTrainingSummary summary) {
    static SGDLinearModelView of(SGDRegressionModel m) {
      return new SGDLinearModelView(m.coefficients().toArray(), m.intercept(), m.summary());
    }
  }

  private static SGDLinearModelView fit(SGDRegressor regressor, Dataset<Row> data) {
    return SGDLinearModelView.of(regressor.setMaxIter(2).setTol(0).fit(data));
  }

  @ParameterizedTest(name = "syncInterval {0}, {1}")
  @CsvSource({"buffer, none", "700, none", "buffer, int8"})
  void roundsReadEveryRowOncePerEpochAndGiveTheSameModelOnEveryRun(
      String interval, String compression) {
    SGDRegressor regressor =
        new SGDRegressor()
            .setMinPartitionRows(1)
            .setSyncInterval(interval)
            .setDeltaCompression(compression);
    SGDLinearModelView first = fit(regressor, corgipile("corgipile"));
    SGDLinearModelView second = fit(regressor, corgipile("corgipile"));
    assertThat(model(second)).containsExactly(model(first));
    assertThat(first.summary().rowsPerEpoch()).containsExactly(6_000, 6_000);
    assertThat(Arrays.stream(first.summary().roundsPerEpoch()).min().getAsInt()).isGreaterThan(1);
    assertThat(first.summary().secondsPerRound()[0]).hasSize(first.summary().roundsPerEpoch()[0]);
    SGDLinearModelView byEpoch =
        fit(
            new SGDRegressor().setMinPartitionRows(1).setSyncInterval("epoch"),
            corgipile("corgipile"));
    assertThat(model(first)).isNotEqualTo(model(byEpoch));
  }

  /**
   * At 2 partitions on 2 cores each task fills its partition's next round ahead (RoundLookahead);
   * without prefetch every round reads its own buffer: the models are the same. Rounds of one
   * buffer (buffer), of two (1000 rows) and, after the first epoch, of two or three (auto).
   */
  @ParameterizedTest(name = "syncInterval={0}")
  @CsvSource({"buffer, 10", "1000, 3", "auto, 4"})
  void buffersFilledAheadOfTheirRoundGiveTheModelOfRoundsThatReadTheirOwn(
      String interval, int rounds) {
    SGDRegressor regressor =
        new SGDRegressor().setMinPartitionRows(1).setSyncInterval(interval).setMaxIter(2).setTol(0);
    SGDLinearModelView[] models = new SGDLinearModelView[2];
    for (int i = 0; i < 2; i++) {
      Dataset<Row> data =
          TrainingData.spark()
              .read()
              .format("corgipile")
              .option("partitions", "2")
              .option("bufferSize", "500")
              .option("prefetch", i == 0)
              .load(table);
      models[i] = SGDLinearModelView.of(regressor.fit(data));
    }
    assertThat(models[0].summary().roundsPerEpoch()).endsWith(rounds);
    assertThat(model(models[0])).containsExactly(model(models[1]));
  }

  /**
   * The first epoch ends on the mean of its second half of rounds (its first half is burn-in from
   * the zero model). Of two rounds that is the last round's model, the one it ends on without
   * averaging; of several, a different model.
   */
  @Test
  void theFirstEpochEndsOnTheMeanOfItsSecondHalfOfRounds() {
    SGDRegressor averaging =
        new SGDRegressor().setMinPartitionRows(1).setMaxIter(1).setTol(0).setSyncInterval("buffer");
    SGDRegressor lastRound =
        new SGDRegressor()
            .setMinPartitionRows(1)
            .setMaxIter(1)
            .setTol(0)
            .setAveraging(false)
            .setSyncInterval("buffer");
    Dataset<Row> twoRounds =
        corgipile("corgipile"); // buffers of 1200 and 800 of a partition's 2000 rows
    SGDLinearModelView averaged = SGDLinearModelView.of(averaging.fit(twoRounds));
    assertThat(averaged.summary().roundsPerEpoch()).containsExactly(2);
    assertThat(model(averaged))
        .containsExactly(model(SGDLinearModelView.of(lastRound.fit(twoRounds))));

    Dataset<Row> sixRounds =
        TrainingData.spark()
            .read()
            .format("corgipile")
            .option("partitions", "3")
            .option("bufferSize", "300")
            .load(table);
    SGDLinearModelView ofSix = SGDLinearModelView.of(averaging.fit(sixRounds));
    assertThat(ofSix.summary().roundsPerEpoch())
        .containsExactly(6); // the smallest partition holds six buffers
    assertThat(model(ofSix)).isNotEqualTo(model(SGDLinearModelView.of(lastRound.fit(sixRounds))));
  }

  /** Rows each task attempt has seen, for failing a task midway (local mode: one JVM). */
  private static final Map<Long, Long> ROWS_SEEN = new ConcurrentHashMap<>();

  /**
   * At 2 partitions, the failed attempt has taken its round's buffer filled ahead; the retry reads
   * its own.
   */
  @ParameterizedTest(name = "{0}, {1} partitions")
  @CsvSource({"none, 3", "int8, 3", "none, 2"})
  void aTaskRetriedAfterAFailureInARoundGivesTheSameModel(String compression, String partitions) {
    SGDRegressor regressor =
        new SGDRegressor().setMinPartitionRows(1).setDeltaCompression(compression);
    SGDLinearModelView clean = fit(regressor, corgipile("corgipile", partitions));
    // Fails the first attempt of partition 1 midway in every round; local[2,2] retries it once.
    UDF1<Double, Double> failOnce =
        label -> {
          TaskContext task = TaskContext.get();
          if (task.partitionId() == 1
              && task.attemptNumber() == 0
              && ROWS_SEEN.merge(task.taskAttemptId(), 1L, Long::sum) > 100) {
            throw new IllegalStateException("injected failure");
          }
          return label;
        };
    Dataset<Row> failing =
        corgipile("corgipile", partitions)
            .withColumn(
                "label",
                udf(failOnce, DataTypes.DoubleType).asNondeterministic().apply(col("label")));
    assertThat(model(fit(regressor, failing))).containsExactly(model(clean));
  }

  /**
   * With int8 deltas and error feedback the driver keeps every partition's residual and sends it
   * with the partition's next task, so a task that fails midway in any round, of any partition, and
   * runs again (here in the same JVM; on a cluster perhaps on another executor) computes the same
   * delta and residual: the model is the undisturbed one, bit for bit.
   */
  @ParameterizedTest(name = "failing at row {0}")
  @CsvSource({"1", "150"})
  void anInt8FitWhoseTasksAllFailOnceInEveryRoundGivesTheUndisturbedModel(long failAt) {
    SGDRegressor regressor = new SGDRegressor().setMinPartitionRows(1).setDeltaCompression("int8");
    SGDLinearModelView clean = fit(regressor, corgipile("corgipile"));
    assertThat(clean.summary().roundsPerEpoch()[1]).isGreaterThan(1);
    // Fails the first attempt of every task at its failAt-th row; local[2,2] retries it once.
    UDF1<Double, Double> failOnce =
        label -> {
          TaskContext task = TaskContext.get();
          if (task.attemptNumber() == 0
              && ROWS_SEEN.merge(task.taskAttemptId(), 1L, Long::sum) >= failAt) {
            throw new IllegalStateException("injected failure");
          }
          return label;
        };
    Dataset<Row> failing =
        corgipile("corgipile")
            .withColumn(
                "label",
                udf(failOnce, DataTypes.DoubleType).asNondeterministic().apply(col("label")));
    SGDLinearModelView disturbed = fit(regressor, failing);
    assertThat(model(disturbed)).containsExactly(model(clean));
    assertThat(disturbed.summary().objectiveHistory())
        .containsExactly(clean.summary().objectiveHistory());
  }

  /**
   * Error feedback keeps int8's rounding from adding up: on a classification set, int8 deltas with
   * it reach the test accuracy of float64 deltas.
   */
  @Test
  void int8DeltasWithErrorFeedbackClassifyAsWellAsFloat64Deltas() {
    String path = dir.resolve("logistic").toString();
    TrainingData.logistic(8_000, 20, 41, 1)
        .write()
        .option("parquet.block.row.count.limit", 250)
        .parquet(path);
    Dataset<Row> data =
        TrainingData.spark()
            .read()
            .format("corgipile")
            .option("partitions", "4")
            .option("bufferSize", "500")
            .load(path);
    Dataset<Row> test = TrainingData.logistic(4_000, 20, 42, 2);
    double none = accuracy(classifier().fit(data), test);
    SGDClassificationModel int8 = classifier().setDeltaCompression("int8").fit(data);
    assertThat(int8.summary().roundsPerEpoch()[0]).isGreaterThan(1);
    assertThat(accuracy(int8, test)).isCloseTo(none, within(0.005));
  }

  private static SGDClassifier classifier() {
    return new SGDClassifier()
        .setMinPartitionRows(1)
        .setMaxIter(3)
        .setTol(0)
        .setSyncInterval("buffer");
  }

  private static double accuracy(SGDClassificationModel model, Dataset<Row> test) {
    return model.transform(test).filter(col("prediction").equalTo(col("label"))).count()
        / (double) test.count();
  }

  /** Rows of 2,000 features, 40 of them non-zero, and a label linear in them plus noise. */
  private static Dataset<Row> wideSparse(int rows) {
    Random random = new Random(3);
    List<Row> data = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      int[] indices = random.ints(0, 2_000).distinct().limit(40).sorted().toArray();
      double[] values = random.doubles(40).toArray();
      double label = random.nextGaussian() * 0.1;
      for (int k = 0; k < indices.length; k++) {
        label += TrainingData.trueWeight(indices[k], 2_000) * values[k];
      }
      data.add(RowFactory.create(Vectors.sparse(2_000, indices, values), label));
    }
    StructType schema =
        new StructType()
            .add("features", SQLDataTypes.VectorType())
            .add("label", DataTypes.DoubleType);
    return TrainingData.spark().createDataFrame(data, schema);
  }

  @Test
  void int8DeltasSendSeveralTimesFewerBytesAndTrainAlmostTheSameModel() {
    String path = dir.resolve("wide").toString();
    wideSparse(4_000)
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 200)
        .parquet(path);
    Dataset<Row> data =
        TrainingData.spark().read().format("corgipile").option("partitions", "2").load(path);
    // Without standardization: with it this sparse set's objective falls from 27 to 6.8 to 3.5 in
    // epochs 1 to 3, so two epochs compare how fast each run moves, not what compression loses.
    SGDLinearModelView none =
        fit(new SGDRegressor().setMinPartitionRows(1).setStandardization(false), data);
    SGDLinearModelView int8 =
        fit(
            new SGDRegressor()
                .setMinPartitionRows(1)
                .setStandardization(false)
                .setDeltaCompression("int8"),
            data);
    long noneBytes = Arrays.stream(none.summary().bytesFromExecutorsPerEpoch()).sum();
    long int8Bytes = Arrays.stream(int8.summary().bytesFromExecutorsPerEpoch()).sum();
    // a coordinate costs 8 bytes in float64, and 1 with int8 plus 1 for error feedback's residual,
    // which comes back with the delta; each task result also carries about 1.5 KB of Spark's
    // metrics
    assertThat((double) noneBytes / int8Bytes).isGreaterThan(2.4);
    // a model of 2,000 coefficients per partition in float64: at least 16,000 bytes a round each
    assertThat(noneBytes)
        .isGreaterThan(2L * 16_000 * Arrays.stream(none.summary().roundsPerEpoch()).sum());
    assertThat(none.summary().bytesToExecutorsPerEpoch()[1])
        .isGreaterThan(16_000L * none.summary().roundsPerEpoch()[1]);
    // error feedback's residuals travel both ways: back with the deltas, and on to each partition's
    // next task (the broadcast models are of one size)
    SGDLinearModelView withoutFeedback =
        fit(
            new SGDRegressor()
                .setMinPartitionRows(1)
                .setStandardization(false)
                .setDeltaCompression("int8")
                .setErrorFeedback(false),
            data);
    long withoutFeedbackBytes =
        Arrays.stream(withoutFeedback.summary().bytesFromExecutorsPerEpoch()).sum();
    assertThat((double) noneBytes / withoutFeedbackBytes).isGreaterThan(3.5);
    assertThat(int8.summary().bytesFromExecutorsPerEpoch()[1])
        .isGreaterThan(withoutFeedback.summary().bytesFromExecutorsPerEpoch()[1]);
    assertThat(int8.summary().bytesToExecutorsPerEpoch()[1])
        .isGreaterThan(withoutFeedback.summary().bytesToExecutorsPerEpoch()[1]);
    // within 15% of the model's norm (0.108 at the default seed, 0.06 to 0.11 at seeds 1 to 12): a
    // change that rounds to zero leaves the coordinate to the partitions that moved it more, until
    // error feedback sends it, and the last round's residual is never sent
    double[] a = model(none);
    double[] b = model(int8);
    double distance = 0;
    double norm = 0;
    for (int j = 0; j < a.length; j++) {
      distance += (a[j] - b[j]) * (a[j] - b[j]);
      norm += a[j] * a[j];
    }
    assertThat(Math.sqrt(distance / norm)).isLessThan(0.15);
    double[] objectives = {
      none.summary().objectiveHistory()[1], int8.summary().objectiveHistory()[1]
    };
    // after two epochs, 0.99 to 1.03 times the uncompressed run's objective at seeds 1 to 12
    assertThat(objectives[1]).isCloseTo(objectives[0], within(0.04 * objectives[0]));
  }
}
