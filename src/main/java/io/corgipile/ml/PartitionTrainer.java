package io.corgipile.ml;

import io.corgipile.spark.FeatureVector;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One partition's round: sequential SGD over its rows in the order they arrive, starting from the
 * broadcast model. Rows are {@code (features, label, weight?)} as {@link InternalRow}s.
 */
final class PartitionTrainer implements FlatMapFunction<Iterator<InternalRow>, PartitionResult> {
  private static final long serialVersionUID = 1L;
  static final int FEATURES = 0;
  static final int LABEL = 1;
  static final int WEIGHT = 2;

  private final Broadcast<StartingModel> start;
  private final SGDConfig config;
  private final int epoch;
  private final boolean averageIterates;

  /** @param averageIterates whether to return the mean of the round's iterates rather than the last */
  PartitionTrainer(Broadcast<StartingModel> start, SGDConfig config, int epoch, boolean averageIterates) {
    this.start = start;
    this.config = config;
    this.epoch = epoch;
    this.averageIterates = averageIterates;
  }

  @Override
  public Iterator<PartitionResult> call(Iterator<InternalRow> rows) {
    int partition = TaskContext.getPartitionId();
    StartingModel model = start.value();
    LinearSGD sgd = model.coefficients() == null ? null : newSgd(model.coefficients().clone(), model);
    FeatureVector x = new FeatureVector();
    LossFunction loss = config.loss();
    double weightSum = 0;
    double lossSum = 0;
    long count = 0;
    long skipped = 0;
    while (rows.hasNext()) {
      InternalRow row = rows.next();
      String problem = problem(row);
      if (problem == null) {
        x.pointTo(row, FEATURES);
        if (sgd == null) {
          sgd = newSgd(new double[x.size()], model);
        } else if (x.size() != sgd.numFeatures()) {
          throw config.featureSizeMismatch(x.size(), sgd.numFeatures());
        }
        double margin = sgd.margin(x);
        if (Double.isFinite(margin)) {
          double label = row.getDouble(LABEL);
          double weight = config.weighted() ? row.getDouble(WEIGHT) : 1.0;
          count++;
          if (weight == 0) {
            continue; // as if absent: no update, so no iterate to average and no step of the schedule
          }
          lossSum += weight * loss.value(margin, label);
          weightSum += weight;
          sgd.accumulate(x, weight * loss.derivative(margin, label));
          if (sgd.batchFull()) {
            sgd.update();
          }
          continue;
        }
        problem = nonFiniteFeature(x);
        if (problem == null) {
          throw config.diverged("the model diverged in epoch " + (epoch + 1) + " (a margin of " + margin + ")");
        }
      }
      if (!config.skipInvalid()) {
        throw new InvalidTrainingDataException(config.cannotTrain() + problem
            + "; set handleInvalid to 'skip' to leave such rows out");
      }
      skipped++;
    }
    if (count == 0) { // also when a model was made for a row later found invalid
      return List.of(PartitionResult.empty(partition, skipped)).iterator();
    }
    sgd.update();
    return List.of(new PartitionResult(partition, sgd.coefficients(), sgd.numFeatures(), sgd.intercept(), weightSum,
        lossSum, count, skipped, sgd.updates())).iterator();
  }

  private LinearSGD newSgd(double[] coefficients, StartingModel model) {
    return new LinearSGD(coefficients, model.intercept(), config, epoch, model.updatesPerPartition(), averageIterates);
  }

  /** What makes the row unusable, or null. Features are checked for finiteness only when a margin is not finite. */
  private String problem(InternalRow row) {
    if (row.isNullAt(FEATURES)) {
      return "a row has null features in column '" + config.featuresCol() + "'";
    }
    if (row.isNullAt(LABEL)) {
      return "a row has a null label in column '" + config.labelCol() + "'";
    }
    double label = row.getDouble(LABEL);
    if (config.task() == SGDTask.CLASSIFICATION ? label != 0 && label != 1 : !Double.isFinite(label)) {
      return "a row has label " + label + " in column '" + config.labelCol() + "'; "
          + (config.task() == SGDTask.CLASSIFICATION ? "allowed labels are 0 and 1" : "labels must be finite");
    }
    if (config.weighted()) {
      if (row.isNullAt(WEIGHT)) {
        return "a row has a null weight in column '" + config.weightCol() + "'";
      }
      double weight = row.getDouble(WEIGHT);
      if (!(weight >= 0) || Double.isInfinite(weight)) {
        return "a row has weight " + weight + " in column '" + config.weightCol()
            + "'; weights must be finite and >= 0";
      }
    }
    return null;
  }

  private String nonFiniteFeature(FeatureVector x) {
    for (int k = 0, n = x.numStored(); k < n; k++) {
      if (!Double.isFinite(x.value(k))) {
        return "a row has feature " + x.index(k) + " = " + x.value(k) + " in column '" + config.featuresCol() + "'";
      }
    }
    return null;
  }
}
