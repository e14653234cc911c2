package io.corgipile.ml.sgd;

import io.corgipile.ml.SGDParams;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The initial step when {@code stepSize} is not set, as Bottou ("Stochastic Gradient Descent
 * Tricks", 2012) advises: train one pass over a small sample with each of {@link #CANDIDATES}, on
 * the schedule training will use, and keep the step whose model has the lowest objective on the
 * sample. The sample is the one the feature summary drew from every partition under
 * standardization, else the first rows of every partition in epoch 0's order ({@link #sample});
 * either way the step is the same for the same seed, data and partitions.
 */
public final class StepCalibration {
  /** Steps tried, largest first, each about a third of the one before. */
  public static final double[] CANDIDATES = {10, 3, 1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001};

  private final SGDConfig config;
  private final FeatureScaling scaling;

  /**
   * @param config the run's settings, whose {@code stepSize} is the default kept when no candidate
   *     trains (no valid row in the sample, or every one diverged)
   * @param scaling the features' scaling, or null
   */
  public StepCalibration(SGDConfig config, FeatureScaling scaling) {
    this.config = config;
    this.scaling = scaling;
  }

  /**
   * The chosen step and what each candidate scored.
   *
   * @param objectives per candidate, the sample's mean loss plus the penalty after one pass;
   *     infinite where the model diverged
   * @param sampleRows the valid rows of the sample; 0 leaves the estimator's default step
   */
  public record Choice(double stepSize, double[] objectives, long sampleRows) {
    public String describe() {
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < CANDIDATES.length; i++) {
        s.append(i == 0 ? "" : ", ")
            .append(CANDIDATES[i])
            .append(": ")
            .append(
                Double.isFinite(objectives[i])
                    ? String.format(Locale.ROOT, "%.4f", objectives[i])
                    : "diverged");
      }
      return s.toString();
    }
  }

  /**
   * The sample without a feature summary: the first {@code calibrationRows / P} rows of each of the
   * {@code P} partitions in the order they are read, in a random order drawn from {@code seed}. In
   * a {@code corgipile} epoch those are each partition's first buffer's rows: blocks drawn at
   * random from all its blocks, so the sample spans every partition's data where the first rows of
   * one partition would be a few blocks.
   */
  public List<InternalRow> sample(JavaRDD<InternalRow> rows, long seed) {
    int size = config.get(SGDParams.CALIBRATION_ROWS);
    int perPartition = (int) Math.ceil((double) size / rows.getNumPartitions());
    List<InternalRow> sample = new ArrayList<>();
    for (List<InternalRow> part :
        rows.mapPartitions(partition -> first(partition, perPartition)).glom().collect()) {
      sample.addAll(part); // in partition order
    }
    Collections.shuffle(sample, new Random(seed));
    return sample;
  }

  private static Iterator<InternalRow> first(Iterator<InternalRow> rows, int size) {
    List<InternalRow> first = new ArrayList<>();
    while (rows.hasNext() && first.size() < size) {
      first.add(rows.next().copy()); // a scan reuses its row objects
    }
    return first.iterator();
  }

  /** Trains one pass over {@code sample} with each candidate step, and keeps the best. */
  public Choice choose(List<InternalRow> sample) {
    double[] objectives = new double[CANDIDATES.length];
    double best = Double.POSITIVE_INFINITY;
    double step = config.stepSize();
    long rows = 0;
    for (int i = 0; i < CANDIDATES.length; i++) {
      SGDConfig trial = config.withStepSize(CANDIDATES[i]);
      SGDPass pass = new SGDPass(trial, 0, null, size -> fresh(size, trial), false);
      pass.train(sample.iterator());
      rows = Math.max(rows, pass.count); // a pass that diverged stopped early
      objectives[i] =
          pass.models() == null || pass.diverged
              ? Double.POSITIVE_INFINITY
              : pass.meanLoss(sample) + config.penalty(PartitionSGD.coefficients(pass.models()));
      if (objectives[i] < best) { // strictly: on a tie the larger step, tried first, stays
        best = objectives[i];
        step = CANDIDATES[i];
      }
    }
    return new Choice(step, objectives, rows);
  }

  /**
   * One model per margin, from zeros, with the last iterate (no averaging): the model one pass
   * leaves.
   */
  private PartitionSGD[] fresh(int numFeatures, SGDConfig config) {
    PartitionSGD[] models = new PartitionSGD[config.numMargins()];
    for (int k = 0; k < models.length; k++) {
      models[k] =
          PartitionSGD.create(new double[numFeatures], 0, null, config, 0, 0, 1, false, scaling);
    }
    return models;
  }
}
