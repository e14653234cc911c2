package io.corgipile.ml.sgd;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.common.FitFailures;
import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.ml.param.ParamSpec;
import io.corgipile.shuffle.SyncInterval;
import java.io.Serializable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.ml.param.Param;

/**
 * The settings of one training run, read once from an estimator's params and shipped to the
 * executors: every param's value by its {@link ParamSpec} ({@link #get}), what the run derives from
 * them (read on every update, so computed once here), and what the estimator adds: the columns, the
 * classes and the loss.
 */
public final class SGDConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** stepSize's name: its spec differs by estimator (its default). */
  private static final String STEP_SIZE = "stepSize";

  private final SGDTask task;
  private final String featuresCol;
  private final String labelCol;
  private final int numClasses;
  private final MarginsLoss loss;
  private final Map<String, Object> values;
  private final Set<String> set;
  private final double stepSize;
  private final StepSchedule schedule;
  private final double l1;
  private final double l2;
  private final boolean skipInvalid;
  private final DeltaCompression deltaCompression;
  private final SyncInterval syncInterval;

  private SGDConfig(
      SGDTask task,
      String featuresCol,
      String labelCol,
      int numClasses,
      MarginsLoss loss,
      Map<String, Object> values,
      Set<String> set) {
    this.task = task;
    this.featuresCol = featuresCol;
    this.labelCol = labelCol;
    this.numClasses = numClasses;
    this.loss = loss;
    this.values = values;
    this.set = set;
    stepSize = (Double) values.get(STEP_SIZE);
    schedule = StepSchedule.of(get(SGDParams.STEP_SCHEDULE));
    double reg = get(SGDParams.REG_PARAM);
    double l1Share = get(SGDParams.ELASTIC_NET_PARAM);
    l1 = reg * l1Share;
    l2 = reg * (1 - l1Share);
    skipInvalid = get(SGDParams.HANDLE_INVALID).equals(SGDParams.HANDLE_INVALID_SKIP);
    deltaCompression = DeltaCompression.of(get(SGDParams.DELTA_COMPRESSION));
    syncInterval = SyncInterval.parse(get(SGDParams.SYNC_INTERVAL));
  }

  /**
   * @param featuresCol the vector column, trained on when {@code featuresCols} is empty
   * @param numClasses the classes labels name, 0..numClasses-1; 0 for regression
   * @param loss one margin's loss, or {@link Softmax} over one margin per class
   */
  public static SGDConfig of(
      SGDParams params,
      SGDTask task,
      String featuresCol,
      String labelCol,
      int numClasses,
      MarginsLoss loss) {
    Map<String, Object> values = new HashMap<>();
    Set<String> set = new HashSet<>();
    for (Param<?> param : params.params()) {
      if (params.isDefined(param)) {
        values.put(param.name(), params.getOrDefault(param));
      }
      if (params.isSet(param)) {
        set.add(param.name());
      }
    }
    return new SGDConfig(task, featuresCol, labelCol, numClasses, loss, values, set);
  }

  /** The value of {@code spec}'s param, set or default. */
  @SuppressWarnings("unchecked")
  public <T> T get(ParamSpec<T> spec) {
    return (T) values.get(spec.name());
  }

  /** Whether the user set {@code spec}'s param, rather than left its default. */
  public boolean isSet(ParamSpec<?> spec) {
    return set.contains(spec.name());
  }

  public SGDTask task() {
    return task;
  }

  /** The vector column, trained on when {@code featuresCols} is empty. */
  public String featuresCol() {
    return featuresCol;
  }

  public String labelCol() {
    return labelCol;
  }

  /** The classes labels name, 0..numClasses-1; 0 for regression. */
  public int numClasses() {
    return numClasses;
  }

  /** One margin's loss, or {@link Softmax} over one margin per class. */
  public MarginsLoss loss() {
    return loss;
  }

  /**
   * The initial learning rate: the user's, the one {@link StepCalibration} chose, or the default.
   */
  public double stepSize() {
    return stepSize;
  }

  /**
   * Whether {@code stepSize} was chosen (by the user or by calibration); if not, calibration picks
   * it.
   */
  public boolean stepSizeSet() {
    return set.contains(STEP_SIZE);
  }

  public StepSchedule schedule() {
    return schedule;
  }

  /** The L1 strength, {@code regParam * elasticNetParam}. */
  public double l1() {
    return l1;
  }

  /** The L2 strength, {@code regParam * (1 - elasticNetParam)}. */
  public double l2() {
    return l2;
  }

  /** Whether invalid rows are left out (counted) rather than failing the fit. */
  public boolean skipInvalid() {
    return skipInvalid;
  }

  public DeltaCompression deltaCompression() {
    return deltaCompression;
  }

  /**
   * Whether partitions send compressed deltas with error feedback, so each round returns a residual
   * the driver sends back with the partition's next round.
   */
  public boolean errorFeedback() {
    return deltaCompression != DeltaCompression.NONE && get(SGDParams.ERROR_FEEDBACK);
  }

  public SyncInterval syncInterval() {
    return syncInterval;
  }

  /** The order's seed for the corgipile source, or null to leave the source's own. */
  public Long seed() {
    return isSet(SGDParams.SEED) ? get(SGDParams.SEED) : null;
  }

  /** The numeric feature columns, or empty to train on the vector column {@code featuresCol}. */
  public String[] featuresCols() {
    return get(SGDParams.FEATURES_COLS);
  }

  /** The weight column, or empty for weight 1. */
  public String weightCol() {
    return get(SGDParams.WEIGHT_COL);
  }

  /** The linear models trained side by side: one per class for multinomial, else one. */
  public int numMargins() {
    return loss.numMargins();
  }

  /** These settings with {@code stepSize} chosen. */
  public SGDConfig withStepSize(double step) {
    Map<String, Object> chosen = new HashMap<>(values);
    chosen.put(STEP_SIZE, step);
    Set<String> nowSet = new HashSet<>(set);
    nowSet.add(STEP_SIZE);
    return new SGDConfig(task, featuresCol, labelCol, numClasses, loss, chosen, nowSet);
  }

  /** The regularization term of the objective: {@code l1 |w|_1 + l2 |w|^2 / 2}. */
  public double penalty(double[] w) {
    double sumAbs = 0;
    double sumSquares = 0;
    for (double x : w) {
      sumAbs += Math.abs(x);
      sumSquares += x * x;
    }
    // a zero strength adds nothing, even when the sums have overflowed
    return (l1 > 0 ? l1 * sumAbs : 0) + (l2 > 0 ? l2 * sumSquares / 2 : 0);
  }

  /**
   * Whether the features are numeric columns ({@code featuresCols}) rather than one vector column.
   */
  boolean featureColumns() {
    return featuresCols().length > 0;
  }

  public boolean weighted() {
    return !weightCol().isEmpty();
  }

  /** The start of every training error: "Cannot train SGDClassifier: ". */
  public String cannotTrain() {
    return "Cannot train " + task.estimatorName() + ": ";
  }

  /** Rows (or partitions) whose feature vectors differ in size. */
  public InvalidTrainingDataException featureSizeMismatch(int size, int otherSize) {
    return FitFailures.featureSizeMismatch(cannotTrain(), featuresCol, size, otherSize);
  }

  /**
   * Training blew up: {@code what} says where it showed ("the model diverged in epoch 2 (...)").
   */
  public InvalidTrainingDataException diverged(String what) {
    boolean regression = task == SGDTask.REGRESSION;
    String otherWay =
        !get(SGDParams.STANDARDIZATION)
            ? " or set standardization to true" + (regression ? " and scale the labels" : "")
            : regression ? " or scale the labels" : "";
    return new InvalidTrainingDataException(
        cannotTrain() + what + "; lower stepSize (now " + stepSize + ")" + otherWay);
  }
}
