package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.corgipile.SharedSpark;
import io.corgipile.shuffle.SyncInterval;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.MLWritable;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A bad param value is refused when it is set, on the estimators and their models alike, with a
 * message that names the param, the owner's uid, the value and what is allowed; the refused value
 * is not kept. A saved estimator or model keeps this validation when loaded.
 */
class ParamValidationTest {
  private static final String UID = "owner";

  /** The four kinds of owner of the SGD params, each made with uid {@link #UID}. */
  enum Owner {
    CLASSIFIER(() -> new SGDClassifier(UID)),
    CLASSIFICATION_MODEL(() -> new SGDClassificationModel(UID, Vectors.dense(1, 2), 0.5)),
    REGRESSOR(() -> new SGDRegressor(UID)),
    REGRESSION_MODEL(() -> new SGDRegressionModel(UID, Vectors.dense(1, 2), 0.5));

    final Supplier<SGDParams> factory;

    Owner(Supplier<SGDParams> factory) {
      this.factory = factory;
    }

    boolean classifies() {
      return this == CLASSIFIER || this == CLASSIFICATION_MODEL;
    }
  }

  /**
   * A value that {@code param} refuses, on the owners {@code appliesTo} accepts, and the message's
   * end after "to ": the value as quoted, and what is allowed.
   */
  private record Bad(String param, Object value, String refusal, Predicate<Owner> appliesTo) {
    Bad(String param, Object value, String refusal) {
      this(param, value, refusal, owner -> true);
    }
  }

  private static final List<Bad> BAD_VALUES =
      List.of(
          new Bad(
              "loss",
              "squared",
              "'squared': allowed values are logistic, hinge",
              Owner::classifies),
          new Bad(
              "loss", "huber", "'huber': allowed values are logistic, hinge", Owner::classifies),
          new Bad(
              "loss",
              "logistic",
              "'logistic': allowed values are squared, huber",
              o -> !o.classifies()),
          new Bad(
              "loss", "hinge", "'hinge': allowed values are squared, huber", o -> !o.classifies()),
          new Bad(
              "loss",
              "Logistic",
              "'Logistic': allowed values are logistic, hinge",
              Owner::classifies),
          new Bad(
              "loss",
              "absolute",
              "'absolute': allowed values are squared, huber",
              o -> !o.classifies()),
          new Bad("maxIter", 0, "'0': allowed values are integers >= 1"),
          new Bad("tol", -1.0, "'-1.0': allowed values are numbers >= 0"),
          new Bad("nIterNoChange", 0, "'0': allowed values are integers >= 1"),
          new Bad("stepSize", 0.0, "'0.0': allowed values are numbers > 0"),
          new Bad("stepSize", -0.01, "'-0.01': allowed values are numbers > 0"),
          new Bad("stepSize", Double.NaN, "'NaN': allowed values are numbers > 0"),
          new Bad(
              "stepSchedule",
              "linear",
              "'linear': allowed values are constant, decay, invsqrt, adagrad"),
          new Bad("decayRate", 0.0, "'0.0': allowed values are numbers in (0, 1]"),
          new Bad("decayRate", 1.5, "'1.5': allowed values are numbers in (0, 1]"),
          new Bad("batchSize", 0, "'0': allowed values are integers >= 1"),
          new Bad("batchSize", -4, "'-4': allowed values are integers >= 1"),
          new Bad("regParam", -1.0, "'-1.0': allowed values are numbers >= 0"),
          new Bad("elasticNetParam", 1.5, "'1.5': allowed values are numbers in [0, 1]"),
          new Bad("elasticNetParam", -0.5, "'-0.5': allowed values are numbers in [0, 1]"),
          new Bad("handleInvalid", "keep", "'keep': allowed values are error, skip"),
          new Bad(
              "threshold", 1.5, "'1.5': allowed values are numbers in [0, 1]", Owner::classifies),
          new Bad(
              "threshold", -0.1, "'-0.1': allowed values are numbers in [0, 1]", Owner::classifies),
          new Bad(
              "family",
              "softmax",
              "'softmax': allowed values are auto, binomial, multinomial",
              Owner::classifies),
          new Bad(
              "family",
              "Multinomial",
              "'Multinomial': allowed values are auto, binomial, multinomial",
              Owner::classifies),
          new Bad("epsilon", 0.0, "'0.0': allowed values are numbers > 0", o -> !o.classifies()),
          new Bad(
              "epsilon", -1.35, "'-1.35': allowed values are numbers > 0", o -> !o.classifies()),
          new Bad("syncInterval", "0", "'0': allowed values are " + SyncInterval.FORMAT),
          new Bad("syncInterval", "round", "'round': allowed values are " + SyncInterval.FORMAT),
          new Bad("deltaCompression", "fp16", "'fp16': allowed values are none, int8"),
          new Bad("syncStepSize", 0.0, "'0.0': allowed values are numbers > 0"),
          new Bad("syncMomentum", 1.0, "'1.0': allowed values are numbers in [0, 1)"),
          new Bad("syncMomentum", -0.1, "'-0.1': allowed values are numbers in [0, 1)"));

  static Stream<Arguments> badValues() {
    return BAD_VALUES.stream()
        .flatMap(
            bad ->
                Stream.of(Owner.values())
                    .filter(bad.appliesTo())
                    .map(
                        owner ->
                            argumentSet(
                                owner + " " + bad.param() + "=" + bad.value(), owner, bad)));
  }

  private static String refused(String param, String refusal) {
    return "Cannot set param " + param + " of " + UID + " to " + refusal;
  }

  private static void assertRefused(ThrowingCallable set, String param, String refusal) {
    assertThatThrownBy(set)
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage(refused(param, refusal));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aBadValueIsRefusedNamingWhatIsAllowedAndNotKept(Owner owner, Bad bad) {
    SGDParams params = owner.factory.get();
    Param<Object> param = params.getParam(bad.param());
    Object before = params.getOrDefault(param);

    assertRefused(() -> params.set(param, bad.value()), bad.param(), bad.refusal());
    assertThat(params.isSet(param)).isFalse();
    assertThat(params.getOrDefault(param)).isEqualTo(before);
  }

  /** The typed setters go through the same check: one each, on each estimator. */
  @Test
  void theTypedSettersRefuseBadValuesToo() {
    SGDClassifier classifier = new SGDClassifier(UID);
    assertRefused(
        () -> classifier.setLoss("squared"),
        "loss",
        "'squared': allowed values are logistic, hinge");
    assertRefused(
        () -> classifier.setMaxIter(0), "maxIter", "'0': allowed values are integers >= 1");
    assertRefused(() -> classifier.setTol(-1), "tol", "'-1.0': allowed values are numbers >= 0");
    assertRefused(
        () -> classifier.setStepSize(0), "stepSize", "'0.0': allowed values are numbers > 0");
    assertRefused(
        () -> classifier.setStepSchedule("step"),
        "stepSchedule",
        "'step': allowed values are constant, decay, invsqrt, adagrad");
    assertRefused(
        () -> classifier.setDecayRate(1.5),
        "decayRate",
        "'1.5': allowed values are numbers in (0, 1]");
    assertRefused(
        () -> classifier.setBatchSize(0), "batchSize", "'0': allowed values are integers >= 1");
    assertRefused(
        () -> classifier.setRegParam(-1), "regParam", "'-1.0': allowed values are numbers >= 0");
    assertRefused(
        () -> classifier.setElasticNetParam(1.5),
        "elasticNetParam",
        "'1.5': allowed values are numbers in [0, 1]");
    assertRefused(
        () -> classifier.setHandleInvalid("Skip"),
        "handleInvalid",
        "'Skip': allowed values are error, skip");
    assertRefused(
        () -> classifier.setThreshold(1.5),
        "threshold",
        "'1.5': allowed values are numbers in [0, 1]");
    assertRefused(
        () -> classifier.setFamily("softmax"),
        "family",
        "'softmax': allowed values are auto, binomial, multinomial");

    SGDRegressor regressor = new SGDRegressor(UID);
    assertRefused(
        () -> regressor.setLoss("logistic"),
        "loss",
        "'logistic': allowed values are squared, huber");
    assertRefused(
        () -> regressor.setEpsilon(0), "epsilon", "'0.0': allowed values are numbers > 0");
    assertRefused(
        () -> regressor.setDecayRate(0),
        "decayRate",
        "'0.0': allowed values are numbers in (0, 1]");

    SGDClassificationModel model = new SGDClassificationModel(UID, Vectors.dense(1, 2), 0.5);
    assertRefused(
        () -> model.setThreshold(1.5), "threshold", "'1.5': allowed values are numbers in [0, 1]");
  }

  static Stream<Arguments> boundaryValues() {
    return Stream.of(
        argumentSet("maxIter=1", "maxIter", 1),
        argumentSet("tol=0", "tol", 0.0),
        argumentSet("nIterNoChange=1", "nIterNoChange", 1),
        argumentSet("stepSize tiny", "stepSize", Double.MIN_VALUE),
        argumentSet("decayRate=1", "decayRate", 1.0),
        argumentSet("decayRate tiny", "decayRate", 1e-9),
        argumentSet("batchSize=1", "batchSize", 1),
        argumentSet("regParam=0", "regParam", 0.0),
        argumentSet("elasticNetParam=0", "elasticNetParam", 0.0),
        argumentSet("elasticNetParam=1", "elasticNetParam", 1.0),
        argumentSet("syncInterval=1", "syncInterval", "1"),
        argumentSet("syncMomentum=0", "syncMomentum", 0.0),
        argumentSet("syncMomentum below 1", "syncMomentum", Math.nextDown(1.0)));
  }

  /**
   * The edges of each allowed range are allowed, so the checks are not stricter than their messages
   * say.
   */
  @ParameterizedTest
  @MethodSource("boundaryValues")
  void theEdgesOfTheAllowedRangesAreAllowed(String name, Object value) {
    for (Owner owner : Owner.values()) {
      SGDParams params = owner.factory.get();
      params.set(params.getParam(name), value);
      assertThat(params.getOrDefault(params.getParam(name))).as(owner.toString()).isEqualTo(value);
    }
  }

  @Test
  void theEdgesOfThresholdAndEpsilonAreAllowed() {
    assertThat(new SGDClassifier(UID).setThreshold(0).getThreshold()).isEqualTo(0.0);
    assertThat(new SGDClassifier(UID).setThreshold(1).getThreshold()).isEqualTo(1.0);
    assertThat(new SGDRegressor(UID).setEpsilon(1e-9).getEpsilon()).isEqualTo(1e-9);
  }

  /** A refused threshold leaves the model as it was: its thresholds still decide. */
  @Test
  void aRefusedThresholdOnAModelKeepsItsThresholds() {
    SGDClassificationModel model = new SGDClassificationModel(UID, Vectors.dense(1, 2), 0.5);
    model.setThresholds(new double[] {0.3, 0.7});

    assertRefused(
        () -> model.setThreshold(1.5), "threshold", "'1.5': allowed values are numbers in [0, 1]");
    assertThat(model.isSet(model.thresholds())).as("thresholds still set").isTrue();
    assertThat(model.getThresholds()).containsExactly(0.3, 0.7);
  }

  // ---- saved and loaded -----------------------------------------------------------------------

  /** Something saved with a valid value, and how to load it. */
  private record Saved(Supplier<MLWritable> owner, Function<String, Params> load) {}

  private static final Saved CLASSIFIER =
      new Saved(() -> new SGDClassifier(UID).setLoss("hinge"), SGDClassifier::load);
  private static final Saved REGRESSOR =
      new Saved(() -> new SGDRegressor(UID).setEpsilon(2.0), SGDRegressor::load);
  private static final Saved CLASSIFICATION_MODEL =
      new Saved(
          () -> new SGDClassificationModel(UID, Vectors.dense(1, 2), 0.5).setThreshold(0.25),
          SGDClassificationModel::load);

  private static String save(Saved saved, Path dir) throws IOException {
    SharedSpark.get();
    String path = dir.resolve("saved").toString();
    saved.owner().get().save(path);
    return path;
  }

  static Stream<Arguments> loaded() {
    return Stream.of(
        argumentSet(
            "classifier", CLASSIFIER, "maxIter", 0, "'0': allowed values are integers >= 1"),
        argumentSet(
            "regressor", REGRESSOR, "loss", "hinge", "'hinge': allowed values are squared, huber"),
        argumentSet(
            "classification model",
            CLASSIFICATION_MODEL,
            "threshold",
            2.0,
            "'2.0': allowed values are numbers in [0, 1]"));
  }

  @ParameterizedTest
  @MethodSource("loaded")
  void aLoadedOwnerStillRefusesBadValues(
      Saved saved, String param, Object value, String refusal, @TempDir Path dir)
      throws IOException {
    Params loaded = saved.load().apply(save(saved, dir));
    assertThat(loaded.uid()).isEqualTo(UID);
    assertRefused(() -> loaded.set(loaded.getParam(param), value), param, refusal);
  }

  static Stream<Arguments> tampered() {
    return Stream.of(
        argumentSet(
            "classifier with a regression loss",
            CLASSIFIER,
            "\"loss\":\"hinge\"",
            "\"loss\":\"squared\"",
            refused("loss", "'squared': allowed values are logistic, hinge")),
        argumentSet(
            "regressor with epsilon 0",
            REGRESSOR,
            "\"epsilon\":2.0",
            "\"epsilon\":0.0",
            refused("epsilon", "'0.0': allowed values are numbers > 0")),
        argumentSet(
            "model with threshold 1.5",
            CLASSIFICATION_MODEL,
            "\"threshold\":0.25",
            "\"threshold\":1.5",
            refused("threshold", "'1.5': allowed values are numbers in [0, 1]")));
  }

  /** Metadata edited by hand (or written by another version) to a bad value cannot be loaded. */
  @ParameterizedTest
  @MethodSource("tampered")
  void loadingABadSavedValueFailsWithTheParamsMessage(
      Saved saved, String written, String edited, String message, @TempDir Path dir)
      throws IOException {
    String path = save(saved, dir);
    Path metadata;
    try (Stream<Path> files = Files.list(Path.of(path, "metadata"))) {
      metadata =
          files
              .filter(f -> f.getFileName().toString().startsWith("part-"))
              .findFirst()
              .orElseThrow();
    }
    String json = Files.readString(metadata);
    assertThat(json).contains(written);
    Files.writeString(metadata, json.replace(written, edited));
    Files.deleteIfExists(
        metadata.resolveSibling("." + metadata.getFileName() + ".crc")); // Hadoop checks it

    assertThatThrownBy(() -> saved.load().apply(path))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
