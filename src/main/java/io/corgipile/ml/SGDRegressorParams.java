package io.corgipile.ml;

import io.corgipile.ml.param.ParamSpec;
import io.corgipile.ml.sgd.SGDTask;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.ml.param.DoubleParam;

/** The params of {@link SGDRegressor} and {@link SGDRegressionModel}. */
public interface SGDRegressorParams extends SGDParams {
  /**
   * Default of {@link #stepSize()} for the regressor: the squared loss's derivative grows with the
   * error.
   */
  double DEFAULT_STEP_SIZE = 0.01;

  /** Default of {@link #epsilon()}. */
  double DEFAULT_EPSILON = 1.35;

  ParamSpec<Double> EPSILON =
      ParamSpec.positive(
          "epsilon", "where the huber loss turns from squared to linear", DEFAULT_EPSILON);

  /** The params of the regressor and its models. */
  List<ParamSpec<?>> SPECS =
      Stream.concat(
              SGDParams.COMMON_SPECS.stream(),
              Stream.of(
                  SGDParams.lossSpec(SGDTask.REGRESSION.losses()),
                  SGDParams.stepSizeSpec(DEFAULT_STEP_SIZE),
                  EPSILON))
          .toList();

  /**
   * Where the {@code huber} loss turns from squared to linear, in label units (default {@value
   * #DEFAULT_EPSILON}).
   */
  default DoubleParam epsilon() {
    return sgdParams().get(EPSILON);
  }

  default double getEpsilon() {
    return (Double) $(epsilon());
  }
}
