package io.corgipile.ml;

import static org.apache.spark.sql.functions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.corgipile.SharedSpark;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.Predictor;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every way training data can be unusable gives an {@link InvalidTrainingDataException} on the
 * driver whose message names the estimator, the column and the value; {@code handleInvalid=skip}
 * leaves invalid rows out as if they were never there. Also the models' own errors: features of the
 * wrong size, and a summary they do not have.
 */
class TrainingErrorsTest {
  private static final int NUM_FEATURES = 4;
  private static final StructType SCHEMA =
      new StructType()
          .add("features", SQLDataTypes.VectorType(), true)
          .add("label", DataTypes.DoubleType, true)
          .add("weight", DataTypes.DoubleType, true);
  private static final String SKIP_HINT = "; set handleInvalid to 'skip' to leave such rows out";

  /** The two estimators, so a case shared by both runs against each. */
  enum Task {
    CLASSIFIER("SGDClassifier"),
    REGRESSOR("SGDRegressor");

    final String estimatorName;

    Task(String estimatorName) {
      this.estimatorName = estimatorName;
    }

    /**
     * The classifier is binomial, so labels 2 and 3 are invalid rows (MultinomialTest has those of
     * K classes).
     */
    Predictor<Vector, ?, ?> newEstimator() {
      return this == CLASSIFIER ? new SGDClassifier().setFamily("binomial") : new SGDRegressor();
    }

    /**
     * The label of valid features {@code x}: 0 or 1 for the classifier, a linear function of x for
     * the regressor.
     */
    double label(double[] x) {
      double margin = 0.8 * x[0] - 0.5 * x[1] + 0.3 * x[3] + 0.1;
      return this == CLASSIFIER ? (margin > 0 ? 1.0 : 0.0) : margin;
    }
  }

  /** What training returned, read off either model. */
  record Fitted(double[] coefficients, double intercept, SGDTrainingSummary summary) {
    static Fitted of(Model<?> model) {
      if (model instanceof SGDClassificationModel m) {
        return new Fitted(m.coefficients().toArray(), m.intercept(), m.summary());
      }
      SGDRegressionModel m = (SGDRegressionModel) model;
      return new Fitted(m.coefficients().toArray(), m.intercept(), m.summary());
    }

    /** The raw bits of the coefficients and the intercept, to compare models bit for bit. */
    long[] bits() {
      long[] bits = new long[coefficients.length + 1];
      for (int j = 0; j < coefficients.length; j++) {
        bits[j] = Double.doubleToRawLongBits(coefficients[j]);
      }
      bits[coefficients.length] = Double.doubleToRawLongBits(intercept);
      return bits;
    }
  }

  // ---- fixtures -------------------------------------------------------------------------------

  private static Row row(Vector features, Double label, Double weight) {
    return RowFactory.create(features, label, weight);
  }

  private static Row row(Vector features, Double label) {
    return row(features, label, 1.0);
  }

  /** The valid features of row {@code i}: small values in [-1, 1], every third row sparse. */
  private static Vector features(int i) {
    double[] x = new double[NUM_FEATURES];
    for (int j = 0; j < NUM_FEATURES; j++) {
      x[j] = ((i * 7 + j * 3) % 11 - 5) / 5.0;
    }
    return i % 3 == 0 ? Vectors.dense(x).toSparse() : Vectors.dense(x);
  }

  /**
   * {@code n} valid rows of {@code task}, numbered from {@code first}, with weights 1, 2 and 3 in
   * turn.
   */
  private static List<Row> validRows(Task task, int first, int n) {
    List<Row> rows = new ArrayList<>();
    for (int i = first; i < first + n; i++) {
      Vector x = features(i);
      rows.add(row(x, task.label(x.toArray()), 1.0 + i % 3));
    }
    return rows;
  }

  /** {@code rows} with {@code inserted} put in at {@code position}. */
  private static List<Row> insert(List<Row> rows, int position, List<Row> inserted) {
    List<Row> all = new ArrayList<>(rows);
    all.addAll(position, inserted);
    return all;
  }

  /**
   * {@code valid} with {@code invalid} spread among them: one before each valid row, and the last
   * after them all.
   */
  private static List<Row> spread(List<Row> valid, List<Row> invalid) {
    List<Row> all = new ArrayList<>();
    Iterator<Row> bad = invalid.subList(0, invalid.size() - 1).iterator();
    for (Row row : valid) {
      if (bad.hasNext()) {
        all.add(bad.next());
      }
      all.add(row);
    }
    bad.forEachRemaining(all::add);
    all.add(invalid.get(invalid.size() - 1));
    return all;
  }

  /**
   * One partition per list, each in its list's order, so the layout is the same on every run. (A
   * union of DataFrames made from lists is planned as one local relation: one partition.)
   */
  private static Dataset<Row> partition(List<Row> rows) {
    return partitions(List.of(rows));
  }

  private static Dataset<Row> partitions(List<List<Row>> partitions) {
    List<List<Row>> layout = partitions.stream().map(List::copyOf).toList(); // serializable copies
    JavaRDD<Row> rows =
        JavaSparkContext.fromSparkContext(SharedSpark.get().sparkContext())
            .parallelize(IntStream.range(0, layout.size()).boxed().toList(), layout.size())
            .flatMap(p -> layout.get(p).iterator());
    Dataset<Row> data = SharedSpark.get().createDataFrame(rows, SCHEMA);
    assertThat(data.javaRDD().getNumPartitions())
        .as("partitions of the fixture")
        .isEqualTo(layout.size());
    return data;
  }

  // ---- training -------------------------------------------------------------------------------

  /**
   * Few epochs, none cut short by tol, so every test is quick and trains the same epochs every
   * time.
   */
  private static final Map<String, Object> COMMON =
      Map.of("maxIter", 3, "tol", 0.0, "stepSize", 0.1);

  private static Predictor<Vector, ?, ?> estimator(Task task, Map<String, Object> settings) {
    Predictor<Vector, ?, ?> estimator = task.newEstimator();
    Params params = estimator;
    COMMON.forEach((name, value) -> params.set(params.getParam(name), value));
    settings.forEach((name, value) -> params.set(params.getParam(name), value));
    return estimator;
  }

  private static Fitted fit(Task task, Dataset<Row> data, Map<String, Object> settings) {
    return Fitted.of(estimator(task, settings).fit(data));
  }

  private static void assertFitFails(
      Task task, Dataset<Row> data, Map<String, Object> settings, String message) {
    assertFails(
        () -> fit(task, data, settings), "Cannot train " + task.estimatorName + ": " + message);
  }

  /**
   * Fails on the driver as InvalidTrainingDataException with exactly {@code message}, however Spark
   * wrapped it.
   */
  private static void assertFails(ThrowingCallable training, String message) {
    assertThatThrownBy(training)
        .isExactlyInstanceOf(InvalidTrainingDataException.class)
        .hasMessage(message);
  }

  private static Map<String, Object> with(Map<String, Object> settings, String name, Object value) {
    Map<String, Object> all = new HashMap<>(settings);
    all.put(name, value);
    return all;
  }

  private static Map<String, Object> skip(Map<String, Object> settings) {
    return with(settings, "handleInvalid", "skip");
  }

  private static final Map<String, Object> WEIGHTED = Map.of("weightCol", "weight");

  // ---- invalid rows ---------------------------------------------------------------------------

  private static final int VALID = 12;
  private static final int BAD_AT = 5;

  private static Vector denseWith(int index, double value) {
    double[] x = features(1).toArray();
    x[index] = value;
    return Vectors.dense(x);
  }

  private static Vector sparseWith(int index, double value) {
    return Vectors.sparse(NUM_FEATURES, new int[] {0, index}, new double[] {0.5, value});
  }

  /**
   * One invalid row, for one task or both, and what the error says about it (before the skip hint).
   */
  private record Invalid(
      String name, List<Task> tasks, boolean weighted, Row row, String problem) {}

  private static final List<Task> BOTH = List.of(Task.CLASSIFIER, Task.REGRESSOR);

  private static final List<Invalid> INVALID_ROWS =
      List.of(
          new Invalid(
              "label 2",
              List.of(Task.CLASSIFIER),
              false,
              row(features(1), 2.0),
              "a row has label 2.0 in column 'label'; allowed labels are 0 and 1"),
          new Invalid(
              "label -1",
              List.of(Task.CLASSIFIER),
              false,
              row(features(1), -1.0),
              "a row has label -1.0 in column 'label'; allowed labels are 0 and 1"),
          new Invalid(
              "label 0.5",
              List.of(Task.CLASSIFIER),
              false,
              row(features(1), 0.5),
              "a row has label 0.5 in column 'label'; allowed labels are 0 and 1"),
          new Invalid(
              "label NaN",
              List.of(Task.CLASSIFIER),
              false,
              row(features(1), Double.NaN),
              "a row has label NaN in column 'label'; allowed labels are 0 and 1"),
          new Invalid(
              "label NaN",
              List.of(Task.REGRESSOR),
              false,
              row(features(1), Double.NaN),
              "a row has label NaN in column 'label'; labels must be finite"),
          new Invalid(
              "label -Infinity",
              List.of(Task.REGRESSOR),
              false,
              row(features(1), Double.NEGATIVE_INFINITY),
              "a row has label -Infinity in column 'label'; labels must be finite"),
          new Invalid(
              "null label",
              BOTH,
              false,
              row(features(1), null),
              "a row has a null label in column 'label'"),
          new Invalid(
              "null features",
              BOTH,
              false,
              row(null, 1.0),
              "a row has null features in column 'features'"),
          new Invalid(
              "dense NaN feature",
              BOTH,
              false,
              row(denseWith(2, Double.NaN), 1.0),
              "a row has feature 2 = NaN in column 'features'"),
          new Invalid(
              "dense Infinity feature",
              BOTH,
              false,
              row(denseWith(1, Double.POSITIVE_INFINITY), 1.0),
              "a row has feature 1 = Infinity in column 'features'"),
          new Invalid(
              "sparse NaN feature",
              BOTH,
              false,
              row(sparseWith(3, Double.NaN), 1.0),
              "a row has feature 3 = NaN in column 'features'"),
          new Invalid(
              "sparse -Infinity feature",
              BOTH,
              false,
              row(sparseWith(2, Double.NEGATIVE_INFINITY), 0.0),
              "a row has feature 2 = -Infinity in column 'features'"),
          new Invalid(
              "null weight",
              BOTH,
              true,
              row(features(1), 1.0, null),
              "a row has a null weight in column 'weight'"),
          new Invalid(
              "negative weight",
              BOTH,
              true,
              row(features(1), 1.0, -1.0),
              "a row has weight -1.0 in column 'weight'; weights must be finite and >= 0"),
          new Invalid(
              "NaN weight",
              BOTH,
              true,
              row(features(1), 1.0, Double.NaN),
              "a row has weight NaN in column 'weight'; weights must be finite and >= 0"),
          new Invalid(
              "infinite weight",
              BOTH,
              true,
              row(features(1), 1.0, Double.POSITIVE_INFINITY),
              "a row has weight Infinity in column 'weight'; weights must be finite and >= 0"));

  static Stream<Arguments> invalidRows() {
    return INVALID_ROWS.stream()
        .flatMap(c -> c.tasks().stream().map(task -> argumentSet(task + ": " + c.name(), task, c)));
  }

  private static Map<String, Object> settingsFor(Invalid c) {
    return c.weighted() ? WEIGHTED : Map.of();
  }

  /** The valid rows with the invalid one among them, in one partition. */
  private static Dataset<Row> withInvalid(Task task, Invalid c) {
    return partition(insert(validRows(task, 0, VALID), BAD_AT, List.of(c.row())));
  }

  /** Models trained on the valid rows alone, per task and weighting: the reference for skip. */
  private static final Map<String, Fitted> VALID_ONLY = new ConcurrentHashMap<>();

  private static Fitted validOnly(Task task, Map<String, Object> settings) {
    return VALID_ONLY.computeIfAbsent(
        task + " " + settings, k -> fit(task, partition(validRows(task, 0, VALID)), settings));
  }

  @ParameterizedTest
  @MethodSource("invalidRows")
  void anInvalidRowFailsTrainingWithItsProblemAndTheSkipHint(Task task, Invalid c) {
    assertFitFails(task, withInvalid(task, c), settingsFor(c), c.problem() + SKIP_HINT);
  }

  @ParameterizedTest
  @MethodSource("invalidRows")
  void skipLeavesAnInvalidRowOutAsIfItWereNotThere(Task task, Invalid c) {
    Fitted skipped = fit(task, withInvalid(task, c), skip(settingsFor(c)));
    Fitted reference = validOnly(task, settingsFor(c));

    assertThat(skipped.summary().skippedRows()).isEqualTo(1);
    assertThat(skipped.summary().rowsPerEpoch()).containsExactly(VALID, VALID, VALID);
    assertThat(reference.coefficients())
        .as("a model that learned something")
        .isNotEqualTo(new double[NUM_FEATURES]);
    assertThat(skipped.bits()).isEqualTo(reference.bits());
  }

  @ParameterizedTest
  @EnumSource(Task.class)
  void skipLeavesOutEveryKindOfInvalidRowInEveryPartition(Task task) {
    List<Row> invalid =
        INVALID_ROWS.stream().filter(c -> c.tasks().contains(task)).map(Invalid::row).toList();
    int half = invalid.size() / 2;
    List<Row> first = validRows(task, 0, 10);
    List<Row> second = validRows(task, 10, 10);
    Dataset<Row> mixed =
        partitions(
            List.of(
                spread(first, invalid.subList(0, half)),
                spread(second, invalid.subList(half, invalid.size()))));

    Fitted skipped = fit(task, mixed, skip(WEIGHTED));
    Fitted reference = fit(task, partitions(List.of(first, second)), WEIGHTED);

    assertThat(skipped.summary().skippedRows()).isEqualTo(invalid.size());
    assertThat(skipped.summary().rowsPerEpoch()).containsExactly(20, 20, 20);
    assertThat(skipped.bits()).isEqualTo(reference.bits());
  }

  private static Row invalidRow(String name) {
    return INVALID_ROWS.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().row();
  }

  /**
   * A schedule whose rates depend on the mean number of updates per partition in earlier epochs.
   */
  private static final Map<String, Object> INVSQRT = Map.of("stepSchedule", "invsqrt");

  /**
   * The {@code invsqrt} schedule takes the mean number of updates per partition from the epochs
   * before: a partition with no rows made no updates and must not pull that mean down.
   */
  @Test
  void anEmptyPartitionDoesNotChangeTheModel() {
    List<Row> first = validRows(Task.CLASSIFIER, 0, 10);
    List<Row> second = validRows(Task.CLASSIFIER, 10, 10);
    Fitted withEmpty = fit(Task.CLASSIFIER, partitions(List.of(first, List.of(), second)), INVSQRT);
    Fitted without = fit(Task.CLASSIFIER, partitions(List.of(first, second)), INVSQRT);
    assertThat(withEmpty.bits()).isEqualTo(without.bits());
  }

  /**
   * With skip, a partition whose rows are all invalid is an empty partition, whatever made them
   * invalid.
   */
  @ParameterizedTest
  @ValueSource(strings = {"label 2", "null features", "dense NaN feature", "sparse NaN feature"})
  void skipTreatsAPartitionOfInvalidRowsOnlyAsAnEmptyOne(String kind) {
    Row bad = invalidRow(kind);
    List<Row> first = validRows(Task.CLASSIFIER, 0, 10);
    List<Row> second = validRows(Task.CLASSIFIER, 10, 10);

    Fitted skipped =
        fit(
            Task.CLASSIFIER,
            partitions(List.of(first, List.of(bad, bad, bad), second)),
            skip(INVSQRT));
    Fitted empty = fit(Task.CLASSIFIER, partitions(List.of(first, List.of(), second)), INVSQRT);

    assertThat(skipped.summary().skippedRows()).isEqualTo(3);
    assertThat(skipped.bits()).isEqualTo(empty.bits());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "label 2",
        "null label",
        "null features",
        "dense NaN feature",
        "sparse -Infinity feature"
      })
  void skippingEveryRowLeavesNoRowsAndSaysHowManyWereSkipped(String kind) {
    Row bad = invalidRow(kind);
    Dataset<Row> data = partitions(List.of(List.of(bad, bad), List.of(bad)));
    assertFitFails(
        Task.CLASSIFIER,
        data,
        Map.of("handleInvalid", "skip"),
        "the dataset has no rows left after skipping 3 invalid rows");
  }

  @Test
  void messagesNameTheConfiguredColumns() {
    Dataset<Row> renamed =
        partition(
                insert(
                    validRows(Task.CLASSIFIER, 0, VALID), BAD_AT, List.of(row(features(1), 3.0))))
            .toDF("x", "y", "w");
    assertFails(
        () ->
            new SGDClassifier()
                .setFamily("binomial")
                .setFeaturesCol("x")
                .setLabelCol("y")
                .setMaxIter(1)
                .fit(renamed),
        "Cannot train SGDClassifier: a row has label 3.0 in column 'y'; allowed labels are 0 and 1"
            + SKIP_HINT);

    Dataset<Row> nullFeatures =
        partition(
                insert(validRows(Task.REGRESSOR, 0, VALID), BAD_AT, List.of(row(null, 1.0, -2.0))))
            .toDF("x", "y", "w");
    assertFails(
        () ->
            new SGDRegressor()
                .setFeaturesCol("x")
                .setLabelCol("y")
                .setWeightCol("w")
                .setMaxIter(1)
                .fit(nullFeatures),
        "Cannot train SGDRegressor: a row has null features in column 'x'" + SKIP_HINT);
  }

  // ---- the dataset as a whole -----------------------------------------------------------------

  static Stream<Arguments> featureSizeMismatches() {
    List<Row> three = List.of(row(Vectors.dense(1, 2, 3), 1.0), row(Vectors.dense(0, 1, 0), 0.0));
    List<Row> five =
        List.of(
            row(Vectors.sparse(5, new int[] {4}, new double[] {1}), 1.0),
            row(Vectors.dense(1, 0, 0, 0, 1), 0.0));
    List<Row> mixed = new ArrayList<>(three);
    mixed.addAll(five);
    return Stream.of("error", "skip")
        .flatMap(
            handleInvalid ->
                Stream.of(
                    argumentSet(
                        "within a partition, handleInvalid=" + handleInvalid,
                        List.of(mixed),
                        handleInvalid),
                    argumentSet(
                        "across partitions, handleInvalid=" + handleInvalid,
                        List.of(three, five),
                        handleInvalid)));
  }

  /**
   * Even with skip: rows of another size are not invalid rows but a dataset that does not fit one
   * model.
   */
  @ParameterizedTest
  @MethodSource("featureSizeMismatches")
  void featuresOfDifferentSizesFailTrainingNamingBothSizes(
      List<List<Row>> layout, String handleInvalid) {
    Dataset<Row> data = partitions(layout);
    for (Task task : Task.values()) {
      assertFitFails(
          task,
          data,
          Map.of("handleInvalid", handleInvalid),
          "features in column 'features' have size 5 in one row and 3 in another");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"error", "skip"})
  void anEmptyDatasetFailsTraining(String handleInvalid) {
    Dataset<Row> empty = SharedSpark.get().createDataFrame(List.of(), SCHEMA);
    for (Task task : Task.values()) {
      assertFitFails(
          task, empty, Map.of("handleInvalid", handleInvalid), "the dataset has no rows");
    }
  }

  @ParameterizedTest
  @EnumSource(Task.class)
  void aMissingWeightColFailsTrainingNamingTheColumns(Task task) {
    assertFitFails(
        task,
        partition(validRows(task, 0, VALID)),
        Map.of("weightCol", "w"),
        "weightCol 'w' is not a column; the columns are [features, label, weight]");
  }

  @ParameterizedTest
  @EnumSource(Task.class)
  void aNonNumericWeightColFailsTrainingNamingItsType(Task task) {
    Dataset<Row> data = partition(validRows(task, 0, VALID)).withColumn("w", lit("1.0"));
    assertFitFails(
        task, data, Map.of("weightCol", "w"), "weightCol 'w' has type string; it must be numeric");
  }

  @ParameterizedTest
  @EnumSource(Task.class)
  void weightsThatSumToZeroFailTraining(Task task) {
    List<Row> zero =
        validRows(task, 0, VALID).stream().map(r -> row(r.getAs(0), r.getDouble(1), 0.0)).toList();
    assertFitFails(
        task,
        partitions(List.of(zero.subList(0, 5), zero.subList(5, VALID))),
        WEIGHTED,
        "the weights in column 'weight' sum to 0.0; at least one row needs a positive weight");
  }

  /**
   * Large unscaled features and a huge constant step: squared-loss SGD overflows within the first
   * epoch.
   */
  private static Dataset<Row> unscaled() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      rows.add(row(Vectors.dense(1000 + i, 5000 - 3 * i), 10.0 * i));
    }
    return partition(rows);
  }

  private static final Map<String, Object> HUGE_STEP =
      Map.of("stepSize", 1e6, "stepSchedule", "constant");

  /** A finite label so large that its squared loss is infinite while every margin stays finite. */
  private static Dataset<Row> hugeLabel() {
    return partition(List.of(row(Vectors.dense(1, 0), 1e200)));
  }

  static Stream<Arguments> divergences() {
    return Stream.of("error", "skip")
        .flatMap(
            handleInvalid ->
                Stream.of(
                    argumentSet(
                        "a margin overflows, handleInvalid=" + handleInvalid,
                        unscaled(),
                        with(HUGE_STEP, "handleInvalid", handleInvalid),
                        "the model diverged in epoch \\d+ \\(a margin of (-?Infinity|NaN)\\); lower"
                            + " stepSize \\(now 1000000.0\\) or scale the labels"),
                    argumentSet(
                        "a margin overflows without standardization, handleInvalid="
                            + handleInvalid,
                        unscaled(),
                        with(
                            with(HUGE_STEP, "handleInvalid", handleInvalid),
                            "standardization",
                            false),
                        "the model diverged in epoch \\d+ \\(a margin of (-?Infinity|NaN)\\); lower"
                            + " stepSize \\(now 1000000.0\\) or set standardization to true and"
                            + " scale the labels"),
                    argumentSet(
                        "the objective overflows, handleInvalid=" + handleInvalid,
                        hugeLabel(),
                        Map.of("handleInvalid", handleInvalid, "maxIter", 1),
                        "the objective became \\S+ in epoch \\d+; lower stepSize \\(now 0.1\\) or"
                            + " scale the labels")));
  }

  /** Divergence is never an invalid row: skip does not hide it. */
  @ParameterizedTest
  @MethodSource("divergences")
  void aDivergedModelFailsTrainingNamingStepSize(
      Dataset<Row> data, Map<String, Object> settings, String problem) {
    assertThatThrownBy(() -> fit(Task.REGRESSOR, data, settings))
        .isExactlyInstanceOf(InvalidTrainingDataException.class)
        .message()
        .matches("Cannot train SGDRegressor: " + problem);
  }

  /**
   * With regParam 0 the penalty is 0, however large the coefficients: an infinite loss makes an
   * infinite objective, not NaN (0 times an overflowed sum of squares).
   */
  @Test
  void anInfiniteLossWithoutRegularizationIsAnInfiniteObjective() {
    assertThatThrownBy(() -> fit(Task.REGRESSOR, hugeLabel(), Map.of("maxIter", 1)))
        .isExactlyInstanceOf(InvalidTrainingDataException.class)
        .message()
        .startsWith("Cannot train SGDRegressor: the objective became Infinity in epoch ");
  }

  /**
   * The job description and the log count epochs from 1 ("SGDRegressor epoch 1/3"): so should the
   * error.
   */
  @Test
  void aDivergedModelNamesTheEpochAsTheLogDoes() {
    assertThatThrownBy(() -> fit(Task.REGRESSOR, unscaled(), HUGE_STEP))
        .isExactlyInstanceOf(InvalidTrainingDataException.class)
        .message()
        .containsPattern("in epoch 1\\b");
  }

  // ---- the models -----------------------------------------------------------------------------

  private static final Vector TWO = Vectors.dense(0.5, -1.0);
  private static final String WRONG_SIZE =
      "the features have size 3 but the model was trained on 2 features";

  @Test
  void predictingOnFeaturesOfTheWrongSizeNamesBothSizes() {
    SGDClassificationModel classifier = new SGDClassificationModel("clf", TWO, 0.1);
    SGDRegressionModel regressor = new SGDRegressionModel("reg", TWO, 0.1);
    Vector three = Vectors.dense(1, 2, 3);
    String clf = "Cannot predict with clf: " + WRONG_SIZE;
    for (ThrowingCallable call :
        List.<ThrowingCallable>of(
            () -> classifier.predict(three),
            () -> classifier.predictRaw(three),
            () -> classifier.predictProbability(three))) {
      assertThatThrownBy(call).isExactlyInstanceOf(IllegalArgumentException.class).hasMessage(clf);
    }
    assertThatThrownBy(() -> regressor.predict(Vectors.sparse(3, new int[] {2}, new double[] {1})))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot predict with reg: " + WRONG_SIZE);
  }

  @Test
  void transformingFeaturesOfTheWrongSizeFailsWithTheModelsMessage() {
    Dataset<Row> three = partition(List.of(row(Vectors.dense(1, 2, 3), 1.0)));
    SGDClassificationModel classifier = new SGDClassificationModel("clf", TWO, 0.1);
    SGDRegressionModel regressor = new SGDRegressionModel("reg", TWO, 0.1);
    assertThatThrownBy(() -> classifier.transform(three).collectAsList())
        .rootCause()
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot predict with clf: " + WRONG_SIZE);
    assertThatThrownBy(() -> regressor.transform(three).collectAsList())
        .rootCause()
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot predict with reg: " + WRONG_SIZE);
  }

  private static String noSummary(String uid) {
    return "Cannot get the training summary of "
        + uid
        + ": only a model returned by fit has one; a loaded or created model does not";
  }

  @Test
  void aCreatedModelHasNoSummary() {
    SGDClassificationModel classifier = new SGDClassificationModel("clf", TWO, 0.1);
    SGDRegressionModel regressor = new SGDRegressionModel("reg", TWO, 0.1);
    assertThat(classifier.hasSummary()).isFalse();
    assertThat(regressor.hasSummary()).isFalse();
    assertThatThrownBy(classifier::summary)
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(noSummary("clf"));
    assertThatThrownBy(regressor::summary)
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(noSummary("reg"));
  }

  @ParameterizedTest
  @EnumSource(Task.class)
  void aLoadedModelHasNoSummary(Task task, @TempDir Path dir) throws Exception {
    Model<?> trained = estimator(task, Map.of()).fit(partition(validRows(task, 0, VALID)));
    assertThat(Fitted.of(trained).summary().totalIterations()).isEqualTo(3);
    String path = dir.resolve("model").toString();
    ((org.apache.spark.ml.util.MLWritable) trained).save(path);

    Model<?> loaded =
        task == Task.CLASSIFIER ? SGDClassificationModel.load(path) : SGDRegressionModel.load(path);
    assertThat(loaded.uid()).isEqualTo(trained.uid());
    assertThatThrownBy(() -> Fitted.of(loaded))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessage(noSummary(trained.uid()));
  }
}
