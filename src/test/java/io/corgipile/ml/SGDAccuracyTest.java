package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.apache.spark.ml.Predictor;
import org.apache.spark.ml.classification.LinearSVC;
import org.apache.spark.ml.classification.LogisticRegression;
import org.apache.spark.ml.evaluation.MulticlassClassificationEvaluator;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.regression.LinearRegression;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On data in random order, SGD reaches the test accuracy (or RMSE) of MLlib's batch solvers for the
 * same loss: the estimators are correct before order comes into it.
 */
class SGDAccuracyTest {
  private static final int FEATURES = 10;
  private static Dataset<Row> train;
  private static Dataset<Row> test;
  private static Dataset<Row> linearTrain;
  private static Dataset<Row> linearTest;

  @BeforeAll
  static void generate() {
    train = TrainingData.logistic(20_000, FEATURES, 1, 2).cache();
    test = TrainingData.logistic(10_000, FEATURES, 2, 2).cache();
    linearTrain = TrainingData.linear(20_000, FEATURES, 3, 2).cache();
    linearTest = TrainingData.linear(10_000, FEATURES, 4, 2).cache();
  }

  @AfterAll
  static void release() {
    train.unpersist();
    test.unpersist();
    linearTrain.unpersist();
    linearTest.unpersist();
  }

  private static double accuracy(Predictor<?, ?, ?> estimator) {
    return new MulticlassClassificationEvaluator()
        .setMetricName("accuracy")
        .evaluate(estimator.fit(train).transform(test));
  }

  private static double rmse(Predictor<?, ?, ?> estimator, Dataset<Row> training) {
    return new RegressionEvaluator()
        .setMetricName("rmse")
        .evaluate(estimator.fit(training).transform(linearTest));
  }

  @Test
  void logisticLossMatchesLogisticRegression() {
    assertThat(accuracy(new SGDClassifier()))
        .isCloseTo(accuracy(new LogisticRegression()), within(0.01));
  }

  @Test
  void hingeLossMatchesLinearSvc() {
    assertThat(accuracy(new SGDClassifier().setLoss("hinge")))
        .isCloseTo(accuracy(new LinearSVC()), within(0.01));
  }

  @Test
  void squaredLossMatchesLinearRegression() {
    double reference = rmse(new LinearRegression(), linearTrain);
    assertThat(rmse(new SGDRegressor(), linearTrain))
        .isCloseTo(reference, within(0.02 * reference));
  }

  @ParameterizedTest
  @ValueSource(strings = {"constant", "decay", "invsqrt"})
  void everyStepScheduleConverges(String schedule) {
    // invsqrt starts 1/sqrt(t) small, so it starts from a larger step
    double stepSize = schedule.equals("invsqrt") ? 0.5 : 0.01;
    double reference = accuracy(new LogisticRegression());
    assertThat(accuracy(new SGDClassifier().setStepSchedule(schedule).setStepSize(stepSize)))
        .isCloseTo(reference, within(0.01));
  }

  @Test
  void miniBatchesConverge() {
    assertThat(accuracy(new SGDClassifier().setBatchSize(16).setStepSize(0.1)))
        .isCloseTo(accuracy(new LogisticRegression()), within(0.01));
  }

  @Test
  void huberLossResistsOutliersThatPullSquaredLossAway() {
    // 5% of the training labels are off by +40: squared loss chases them, huber does not
    Dataset<Row> outliers =
        linearTrain.withColumn(
            "label", org.apache.spark.sql.functions.expr("label + if(id % 20 = 0, 40.0, 0.0)"));
    double squared = rmse(new SGDRegressor(), outliers);
    double huber = rmse(new SGDRegressor().setLoss("huber"), outliers);
    double clean = rmse(new LinearRegression(), linearTrain);
    assertThat(huber).isLessThan(clean * 1.1);
    assertThat(squared).isGreaterThan(clean * 1.5);
  }
}
