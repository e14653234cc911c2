package io.corgipile.ml;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ScheduledLasso}: its optimum, its schedules, its determinism, its errors and its life in
 * MLlib.
 */
class ScheduledLassoTest {
  private static final StructType SCHEMA =
      new StructType()
          .add("label", DataTypes.DoubleType, true)
          .add("features", SQLDataTypes.VectorType(), true);

  /**
   * Rows of features in blocks of 4 correlated by {@code correlation}, a sparse true model (every
   * third coefficient) plus 3, and noise; with {@code zeros}, that share of the values is 0.
   */
  record Data(double[][] x, double[] y) {
    static Data correlated(int n, int p, double correlation, double zeros, long seed) {
      Random random = new Random(seed);
      double[][] x = new double[n][p];
      double[] y = new double[n];
      for (int i = 0; i < n; i++) {
        double shared = 0;
        for (int j = 0; j < p; j++) {
          if (j % 4 == 0) {
            shared = random.nextGaussian();
          }
          double v =
              Math.sqrt(correlation) * shared
                  + Math.sqrt(1 - correlation) * random.nextGaussian()
                  + 0.5;
          x[i][j] = random.nextDouble() < zeros ? 0 : v;
          y[i] += j % 3 == 0 ? (j % 2 == 0 ? 1.5 : -1.0) * x[i][j] : 0;
        }
        y[i] += 3 + 0.5 * random.nextGaussian();
      }
      return new Data(x, y);
    }

    Dataset<Row> frame(int partitions, boolean sparse) {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < y.length; i++) {
        Vector v = Vectors.dense(x[i].clone());
        rows.add(RowFactory.create(y[i], sparse ? v.toSparse() : v));
      }
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(TrainingData.spark().sparkContext());
      return TrainingData.spark().createDataFrame(sc.parallelize(rows, partitions), SCHEMA);
    }
  }

  private static final Data SMALL = Data.correlated(400, 12, 0.5, 0, 1);

  private static ScheduledLasso lasso() {
    return new ScheduledLasso().setRegParam(0.05).setTol(1e-14).setMaxIter(5000);
  }

  private static void assertMatches(ScheduledLassoModel model, LassoReference reference) {
    assertThat(model.coefficients().toArray())
        .containsExactly(reference.coefficients, within(1e-6));
    assertThat(model.intercept()).isCloseTo(reference.intercept, within(1e-6));
  }

  @ParameterizedTest(name = "{0}, L={1}, intercept {2}, standardization {3}, alpha {4}")
  @CsvSource({
    "priority+dependency, 4, true, true, 1.0",
    "priority, 2, false, true, 1.0",
    "priority, 3, true, false, 1.0",
    "random, 2, true, true, 0.5",
    "priority+dependency, 4, true, false, 0.3"
  })
  void coefficientsMatchSingleMachineCoordinateDescent(
      String scheduler, int size, boolean intercept, boolean standardization, double alpha) {
    ScheduledLassoModel model =
        lasso()
            .setScheduler(scheduler)
            .setScheduleSize(size)
            .setFitIntercept(intercept)
            .setStandardization(standardization)
            .setElasticNetParam(alpha)
            .fit(SMALL.frame(3, false));
    assertMatches(
        model, new LassoReference(SMALL.x(), SMALL.y(), 0.05, alpha, intercept, standardization));
    if (intercept) {
      assertThat(model.coefficients().toArray()).as("the L1 penalty zeroes some").contains(0.0);
    }
  }

  @Test
  void sparseFeaturesGiveTheOptimumOfTheirDenseValues() {
    Data sparse = Data.correlated(400, 12, 0.5, 0.7, 2);
    ScheduledLassoModel model = lasso().fit(sparse.frame(3, true));
    assertMatches(model, new LassoReference(sparse.x(), sparse.y(), 0.05, 1.0, true, true));
  }

  @Test
  void theSameSeedGivesTheSameModelAndHistoryBitForBit() {
    ScheduledLasso lasso = lasso().setMaxIter(30).setSeed(7);
    ScheduledLassoModel a = lasso.fit(SMALL.frame(3, false));
    ScheduledLassoModel b = lasso.fit(SMALL.frame(3, false));
    assertThat(b.coefficients().toArray()).containsExactly(a.coefficients().toArray());
    assertThat(b.summary().objectiveHistory()).containsExactly(a.summary().objectiveHistory());
    ScheduledLassoModel other = lasso().setMaxIter(30).setSeed(8).fit(SMALL.frame(3, false));
    assertThat(other.summary().objectiveHistory()).isNotEqualTo(a.summary().objectiveHistory());
  }

  /** Rows each task attempt has read, for failing a task midway (local mode: one JVM). */
  private static final Map<Long, Long> ROWS_SEEN = new ConcurrentHashMap<>();

  @Test
  void aReadRetriedAfterAFailureGivesTheSameModel() {
    ScheduledLasso lasso = lasso().setMaxIter(40);
    ScheduledLassoModel clean = lasso.fit(SMALL.frame(3, false));
    UDF1<Double, Double> failOnce =
        label -> {
          TaskContext task = TaskContext.get();
          if (task.partitionId() == 1
              && task.attemptNumber() == 0
              && ROWS_SEEN.merge(task.taskAttemptId(), 1L, Long::sum) > 50) {
            throw new IllegalStateException("injected failure");
          }
          return label;
        };
    Dataset<Row> failing =
        SMALL
            .frame(3, false)
            .withColumn(
                "label",
                udf(failOnce, DataTypes.DoubleType).asNondeterministic().apply(col("label")));
    assertThat(lasso.fit(failing).coefficients().toArray())
        .containsExactly(clean.coefficients().toArray());
  }

  /**
   * As an executor lost with its cache: every cached partition of training is dropped after a few
   * rounds.
   */
  @Test
  void cachedRowsAndResidualsLostMidwayAreRebuiltToTheSameModel() {
    ScheduledLasso lasso = lasso().setMaxIter(120).setTol(0).setRefreshInterval(7);
    ScheduledLassoModel clean = lasso.fit(SMALL.frame(3, false));
    SparkContext sc = TrainingData.spark().sparkContext();
    AtomicInteger jobs = new AtomicInteger();
    AtomicInteger dropped = new AtomicInteger();
    SparkListener dropCache =
        new SparkListener() {
          @Override
          public void onJobEnd(SparkListenerJobEnd end) {
            if (jobs.incrementAndGet() % 5 == 0) {
              sc.getPersistentRDDs()
                  .values()
                  .foreach(
                      rdd -> {
                        if (rdd.name() != null && rdd.name().startsWith("ScheduledLasso")) {
                          rdd.unpersist(true);
                          dropped.incrementAndGet();
                        }
                        return null;
                      });
            }
          }
        };
    sc.addSparkListener(dropCache);
    ScheduledLassoModel rebuilt;
    try {
      rebuilt = lasso.fit(SMALL.frame(3, false));
    } finally {
      sc.removeSparkListener(dropCache);
    }
    assertThat(dropped.get()).as("cached RDDs dropped").isGreaterThan(3);
    assertThat(rebuilt.coefficients().toArray()).containsExactly(clean.coefficients().toArray());
    assertThat(rebuilt.summary().objectiveHistory())
        .containsExactly(clean.summary().objectiveHistory());
  }

  @Test
  void theObjectiveFallsAndTheSummarySaysHowFar() {
    ScheduledLassoModel model = lasso().setMaxIter(25).setTol(0).fit(SMALL.frame(2, false));
    ScheduledLassoSummary summary = model.summary();
    double[] objective = summary.objectiveHistory();
    assertThat(summary.totalIterations()).isEqualTo(25);
    assertThat(objective).hasSize(26);
    assertThat(objective[25]).isLessThan(objective[0] / 2);
    assertThat(summary.updatesHistory()[0]).isZero();
    assertThat(summary.updatesHistory()[25]).isBetween(25L, 25L * 32);
    assertThat(summary.secondsHistory()).isSorted();
    assertThat(summary.numRows()).isEqualTo(400);
    // the reported objective is the true one of the model's coefficients
    assertThat(objective[25]).isCloseTo(objectiveOf(model, SMALL, 0.05, 1.0), within(1e-9));
  }

  @Test
  void theDependencyCheckTurnsAwayCorrelatedCandidates() {
    Data strong = Data.correlated(400, 12, 0.9, 0, 3);
    ScheduledLassoModel model =
        lasso().setScheduleSize(6).setMaxIter(10).fit(strong.frame(2, false));
    assertThat(java.util.Arrays.stream(model.summary().rejectedPerRound()).max().orElse(0))
        .isPositive();
    ScheduledLassoModel priority =
        lasso()
            .setScheduler("priority")
            .setScheduleSize(6)
            .setMaxIter(10)
            .fit(strong.frame(2, false));
    assertThat(priority.summary().rejectedPerRound()).containsOnly(0);
    // the turned-away candidates are scheduled in the next rounds of the same pass over the data
    int[] passes = model.summary().passesHistory();
    assertThat(passes[passes.length - 1]).isLessThan(model.summary().totalIterations());
    assertThat(priority.summary().passesHistory()[10]).isEqualTo(10);
  }

  /**
   * Shotgun's failure STRADS fixes: all 12 correlated coefficients updated at once overshoot
   * together.
   */
  @Test
  void randomSchedulingOfCorrelatedCoefficientsDivergesWhereTheDependencyCheckConverges() {
    Data strong = Data.correlated(400, 12, 0.8, 0, 4);
    assertThatThrownBy(
            () ->
                lasso()
                    .setScheduler("random")
                    .setScheduleSize(12)
                    .setRegParam(0.01)
                    .fit(strong.frame(2, false)))
        .isInstanceOfSatisfying(
            LassoDivergenceException.class,
            e -> {
              double[] objective = e.summary().objectiveHistory();
              assertThat(objective[objective.length - 1])
                  .isGreaterThanOrEqualTo(1e6 * objective[0]);
            })
        .hasMessageContaining("Cannot train ScheduledLasso: the objective is")
        .hasMessageContaining(", 1000000.0 times or more that of zero coefficients")
        .hasMessageContaining("scheduler random, scheduleSize 12")
        .hasMessageContaining("use scheduler priority+dependency or a smaller scheduleSize");
    ScheduledLassoModel model =
        lasso().setScheduleSize(12).setRegParam(0.01).setTol(1e-8).fit(strong.frame(2, false));
    LassoReference reference = new LassoReference(strong.x(), strong.y(), 0.01, 1.0, true, true);
    double optimum = objectiveOf(reference.coefficients, reference.intercept, strong, 0.01, 1.0);
    assertThat(objectiveOf(model, strong, 0.01, 1.0)).isCloseTo(optimum, within(1e-7 * optimum));
  }

  static double objectiveOf(ScheduledLassoModel model, Data data, double lambda, double alpha) {
    return objectiveOf(model.coefficients().toArray(), model.intercept(), data, lambda, alpha);
  }

  static double objectiveOf(double[] b, double intercept, Data data, double lambda, double alpha) {
    int n = data.y().length;
    double rss = 0;
    for (int i = 0; i < n; i++) {
      double r = data.y()[i] - intercept;
      for (int j = 0; j < b.length; j++) {
        r -= data.x()[i][j] * b[j];
      }
      rss += r * r;
    }
    double l1 = 0;
    double l2 = 0;
    for (int j = 0; j < b.length; j++) {
      double mean = 0;
      for (double[] row : data.x()) {
        mean += row[j] / n;
      }
      double ss = 0;
      for (double[] row : data.x()) {
        ss += (row[j] - mean) * (row[j] - mean);
      }
      double scaled = Math.sqrt(ss / (n - 1)) * b[j];
      l1 += Math.abs(scaled);
      l2 += scaled * scaled;
    }
    return rss / (2 * n) + lambda * (alpha * l1 + (1 - alpha) / 2 * l2);
  }

  @Test
  void constantFeaturesLeaveTheInterceptAloneWithoutRunningRounds() {
    List<Row> rows =
        List.of(
            RowFactory.create(1.0, Vectors.dense(2, 0)),
            RowFactory.create(3.0, Vectors.dense(2, 0)),
            RowFactory.create(5.0, Vectors.dense(2, 0)));
    ScheduledLassoModel model =
        lasso().setTol(0).fit(TrainingData.spark().createDataFrame(rows, SCHEMA));
    assertThat(model.coefficients().toArray()).containsExactly(0.0, 0.0);
    assertThat(model.intercept()).isEqualTo(3.0);
    assertThat(model.summary().totalIterations()).isZero();
    assertThat(model.summary().passesHistory()).containsExactly(0);
  }

  // ---- bad input

  @Test
  void aNonFiniteLabelIsNamedWithItsColumn() {
    Dataset<Row> data =
        SMALL
            .frame(2, false)
            .withColumn(
                "label",
                org.apache
                    .spark
                    .sql
                    .functions
                    .when(col("label").gt(5), Double.NaN)
                    .otherwise(col("label")));
    assertThatThrownBy(() -> lasso().fit(data))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train ScheduledLasso: a row has label NaN in column 'label'; labels must be"
                + " finite numbers");
  }

  @Test
  void aNullLabelIsNamedWithItsColumn() {
    Dataset<Row> data =
        SMALL
            .frame(2, false)
            .withColumn(
                "y",
                org.apache
                    .spark
                    .sql
                    .functions
                    .when(col("label").gt(5), null)
                    .otherwise(col("label")));
    assertThatThrownBy(() -> lasso().setLabelCol("y").fit(data))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage("Cannot train ScheduledLasso: a row has a null label in column 'y'");
  }

  @Test
  void aNonFiniteFeatureIsNamedWithItsIndexAndColumn() {
    List<Row> rows =
        List.of(
            RowFactory.create(1.0, Vectors.dense(1, 2)),
            RowFactory.create(2.0, Vectors.dense(3, Double.POSITIVE_INFINITY)));
    Dataset<Row> data = TrainingData.spark().createDataFrame(rows, SCHEMA);
    assertThatThrownBy(() -> lasso().fit(data))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train ScheduledLasso: a row has feature 1 = Infinity in column 'features';"
                + " features must be finite numbers");
  }

  @Test
  void featureVectorsOfDifferentSizesAreRefused() {
    List<Row> rows =
        List.of(
            RowFactory.create(1.0, Vectors.dense(1, 2)), RowFactory.create(2.0, Vectors.dense(3)));
    Dataset<Row> data = TrainingData.spark().createDataFrame(rows, SCHEMA).coalesce(1);
    assertThatThrownBy(() -> lasso().fit(data))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(
            "Cannot train ScheduledLasso: features in column 'features' have size 1 in one row and"
                + " 2 in another");
  }

  @Test
  void anEmptyDatasetIsRefused() {
    Dataset<Row> data = SMALL.frame(2, false).limit(0);
    assertThatThrownBy(() -> lasso().fit(data))
        .isInstanceOf(InvalidTrainingDataException.class)
        .hasMessage("Cannot train ScheduledLasso: the dataset has no rows");
  }

  @Test
  void badParamValuesNameTheParamAndWhatIsAllowed() {
    ScheduledLasso lasso = new ScheduledLasso();
    assertThatThrownBy(() -> lasso.setScheduler("shotgun"))
        .hasMessage(
            "Cannot set param scheduler of "
                + lasso.uid()
                + " to 'shotgun': allowed values are"
                + " priority+dependency, priority, random");
    assertThatThrownBy(() -> lasso.setScheduleSize(-1))
        .hasMessageContaining("param scheduleSize")
        .hasMessageContaining("allowed values are integers >= 0, 0: automatic");
    assertThatThrownBy(() -> lasso.setCorrelationThreshold(1.5))
        .hasMessageContaining("param correlationThreshold")
        .hasMessageContaining("numbers in [0, 1]");
    assertThatThrownBy(() -> lasso.setCandidateFactor(0.5))
        .hasMessageContaining("param candidateFactor")
        .hasMessageContaining("numbers >= 1");
    assertThatThrownBy(() -> lasso.setPriorityFloor(0))
        .hasMessageContaining("param priorityFloor")
        .hasMessageContaining("numbers > 0");
    assertThatThrownBy(() -> lasso.setRegParam(-1)).hasMessageContaining("numbers >= 0");
    assertThatThrownBy(() -> lasso.setElasticNetParam(2)).hasMessageContaining("numbers in [0, 1]");
    assertThatThrownBy(() -> lasso.setRefreshInterval(0)).hasMessageContaining("integers >= 1");
  }

  @Test
  void theAutomaticScheduleSizeIsWhatItsDocSays() {
    // with the dependency check, no fixed L; without it, 32
    assertThat(ScheduledLassoParams.scheduleSizeFor(0, "priority+dependency")).isZero();
    assertThat(ScheduledLassoParams.scheduleSizeFor(0, "priority")).isEqualTo(32);
    assertThat(ScheduledLassoParams.scheduleSizeFor(0, "random")).isEqualTo(32);
    assertThat(ScheduledLassoParams.scheduleSizeFor(7, "priority+dependency")).isEqualTo(7);
    ScheduledLasso random = lasso().setScheduler("random").setMaxIter(15).setTol(0);
    assertThat(random.setScheduleSize(0).fit(SMALL.frame(2, false)).summary().objectiveHistory())
        .containsExactly(
            random.setScheduleSize(32).fit(SMALL.frame(2, false)).summary().objectiveHistory());
  }

  @Test
  void theAutomaticScheduleSizeSweepsEachPassAndStopsAtTheOptimum() {
    Data strong = Data.correlated(400, 12, 0.8, 0, 4);
    ScheduledLassoModel model = lasso().setRegParam(0.01).setTol(1e-9).fit(strong.frame(2, false));
    ScheduledLassoSummary summary = model.summary();
    int[] passes = summary.passesHistory();
    // a pass serves several sweeps over its candidates: many more rounds than passes
    assertThat(summary.totalIterations()).isGreaterThan(3 * passes[passes.length - 1]);
    // the dependency check still turns correlated candidates away from a round
    assertThat(java.util.Arrays.stream(summary.rejectedPerRound()).max().orElse(0)).isPositive();
    LassoReference reference = new LassoReference(strong.x(), strong.y(), 0.01, 1.0, true, true);
    double optimum = objectiveOf(reference.coefficients, reference.intercept, strong, 0.01, 1.0);
    assertThat(objectiveOf(model, strong, 0.01, 1.0)).isCloseTo(optimum, within(1e-7 * optimum));
  }

  @Test
  void defaultsAreTheDocumentedOnes() {
    ScheduledLasso lasso = new ScheduledLasso();
    assertThat(lasso.getScheduler()).isEqualTo("priority+dependency");
    assertThat(lasso.getScheduleSize())
        .isEqualTo(ScheduledLassoParams.DEFAULT_SCHEDULE_SIZE)
        .isEqualTo(ScheduledLassoParams.AUTO_SCHEDULE_SIZE)
        .isZero();
    assertThat(lasso.getPriorityFloor()).isEqualTo(1e-3);
    assertThat(lasso.getCorrelationThreshold()).isEqualTo(0.1);
    assertThat(lasso.getElasticNetParam()).isEqualTo(1.0);
    assertThat(lasso.getFitIntercept()).isTrue();
    assertThat(lasso.getStandardization()).isTrue();
  }

  // ---- MLlib

  @Test
  void modelAndEstimatorSurviveSaveAndLoad(@TempDir Path dir) throws Exception {
    ScheduledLasso lasso =
        lasso()
            .setMaxIter(50)
            .setScheduleSize(5)
            .setScheduler("priority")
            .setSeed(3)
            .setLabelCol("label")
            .setPredictionCol("yhat");
    ScheduledLassoModel model = lasso.fit(SMALL.frame(2, false));
    model.write().save(dir.resolve("model").toString());
    ScheduledLassoModel loaded = ScheduledLassoModel.load(dir.resolve("model").toString());
    assertThat(loaded.uid()).isEqualTo(model.uid());
    assertThat(loaded.coefficients()).isEqualTo(model.coefficients());
    assertThat(loaded.intercept()).isEqualTo(model.intercept());
    assertThat(loaded.getPredictionCol()).isEqualTo("yhat");
    assertThat(loaded.getScheduler()).isEqualTo("priority");
    assertThat(loaded.hasSummary()).isFalse();
    assertThatThrownBy(loaded::summary)
        .hasMessageContaining("Cannot get the training summary of " + model.uid());
    assertThat(loaded.transform(SMALL.frame(2, false)).select("yhat").collectAsList())
        .isEqualTo(model.transform(SMALL.frame(2, false)).select("yhat").collectAsList());
    lasso.write().save(dir.resolve("estimator").toString());
    ScheduledLasso again = ScheduledLasso.load(dir.resolve("estimator").toString());
    assertThat(again.extractParamMap().toString()).isEqualTo(lasso.extractParamMap().toString());
  }

  @Test
  void worksInAPipelineWithVectorAssemblerAndCrossValidator(@TempDir Path dir) throws Exception {
    Dataset<Row> columns = TrainingData.linearColumns(600, 5, 41, 2);
    Pipeline pipeline =
        new Pipeline()
            .setStages(
                new PipelineStage[] {
                  new VectorAssembler()
                      .setInputCols(TrainingData.featureNames(5))
                      .setOutputCol("features"),
                  new ScheduledLasso().setMaxIter(200).setScheduleSize(2)
                });
    ScheduledLasso lasso = (ScheduledLasso) pipeline.getStages()[1];
    ParamMap[] grid =
        new ParamGridBuilder().addGrid(lasso.regParam(), new double[] {0.001, 1.0}).build();
    CrossValidator cv =
        new CrossValidator()
            .setEstimator(pipeline)
            .setEstimatorParamMaps(grid)
            .setEvaluator(new RegressionEvaluator())
            .setNumFolds(2)
            .setSeed(5);
    CrossValidatorModel fitted = cv.fit(columns);
    assertThat(fitted.avgMetrics()[0])
        .as("rmse of the weak penalty")
        .isLessThan(fitted.avgMetrics()[1]);
    PipelineModel best = (PipelineModel) fitted.bestModel();
    best.write().save(dir.resolve("pipeline").toString());
    PipelineModel loaded = PipelineModel.load(dir.resolve("pipeline").toString());
    assertThat(loaded.transform(columns).select("prediction").collectAsList())
        .isEqualTo(best.transform(columns).select("prediction").collectAsList());
  }
}
