package io.corgipile.ml;

import org.apache.spark.ml.param.DoubleArrayParam;

/**
 * The {@code threshold} setter of {@link SGDClassifier} and {@link SGDClassificationModel}, typed
 * to return the stage: one copy for both. {@code threshold} and MLlib's {@code thresholds} clear
 * each other, so the last of the two set decides, as in LogisticRegression. The other half, {@code
 * setThresholds}, overrides a method of the stages' Scala parents, which a default method cannot do
 * (a class's method wins over an interface's), so each stage keeps its own three lines.
 *
 * @param <T> the stage
 */
public interface SGDThresholdSetter<T extends SGDThresholdSetter<T>> extends SGDClassifierParams {
  /** MLlib's {@code thresholds} param, declared by the stages' Scala parents. */
  DoubleArrayParam thresholds();

  /** Also clears {@code thresholds}: the last of the two set decides, as in LogisticRegression. */
  @SuppressWarnings("unchecked")
  default T setThreshold(double value) {
    set(threshold(), value);
    clear(thresholds());
    return (T) this;
  }
}
