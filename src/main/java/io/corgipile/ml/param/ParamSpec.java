package io.corgipile.ml.param;

import io.corgipile.shuffle.SyncInterval;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;

/**
 * One param of the project's stages, declared once: its name, doc, allowed values and default. Each
 * stage makes its {@link Param} objects from these ({@link StageParams}); its public accessors
 * return them, and everything else (the run's settings, the Python wrappers, the docs tests) reads
 * the params through MLlib's own API or by the spec.
 *
 * @param <T> the value's Java type
 */
public final class ParamSpec<T> {
  private final String name;
  private final Function<String, Param<?>> factory;
  private final T defaultValue;

  private ParamSpec(String name, Function<String, Param<?>> factory, T defaultValue) {
    this.name = name;
    this.factory = factory;
    this.defaultValue = defaultValue;
  }

  /**
   * A string param that takes one of {@code allowed}, listed in its doc and in its validation
   * error.
   */
  public static ParamSpec<String> choice(
      String name, String doc, List<String> allowed, String defaultValue) {
    return new ParamSpec<>(
        name, uid -> CheckedParams.choice(uid, name, doc, allowed), defaultValue);
  }

  /** An int param of at least {@code min}. */
  public static ParamSpec<Integer> atLeast(String name, String doc, int min, int defaultValue) {
    return new ParamSpec<>(name, uid -> CheckedParams.atLeast(uid, name, doc, min), defaultValue);
  }

  /**
   * An int param of at least {@code min}, {@code note} (", 0: automatic") after the bound in its
   * doc and its validation error.
   */
  public static ParamSpec<Integer> atLeast(
      String name, String doc, int min, String note, int defaultValue) {
    return new ParamSpec<>(
        name, uid -> CheckedParams.atLeast(uid, name, doc, min, note), defaultValue);
  }

  /**
   * A double param that {@code isValid} accepts, {@code allowed} saying which in words ("in [0,
   * 1]").
   */
  public static ParamSpec<Double> number(
      String name,
      String doc,
      String allowed,
      scala.Function1<Object, Object> isValid,
      double defaultValue) {
    return new ParamSpec<>(
        name, uid -> CheckedParams.number(uid, name, doc, allowed, isValid), defaultValue);
  }

  /** A double param above 0. */
  public static ParamSpec<Double> positive(String name, String doc, double defaultValue) {
    return number(name, doc, "> 0", ParamValidators.gt(0), defaultValue);
  }

  /** A double param of at least 0. */
  public static ParamSpec<Double> nonNegative(String name, String doc, double defaultValue) {
    return number(name, doc, ">= 0", ParamValidators.gtEq(0), defaultValue);
  }

  /** A double param in [0, 1]. */
  public static ParamSpec<Double> fraction(String name, String doc, double defaultValue) {
    return number(name, doc, "in [0, 1]", ParamValidators.inRange(0, 1), defaultValue);
  }

  public static ParamSpec<Boolean> flag(String name, String doc, boolean defaultValue) {
    return new ParamSpec<>(name, uid -> new BooleanParam(uid, name, doc), defaultValue);
  }

  /** Any string, such as a column name. */
  public static ParamSpec<String> text(String name, String doc, String defaultValue) {
    return new ParamSpec<>(name, uid -> new Param<String>(uid, name, doc), defaultValue);
  }

  public static ParamSpec<Long> seed(String name, String doc, long defaultValue) {
    return new ParamSpec<>(name, uid -> new LongParam(uid, name, doc), defaultValue);
  }

  /** Column names, saved as MLlib's {@code StringArrayParam} saves them. */
  public static ParamSpec<String[]> columns(String name, String doc) {
    return new ParamSpec<>(
        name, uid -> new CheckedParams.ColumnsParam(uid, name, doc), new String[0]);
  }

  /** A {@link SyncInterval}, in {@link SyncInterval#FORMAT}. */
  public static ParamSpec<String> syncInterval(String name, String doc, String defaultValue) {
    return new ParamSpec<>(name, uid -> CheckedParams.syncInterval(uid, name, doc), defaultValue);
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** The param object of the stage {@code uid}. */
  Param<?> create(String uid) {
    return factory.apply(uid);
  }
}
