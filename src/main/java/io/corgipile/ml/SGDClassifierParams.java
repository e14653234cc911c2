package io.corgipile.ml;

import io.corgipile.ml.param.ParamSpec;
import io.corgipile.ml.sgd.SGDTask;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.Param;

/** The params of {@link SGDClassifier} and {@link SGDClassificationModel}. */
public interface SGDClassifierParams extends SGDParams {
  /**
   * Default of {@link #stepSize()} for the classifier: its losses' derivatives are bounded by 1.
   */
  double DEFAULT_STEP_SIZE = 0.1;

  /** Default of {@link #threshold()}. */
  double DEFAULT_THRESHOLD = 0.5;

  /**
   * {@link #family()}: multinomial when the labels name more than two classes, else binomial (the
   * default).
   */
  String FAMILY_AUTO = "auto";

  /** {@link #family()}: one margin, labels 0 and 1. */
  String FAMILY_BINOMIAL = "binomial";

  /** {@link #family()}: one margin per class (softmax), labels 0..K-1. */
  String FAMILY_MULTINOMIAL = "multinomial";

  /** The values {@link #family()} takes; the first is the default. */
  List<String> FAMILIES = List.of(FAMILY_AUTO, FAMILY_BINOMIAL, FAMILY_MULTINOMIAL);

  /**
   * The most classes a multinomial model has: K rows of coefficients travel to and from every
   * partition each round, so a stray large label must not make one by the million.
   */
  int MAX_CLASSES = 1000;

  ParamSpec<Double> THRESHOLD =
      ParamSpec.fraction(
          "threshold", "predict 1 when the probability of 1 exceeds this", DEFAULT_THRESHOLD);
  ParamSpec<String> FAMILY =
      ParamSpec.choice(
          "family",
          "binomial (one margin, labels 0 and 1), multinomial (one margin per class, labels 0..K-1,"
              + " logistic loss only) or auto (multinomial when the labels name more than two"
              + " classes)",
          FAMILIES,
          FAMILY_AUTO);

  /** The params of the classifier and its models. */
  List<ParamSpec<?>> SPECS =
      Stream.concat(
              SGDParams.COMMON_SPECS.stream(),
              Stream.of(
                  SGDParams.lossSpec(SGDTask.CLASSIFICATION.losses()),
                  SGDParams.stepSizeSpec(DEFAULT_STEP_SIZE),
                  THRESHOLD,
                  FAMILY))
          .toList();

  /**
   * Predict 1 when the probability of 1 exceeds this (default {@value #DEFAULT_THRESHOLD}); binary
   * models only.
   */
  default DoubleParam threshold() {
    return sgdParams().get(THRESHOLD);
  }

  default double getThreshold() {
    return (Double) $(threshold());
  }

  /**
   * One of {@link #FAMILIES}, as {@code LogisticRegression}'s: {@code auto} (default) trains a
   * multinomial model when the labels name more than two classes (K from the label column's
   * metadata, else the largest label + 1), {@code binomial} one margin on labels 0 and 1, {@code
   * multinomial} one margin per class with the softmax loss. {@code multinomial} needs the {@code
   * logistic} loss: {@code hinge} is binary.
   */
  default Param<String> family() {
    return sgdParams().get(FAMILY);
  }

  default String getFamily() {
    return $(family());
  }
}
