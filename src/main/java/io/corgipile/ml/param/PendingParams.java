package io.corgipile.ml.param;

import io.corgipile.ml.sgd.SGDTask;
import org.apache.spark.ml.param.Params;

/**
 * Hands a stage its param holder (and so its uid) while MLlib's Scala constructors run. The Scala
 * parents ({@code Predictor}, {@code ProbabilisticClassifier} and their models) create their params
 * ({@code featuresCol}, ...) inside {@code super()}, and a param reads its parent's {@code uid()} at
 * once, before the Java subclass has stored anything. So each stage makes its holder ({@link
 * SGDParamSet}, {@link LassoParamSet}) in a {@code this(...)} argument with {@link #enter}, its
 * accessor falls back to {@link #current} until its field is set, and its constructor ends with
 * {@link #exit}.
 */
public final class PendingParams {
  /** A stage's param holder. */
  interface Holder {
    /** Sets the params' defaults on the stage, once it is constructed. */
    void setDefaults(Params owner);
  }

  private static final ThreadLocal<Holder> PENDING = new ThreadLocal<>();

  private PendingParams() {}

  /** Makes the SGD param holder of the stage {@code uid} about to be constructed on this thread, and records it. */
  public static SGDParamSet enter(String uid, SGDTask task) {
    return enter(new SGDParamSet(uid, task));
  }

  /** Records the param holder of the stage about to be constructed on this thread. */
  public static <H extends Holder> H enter(H params) {
    PENDING.set(params);
    return params;
  }

  /** The param holder of the stage being constructed on this thread. */
  public static <H extends Holder> H current(Class<H> type) {
    return type.cast(PENDING.get());
  }

  /**
   * Called by the stage's constructor right after {@code super()}: forgets the pending holder and
   * sets the params' defaults on {@code owner}.
   *
   * @return {@code params}, for the stage's field
   */
  public static <H extends Holder> H exit(H params, Params owner) {
    PENDING.remove();
    params.setDefaults(owner);
    return params;
  }
}
