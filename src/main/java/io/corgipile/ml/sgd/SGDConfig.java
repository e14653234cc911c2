package io.corgipile.ml.sgd;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.shuffle.SyncInterval;
import java.io.Serializable;

/**
 * The typed settings of one training run, read once from an estimator's params and shipped to
 * the executors.
 *
 * @param featuresCols the numeric feature columns, or empty to train on the vector column {@code featuresCol}
 * @param weightCol the weight column, or empty for weight 1
 * @param numClasses the classes labels name, 0..numClasses-1; 0 for regression
 * @param loss one margin's loss, or {@link Softmax} over one margin per class
 * @param l1 the L1 strength, {@code regParam * elasticNetParam}
 * @param l2 the L2 strength, {@code regParam * (1 - elasticNetParam)}
 * @param seed the order's seed for the corgipile source, or null to leave the source's own
 * @param syncIntervalSet whether the user chose {@code syncInterval}, rather than left its default
 * @param stepSizeSet whether the user chose {@code stepSize}; if not, {@link StepCalibration} picks it
 */
public record SGDConfig(SGDTask task, String featuresCol, String[] featuresCols, String labelCol, String weightCol,
    int numClasses, MarginsLoss loss,
    double stepSize, boolean stepSizeSet, StepSchedule schedule, double decayRate, int batchSize, double l1, double l2,
    boolean fitIntercept, boolean standardization, boolean averaging, boolean skipInvalid, int maxIter, double tol,
    int nIterNoChange, Long seed, SyncInterval syncInterval, boolean syncIntervalSet, DeltaCompression deltaCompression,
        boolean errorFeedback,
    double syncStepSize, double syncMomentum)
    implements Serializable {

  public static SGDConfig of(SGDParams params, SGDTask task, String featuresCol, String labelCol, int numClasses,
      MarginsLoss loss) {
    double reg = params.getRegParam();
    double l1Share = params.getElasticNetParam();
    boolean skipInvalid = params.getHandleInvalid().equals(SGDParams.HANDLE_INVALID_SKIP);
    Long seed = params.isSet(params.seed()) ? params.getSeed() : null;
    return new SGDConfig(task, featuresCol, params.getFeaturesCols(), labelCol, params.getWeightCol(), numClasses, loss,
        params.getStepSize(),
        params.isSet(params.stepSize()), StepSchedule.of(params.getStepSchedule()), params.getDecayRate(),
            params.getBatchSize(), reg * l1Share,
        reg * (1 - l1Share), params.getFitIntercept(), params.getStandardization(), params.getAveraging(),
        skipInvalid, params.getMaxIter(), params.getTol(), params.getNIterNoChange(), seed,
        SyncInterval.parse(params.getSyncInterval()), params.isSet(params.syncInterval()),
        DeltaCompression.of(params.getDeltaCompression()), params.getErrorFeedback(), params.getSyncStepSize(),
        params.getSyncMomentum());
  }

  /** The linear models trained side by side: one per class for multinomial, else one. */
  public int numMargins() {
    return loss.numMargins();
  }

  /** These settings with {@code stepSize} chosen. */
  public SGDConfig withStepSize(double step) {
    return new SGDConfig(task, featuresCol, featuresCols, labelCol, weightCol, numClasses, loss, step, true, schedule,
        decayRate,
        batchSize, l1, l2, fitIntercept, standardization, averaging, skipInvalid, maxIter, tol, nIterNoChange, seed,
        syncInterval, syncIntervalSet, deltaCompression, errorFeedback, syncStepSize, syncMomentum);
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

  /** Whether the features are numeric columns ({@code featuresCols}) rather than one vector column. */
  boolean featureColumns() {
    return featuresCols.length > 0;
  }

  boolean weighted() {
    return !weightCol.isEmpty();
  }

  /** The start of every training error: "Cannot train SGDClassifier: ". */
  public String cannotTrain() {
    return "Cannot train " + task.estimatorName() + ": ";
  }

  /** Rows (or partitions) whose feature vectors differ in size. */
  public InvalidTrainingDataException featureSizeMismatch(int size, int otherSize) {
    return new InvalidTrainingDataException(cannotTrain() + "features in column '" + featuresCol + "' have size "
        + size + " in one row and " + otherSize + " in another");
  }

  /** Training blew up: {@code what} says where it showed ("the model diverged in epoch 2 (...)"). */
  public InvalidTrainingDataException diverged(String what) {
    boolean regression = task == SGDTask.REGRESSION;
    String otherWay = !standardization ? " or set standardization to true" + (regression ? " and scale the labels" : "")
        : regression ? " or scale the labels" : "";
    return new InvalidTrainingDataException(cannotTrain() + what + "; lower stepSize (now " + stepSize + ")"
        + otherWay);
  }
}
