package io.corgipile.ml;

/**
 * The setters of the training params, typed to return the estimator: one copy for both
 * estimators. Models have the params too (copied from their estimator) but not these setters.
 *
 * @param <E> the estimator
 */
public interface SGDParamSetters<E extends SGDParamSetters<E>> extends SGDParams {
  @SuppressWarnings("unchecked")
  private E self() {
    return (E) this;
  }

  default E setLoss(String value) {
    set(loss(), value);
    return self();
  }

  default E setMaxIter(int value) {
    set(maxIter(), value);
    return self();
  }

  default E setTol(double value) {
    set(tol(), value);
    return self();
  }

  default E setStepSize(double value) {
    set(stepSize(), value);
    return self();
  }

  default E setStepSchedule(String value) {
    set(stepSchedule(), value);
    return self();
  }

  default E setDecayRate(double value) {
    set(decayRate(), value);
    return self();
  }

  default E setBatchSize(int value) {
    set(batchSize(), value);
    return self();
  }

  default E setRegParam(double value) {
    set(regParam(), value);
    return self();
  }

  default E setElasticNetParam(double value) {
    set(elasticNetParam(), value);
    return self();
  }

  default E setNIterNoChange(int value) {
    set(nIterNoChange(), value);
    return self();
  }

  default E setFitIntercept(boolean value) {
    set(fitIntercept(), value);
    return self();
  }

  default E setStandardization(boolean value) {
    set(standardization(), value);
    return self();
  }

  default E setAveraging(boolean value) {
    set(averaging(), value);
    return self();
  }

  default E setWeightCol(String value) {
    set(weightCol(), value);
    return self();
  }

  /** Numeric columns to train on instead of {@code featuresCol}; see {@link #featuresCols()}. */
  default E setFeaturesCols(String... value) {
    set(featuresCols(), value);
    return self();
  }

  default E setSeed(long value) {
    set(seed(), value);
    return self();
  }

  default E setHandleInvalid(String value) {
    set(handleInvalid(), value);
    return self();
  }

  default E setSyncInterval(String value) {
    set(syncInterval(), value);
    return self();
  }

  default E setDeltaCompression(String value) {
    set(deltaCompression(), value);
    return self();
  }

  default E setErrorFeedback(boolean value) {
    set(errorFeedback(), value);
    return self();
  }

  default E setSyncStepSize(double value) {
    set(syncStepSize(), value);
    return self();
  }

  default E setSyncMomentum(double value) {
    set(syncMomentum(), value);
    return self();
  }
}
