package io.corgipile.ml;

/**
 * Hands a uid to a Java subclass of MLlib's Scala {@code Predictor} classes while their
 * constructors run. The Scala parents create their params ({@code featuresCol}, ...) inside
 * {@code super()}, and a param reads its parent's {@code uid()} at once, before the subclass has
 * stored its uid field. The subclass puts the uid here in a {@code this(...)} argument and its
 * {@code uid()} falls back to it until the field is set.
 */
final class PendingUid {
  private static final ThreadLocal<String> PENDING = new ThreadLocal<>();

  private PendingUid() {}

  /** Records {@code uid} for the constructor about to run on this thread, and returns it. */
  static String enter(String uid) {
    PENDING.set(uid);
    return uid;
  }

  /** The uid of the constructor running on this thread. */
  static String current() {
    return PENDING.get();
  }

  /** Called once the constructor has stored its uid. */
  static void exit() {
    PENDING.remove();
  }
}
