package io.corgipile.ml.sgd;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.ml.SGDClassificationModel;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDClassifierParams;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.TrainingData;
import io.corgipile.spark.DatasetInternals;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The step chosen when stepSize is not set, without a feature summary: from the first rows of every
 * partition, the same for a seed.
 */
class StepCalibrationTest {
  @TempDir static Path dir;
  private static Dataset<Row> corgipile;

  @BeforeAll
  static void writeTable() {
    String table = dir.resolve("sorted").toString();
    TrainingData.logistic(12_000, 6, 51, 2)
        .orderBy("label", "id")
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 400)
        .parquet(table);
    corgipile =
        TrainingData.spark().read().format("corgipile").option("partitions", "3").load(table);
  }

  /**
   * The sample of {@code data}'s training rows ({@link TrainingRow}'s layout) for {@code config}.
   */
  private static List<InternalRow> sample(Dataset<Row> data, SGDConfig config) {
    // the seed a fit without one draws with
    return new StepCalibration(config, null)
        .sample(trainingRows(data, config), SGDParams.SEED.defaultValue());
  }

  private static JavaRDD<InternalRow> trainingRows(Dataset<Row> data, SGDConfig config) {
    return DatasetInternals.internalRows(data.select(TrainingRow.columns(config, data)))
        .toJavaRDD();
  }

  private static SGDConfig config(SGDParams estimator, SGDTask task, MarginsLoss loss) {
    return SGDConfig.of(
        estimator, task, "features", "label", task == SGDTask.CLASSIFICATION ? 2 : 0, loss);
  }

  @ParameterizedTest
  @ValueSource(ints = {SGDParams.DEFAULT_CALIBRATION_ROWS, 500})
  void theSampleIsTheFirstRowsOfEveryPartitionInARandomOrder(int calibrationRows) {
    SGDClassifier classifier = new SGDClassifier();
    if (calibrationRows != SGDParams.DEFAULT_CALIBRATION_ROWS) {
      classifier.setCalibrationRows(calibrationRows);
    }
    SGDConfig config = config(classifier, SGDTask.CLASSIFICATION, new LossFunction.Logistic());
    int perPartition = (calibrationRows + 2) / 3; // corgipile reads 3 partitions
    List<InternalRow> firstRows = new ArrayList<>();
    for (List<InternalRow> partition :
        trainingRows(corgipile, config)
            .mapPartitions(
                it -> {
                  List<InternalRow> first = new ArrayList<>();
                  while (it.hasNext() && first.size() < perPartition) {
                    first.add(it.next().copy());
                  }
                  return first.iterator();
                })
            .glom()
            .collect()) {
      assertThat(partition).hasSize(perPartition);
      firstRows.addAll(partition);
    }
    List<InternalRow> sample = sample(corgipile, config);
    assertThat(sample).containsExactlyInAnyOrderElementsOf(firstRows).isNotEqualTo(firstRows);
    assertThat(sample(corgipile, config)).isEqualTo(sample); // the same seed, the same order
  }

  @Test
  void aFitChoosesOnCalibrationRows() {
    // a sample size on which the choice differs from the default 2,000's: the fit must use it
    // (minPartitionRows 1: the fit reads corgipile's 3 partitions, as choice() does)
    SGDClassifier many = new SGDClassifier().setStandardization(false).setMaxIter(1);
    double chosenOnMany = choice(many).stepSize();
    for (int rows : new int[] {6, 15, 30, 60, 150}) {
      SGDClassifier few =
          new SGDClassifier()
              .setCalibrationRows(rows)
              .setStandardization(false)
              .setMaxIter(1)
              .setMinPartitionRows(1);
      double chosenOnFew = choice(few).stepSize();
      if (chosenOnFew != chosenOnMany) {
        assertThat(few.fit(corgipile).summary().stepSize()).isEqualTo(chosenOnFew);
        return;
      }
    }
    throw new AssertionError("every sample size chose the default's step " + chosenOnMany);
  }

  private static StepCalibration.Choice choice(SGDClassifier classifier) {
    SGDConfig config = config(classifier, SGDTask.CLASSIFICATION, new LossFunction.Logistic());
    return new StepCalibration(config, null).choose(sample(corgipile, config));
  }

  @Test
  void keepsTheStepOfTheLowestObjectiveAndSkipsStepsThatDiverge() {
    // the squared loss at a constant step: the largest steps blow up to infinite margins
    Dataset<Row> wide =
        TrainingData.linear(3_000, 4, 52, 2).selectExpr("features", "label * 10 as label");
    SGDRegressor regressor =
        new SGDRegressor().setStandardization(false).setStepSchedule("constant");
    SGDConfig config = config(regressor, SGDTask.REGRESSION, new LossFunction.Squared());
    StepCalibration.Choice choice = new StepCalibration(config, null).choose(sample(wide, config));

    double[] objectives = choice.objectives();
    assertThat(objectives[0]).isInfinite(); // stepSize 10
    int best = 0;
    for (int i = 1; i < objectives.length; i++) {
      best = objectives[i] < objectives[best] ? i : best;
    }
    assertThat(choice.stepSize()).isEqualTo(StepCalibration.CANDIDATES[best]);
    assertThat(choice.sampleRows()).isEqualTo(2_000); // the first 1,000 of both partitions
    assertThat(choice.describe()).startsWith("10.0: diverged, ");
  }

  @Test
  void theSameSeedChoosesTheSameStepAndTrainsTheSameModel() {
    SGDClassificationModel first = new SGDClassifier().setSeed(4).setMaxIter(2).fit(corgipile);
    SGDClassificationModel second = new SGDClassifier().setSeed(4).setMaxIter(2).fit(corgipile);
    assertThat(Arrays.asList(StepCalibration.CANDIDATES[0], StepCalibration.CANDIDATES[8]))
        .doesNotContain(first.summary().stepSize()); // an interior choice: the range is wide enough
    assertThat(second.summary().stepSize()).isEqualTo(first.summary().stepSize());
    assertThat(second.coefficients().toArray()).containsExactly(first.coefficients().toArray());
  }

  @Test
  void aStepSizeSetIsUsedAsItIs() {
    SGDClassificationModel model =
        new SGDClassifier().setStepSize(0.05).setMaxIter(1).fit(corgipile);
    assertThat(model.summary().stepSize()).isEqualTo(0.05);
  }

  @Test
  void aSampleWithoutValidRowsLeavesTheDefault() {
    SGDClassifier classifier = new SGDClassifier().setHandleInvalid("skip");
    Dataset<Row> invalid = corgipile.selectExpr("features", "-1.0 as label");
    SGDConfig config = config(classifier, SGDTask.CLASSIFICATION, new LossFunction.Logistic());
    StepCalibration.Choice choice =
        new StepCalibration(config, null).choose(sample(invalid, config));
    assertThat(choice.sampleRows()).isZero();
    assertThat(choice.stepSize()).isEqualTo(SGDClassifierParams.DEFAULT_STEP_SIZE);
  }
}
