package io.corgipile.ml.sgd;

import io.corgipile.spark.FeatureVector;
import java.util.Iterator;
import java.util.function.IntFunction;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Sequential SGD over rows in the order they come ({@link TrainingRow}'s layout): each valid row's
 * margins (one model per margin of the loss), its loss taken before its update, its derivatives
 * added to the batch, an update when the batch is full; an invalid row fails the pass or is counted
 * and skipped. The one home of the pass both a partition's round ({@link PartitionTrainer}) and the
 * step calibration ({@link StepCalibration}) make.
 */
public final class SGDPass {
  private final SGDConfig config;
  private final int epoch;
  private final IntFunction<PartitionSGD[]> newModels;
  private final MarginsLoss loss;
  private final FeatureVector x;

  /** Whether rows have a weight field ({@link TrainingRow}). */
  private final boolean weighted;

  private final double[] margins;
  private final double[] derivatives;
  private PartitionSGD[] sgd;
  private final boolean failOnDivergence;

  /**
   * Whether a margin became infinite or NaN on finite features, which ended the pass (if it does
   * not fail).
   */
  boolean diverged;

  double weightSum;

  /** The weighted loss of the valid rows, each taken before its update. */
  double lossSum;

  /** Valid rows, of any weight. */
  long count;

  long skipped;

  /**
   * @param models the models to start from, one per margin; null to make them at the first valid
   *     row
   * @param newModels the models for features of the given size, made when {@code models} is null
   * @param failOnDivergence whether a model that diverges fails the pass (training) or only ends
   *     it, setting {@link #diverged} (a trial step that was too large)
   */
  public SGDPass(
      SGDConfig config,
      int epoch,
      PartitionSGD[] models,
      IntFunction<PartitionSGD[]> newModels,
      boolean failOnDivergence) {
    this.failOnDivergence = failOnDivergence;
    this.config = config;
    this.epoch = epoch;
    this.sgd = models;
    this.newModels = newModels;
    this.loss = config.loss();
    this.x = TrainingRow.features(config);
    this.weighted = config.weighted();
    this.margins = new double[loss.numMargins()];
    this.derivatives = new double[margins.length];
  }

  /** The models, one per margin; null while no valid row has come. */
  PartitionSGD[] models() {
    return sgd;
  }

  /** Trains on {@code rows}, ending with the update of the last batch's rows, however few. */
  public void train(Iterator<InternalRow> rows) {
    while (rows.hasNext() && !diverged) {
      InternalRow row = rows.next();
      if (valid(row)) {
        double weight = TrainingRow.weight(row, weighted);
        if (weight == 0) {
          continue; // as if absent: no update, so no iterate to average and no step of the schedule
        }
        lossSum +=
            weight
                * loss.lossAndDerivatives(margins, row.getDouble(TrainingRow.LABEL), derivatives);
        weightSum += weight;
        for (int k = 0; k < sgd.length; k++) {
          sgd[k].accumulate(x, weight * derivatives[k]);
          if (sgd[k].batchFull()) {
            sgd[k].update();
          }
        }
      }
    }
    if (sgd != null) {
      for (PartitionSGD model : sgd) {
        model.update();
      }
    }
  }

  /** The weighted mean loss of the models as they are over {@code rows}, without updating them. */
  double meanLoss(Iterable<InternalRow> rows) {
    double sum = 0;
    double weights = 0;
    for (InternalRow row : rows) {
      if (valid(row) && !diverged) {
        double weight = TrainingRow.weight(row, weighted);
        sum +=
            weight
                * loss.lossAndDerivatives(margins, row.getDouble(TrainingRow.LABEL), derivatives);
        weights += weight;
      }
    }
    return diverged ? Double.POSITIVE_INFINITY : sum / weights;
  }

  /**
   * Whether {@code row} trains: then {@link #x} holds its features and {@link #margins} its
   * margins, and it counts. Otherwise it is skipped and counted, or fails the pass, as {@code
   * handleInvalid} says.
   */
  private boolean valid(InternalRow row) {
    String problem = TrainingRow.problem(config, row);
    if (problem == null) {
      x.pointTo(row);
      if (sgd == null) {
        sgd = newModels.apply(x.size());
      } else if (x.size() != sgd[0].numFeatures()) {
        throw config.featureSizeMismatch(x.size(), sgd[0].numFeatures());
      }
      double margin = margins();
      if (Double.isFinite(margin)) {
        count++;
        return true;
      }
      problem = TrainingRow.nonFiniteFeature(config, x);
      if (problem == null) {
        if (failOnDivergence) {
          throw config.diverged(
              "the model diverged in epoch " + (epoch + 1) + " (a margin of " + margin + ")");
        }
        diverged = true;
        return false;
      }
    }
    if (!config.skipInvalid()) {
      throw TrainingRow.invalid(config, problem);
    }
    skipped++;
    return false;
  }

  /** Fills {@link #margins}; returns their sum, which is finite only when every margin is. */
  private double margins() {
    double sum = 0;
    for (int k = 0; k < sgd.length; k++) {
      margins[k] = sgd[k].margin(x);
      sum += margins[k];
    }
    return sgd.length == 1 ? margins[0] : Double.isFinite(sum) ? sum : firstNonFinite();
  }

  private double firstNonFinite() {
    for (double m : margins) {
      if (!Double.isFinite(m)) {
        return m;
      }
    }
    return Double.NaN; // finite margins whose sum overflowed
  }
}
