package io.corgipile.ml.sgd;

import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.ml.compress.ErrorFeedback;
import io.corgipile.ml.compress.PartitionResidual;
import io.corgipile.ml.compress.QuantizedDelta;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.FlatMapFunction2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One partition's round: an {@link SGDPass} over its rows in the order they arrive, starting from
 * the broadcast model, one {@link PartitionSGD} per margin of the loss (one per class for
 * multinomial). Under standardization the model is in the scaled features' space.
 *
 * <p>With error feedback ({@link SGDConfig#errorFeedback()}) it runs zipped with the residuals the
 * driver sends, one per partition ({@link #call(Iterator, Iterator)}), and returns the new residual
 * with its delta: a task keeps nothing between rounds.
 */
public final class PartitionTrainer
    implements FlatMapFunction<Iterator<InternalRow>, PartitionResult>,
        FlatMapFunction2<Iterator<InternalRow>, Iterator<PartitionResidual>, PartitionResult> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<StartingModel> start;
  private final Broadcast<FeatureScaling> scaling;
  private final SGDConfig config;
  private final int epoch;
  private final int averaged;
  private final boolean averageIterates;

  /**
   * @param averaged the partitions the driver averages every round, for the rate ({@link
   *     StepSchedule#rate})
   * @param averageIterates whether to return the mean of the round's iterates rather than the last
   * @param scaling the features' scaling, null for none
   */
  public PartitionTrainer(
      Broadcast<StartingModel> start,
      Broadcast<FeatureScaling> scaling,
      SGDConfig config,
      int epoch,
      int averaged,
      boolean averageIterates) {
    this.start = start;
    this.scaling = scaling;
    this.config = config;
    this.epoch = epoch;
    this.averaged = averaged;
    this.averageIterates = averageIterates;
  }

  /** The round without error feedback. */
  @Override
  public Iterator<PartitionResult> call(Iterator<InternalRow> rows) {
    if (config.errorFeedback()) {
      throw new IllegalStateException(
          "Cannot train a partition with error feedback without its residual: zip its rows with"
              + " the residuals the driver keeps");
    }
    return train(rows, null);
  }

  /**
   * The round with error feedback: {@code residuals} holds the one the driver sends this partition,
   * the residual its previous round returned.
   */
  @Override
  public Iterator<PartitionResult> call(
      Iterator<InternalRow> rows, Iterator<PartitionResidual> residuals) {
    int partition = TaskContext.getPartitionId();
    PartitionResidual own = residuals.hasNext() ? residuals.next() : null;
    boolean more = residuals.hasNext();
    if (own == null || own.partition() != partition || more) {
      String got = own == null ? "none" : more ? "several" : "that of partition " + own.partition();
      throw new IllegalStateException(
          "Cannot train partition "
              + partition
              + " with error feedback: it needs the residual of its own previous round, and got "
              + got);
    }
    return train(rows, own.residual());
  }

  /**
   * @param previous the residual of the partition's previous round; null without error feedback or
   *     before its first compressed round
   */
  private Iterator<PartitionResult> train(Iterator<InternalRow> rows, QuantizedDelta previous) {
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
      // no residual: the driver keeps this partition's previous one for its next round
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
    ErrorFeedback.Step sent = compressed ? compress(w, model.coefficients(), previous) : null;
    return List.of(
            new PartitionResult(
                partition,
                compressed ? null : w,
                compressed ? sent.payload() : null,
                w.length,
                intercepts,
                pass.weightSum,
                pass.lossSum,
                pass.count,
                pass.skipped,
                updates,
                squares,
                compressed ? sent.residual() : null))
        .iterator();
  }

  /**
   * The change from {@code start} (null: zeros), compressed, with error feedback plus {@code
   * previous}; sparse when it touches under a quarter of the coordinates, as a round over sparse
   * rows does. The step's residual is null without error feedback.
   */
  private ErrorFeedback.Step compress(double[] w, double[] start, QuantizedDelta previous) {
    double[] delta = new double[w.length];
    int nonZeros = 0;
    for (int j = 0; j < w.length; j++) {
      delta[j] = start == null ? w[j] : w[j] - start[j];
      nonZeros += delta[j] != 0 ? 1 : 0;
    }
    DeltaCompression compression = config.deltaCompression();
    boolean feedback = config.errorFeedback();
    if (4L * nonZeros >= w.length) {
      return feedback
          ? ErrorFeedback.dense(delta, previous, compression)
          : new ErrorFeedback.Step(QuantizedDelta.dense(delta, compression), null);
    }
    int[] indices = new int[nonZeros];
    double[] values = new double[nonZeros];
    for (int j = 0, k = 0; j < w.length; j++) {
      if (delta[j] != 0) {
        indices[k] = j;
        values[k++] = delta[j];
      }
    }
    return feedback
        ? ErrorFeedback.sparse(w.length, indices, values, previous, compression)
        : new ErrorFeedback.Step(
            QuantizedDelta.sparse(w.length, indices, values, compression), null);
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
