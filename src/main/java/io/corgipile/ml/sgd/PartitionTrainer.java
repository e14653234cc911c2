package io.corgipile.ml.sgd;

import io.corgipile.ml.SGDParams;
import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.ml.compress.ErrorFeedback;
import io.corgipile.ml.compress.QuantizedDelta;
import io.corgipile.ml.compress.ResidualStore;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One partition's round: an {@link SGDPass} over its rows in the order they arrive, starting from
 * the broadcast model, one {@link PartitionSGD} per margin of the loss (one per class for
 * multinomial). Under standardization the model is in the scaled features' space.
 */
public final class PartitionTrainer
    implements FlatMapFunction<Iterator<InternalRow>, PartitionResult> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<StartingModel> start;
  private final Broadcast<FeatureScaling> scaling;
  private final SGDConfig config;
  private final int epoch;
  private final int averaged;
  private final boolean averageIterates;
  private final String run;
  private final int round;

  /**
   * @param averaged the partitions the driver averages every round, for the rate ({@link
   *     StepSchedule#rate})
   * @param averageIterates whether to return the mean of the round's iterates rather than the last
   * @param run names the training run, for the residuals of error feedback kept on the executor
   * @param round the round's number in the whole run, counted over epochs
   * @param scaling the features' scaling, null for none
   */
  public PartitionTrainer(
      Broadcast<StartingModel> start,
      Broadcast<FeatureScaling> scaling,
      SGDConfig config,
      int epoch,
      int averaged,
      boolean averageIterates,
      String run,
      int round) {
    this.start = start;
    this.scaling = scaling;
    this.config = config;
    this.epoch = epoch;
    this.averaged = averaged;
    this.averageIterates = averageIterates;
    this.run = run;
    this.round = round;
  }

  @Override
  public Iterator<PartitionResult> call(Iterator<InternalRow> rows) {
    int partition = TaskContext.getPartitionId();
    StartingModel model = start.value();
    SGDPass pass =
        new SGDPass(
            config,
            epoch,
            model.coefficients() == null ? null : newSgd(model.coefficients(), model),
            size -> newSgd(new double[size * config.numMargins()], model),
            true);
    pass.train(rows);
    if (pass.count == 0) { // also when a model was made for a row later found invalid
      if (errorFeedback()) {
        ResidualStore.carry(run, partition, round);
      }
      return List.of(PartitionResult.empty(partition, pass.skipped)).iterator();
    }
    PartitionSGD[] sgd = pass.models();
    int n = sgd[0].numFeatures();
    double[] w = PartitionSGD.coefficients(sgd);
    double[] intercepts = new double[sgd.length];
    double[] squares = sgd[0].squaredGradients() == null ? null : new double[(n + 1) * sgd.length];
    for (int k = 0; k < sgd.length; k++) {
      intercepts[k] = sgd[k].intercept();
      if (squares
          != null) { // the coefficients' sums one margin after the other, then the intercepts'
        double[] own = sgd[k].squaredGradients();
        System.arraycopy(own, 0, squares, k * n, n);
        squares[n * sgd.length + k] = own[n];
      }
    }
    long updates = sgd[0].updates(); // the same in every margin's model: they see the same rows
    boolean compressed = config.deltaCompression() != DeltaCompression.NONE;
    return List.of(
            new PartitionResult(
                partition,
                compressed ? null : w,
                compressed ? compress(w, model.coefficients(), partition) : null,
                w.length,
                intercepts,
                pass.weightSum,
                pass.lossSum,
                pass.count,
                pass.skipped,
                updates,
                squares))
        .iterator();
  }

  private boolean errorFeedback() {
    return config.get(SGDParams.ERROR_FEEDBACK)
        && config.deltaCompression() != DeltaCompression.NONE;
  }

  /**
   * The change from {@code start} (null: zeros), compressed; sparse when it touches under a quarter
   * of the coordinates, as a round over sparse rows does.
   */
  private QuantizedDelta compress(double[] w, double[] start, int partition) {
    double[] delta = new double[w.length];
    int nonZeros = 0;
    for (int j = 0; j < w.length; j++) {
      delta[j] = start == null ? w[j] : w[j] - start[j];
      nonZeros += delta[j] != 0 ? 1 : 0;
    }
    DeltaCompression compression = config.deltaCompression();
    ErrorFeedback feedback =
        errorFeedback() ? new ErrorFeedback(compression, run, partition) : null;
    if (4L * nonZeros >= w.length) {
      return feedback != null
          ? feedback.compress(round, delta)
          : QuantizedDelta.dense(delta, compression);
    }
    int[] indices = new int[nonZeros];
    double[] values = new double[nonZeros];
    for (int j = 0, k = 0; j < w.length; j++) {
      if (delta[j] != 0) {
        indices[k] = j;
        values[k++] = delta[j];
      }
    }
    return feedback != null
        ? feedback.compress(round, w.length, indices, values)
        : QuantizedDelta.sparse(w.length, indices, values, compression);
  }

  /**
   * One model per margin, each from its own copy of its part of {@code coefficients} (and of
   * adagrad's sums).
   */
  private PartitionSGD[] newSgd(double[] coefficients, StartingModel model) {
    int k = config.numMargins();
    int n = coefficients.length / k;
    double[] squares = model.squaredGradients();
    PartitionSGD[] sgd = new PartitionSGD[k];
    for (int i = 0; i < k; i++) {
      double[] own = null;
      if (squares != null) {
        own = Arrays.copyOf(Arrays.copyOfRange(squares, i * n, (i + 1) * n), n + 1);
        own[n] = squares[n * k + i];
      }
      sgd[i] =
          PartitionSGD.create(
              Arrays.copyOfRange(coefficients, i * n, (i + 1) * n),
              model.intercepts()[i],
              own,
              config,
              epoch,
              model.updatesPerPartition(),
              averaged,
              averageIterates,
              scaling == null ? null : scaling.value());
    }
    return sgd;
  }
}
