package io.corgipile.ml;

/**
 * Hands an SGD stage its param holder (and so its uid) while MLlib's Scala constructors run. The
 * Scala parents ({@code Predictor}, {@code ProbabilisticClassifier} and their models) create their
 * params ({@code featuresCol}, ...) inside {@code super()}, and a param reads its parent's {@code
 * uid()} at once, before the Java subclass has stored anything. So each stage makes its {@link
 * SGDParamSet} in a {@code this(...)} argument with {@link #enter}, its {@code sgdParams()} falls
 * back to {@link #current} until its field is set, and its constructor ends with {@link #exit}.
 */
final class PendingParams {
  private static final ThreadLocal<SGDParamSet> PENDING = new ThreadLocal<>();

  private PendingParams() {}

  /** Makes the param holder of the stage {@code uid} about to be constructed on this thread, and records it. */
  static SGDParamSet enter(String uid, SGDTask task) {
    SGDParamSet params = new SGDParamSet(uid, task);
    PENDING.set(params);
    return params;
  }

  /** The param holder of the stage being constructed on this thread. */
  static SGDParamSet current() {
    return PENDING.get();
  }

  /**
   * Called by the stage's constructor right after {@code super()}: forgets the pending holder and
   * sets the params' defaults on {@code owner}.
   *
   * @return {@code params}, for the stage's field
   */
  static SGDParamSet exit(SGDParamSet params, SGDParams owner) {
    PENDING.remove();
    params.setDefaults(owner);
    return params;
  }
}
