package io.corgipile.ml.param;

import java.util.List;
import org.apache.spark.ml.param.Params;

/**
 * Hands a stage its param holder (and so its uid) while MLlib's Scala constructors run. The Scala
 * parents ({@code Predictor}, {@code ProbabilisticClassifier} and their models) create their params
 * ({@code featuresCol}, ...) inside {@code super()}, and a param reads its parent's {@code uid()}
 * at once, before the Java subclass has stored anything; Java 17 runs no statement of a constructor
 * before {@code super()}, and only a static call in a {@code this(...)} argument can make the
 * holder first. So each stage makes its {@link StageParams} with {@link #enter} in that argument,
 * its accessor falls back to {@link #current} until its field is set, and its constructor ends with
 * {@link #exit}. The uid is all it carries: the params themselves are declared by {@link
 * ParamSpec}s.
 */
public final class PendingParams {
  private static final ThreadLocal<StageParams> PENDING = new ThreadLocal<>();

  private PendingParams() {}

  /**
   * Makes the params of the stage {@code uid} about to be constructed on this thread, and records
   * them.
   */
  public static StageParams enter(String uid, List<ParamSpec<?>> specs) {
    StageParams params = new StageParams(uid, specs);
    PENDING.set(params);
    return params;
  }

  /** The params of the stage being constructed on this thread. */
  public static StageParams current() {
    return PENDING.get();
  }

  /**
   * Called by the stage's constructor right after {@code super()}: forgets the pending params and
   * sets their defaults on {@code owner}.
   *
   * @return {@code params}, for the stage's field
   */
  public static StageParams exit(StageParams params, Params owner) {
    PENDING.remove();
    params.setDefaults(owner);
    return params;
  }
}
