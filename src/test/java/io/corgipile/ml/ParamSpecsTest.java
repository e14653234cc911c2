package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.ml.param.ParamSpec;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each stage's params are its specs: every spec is a param MLlib finds (its accessor exists), with
 * the spec's default, and the run's settings read it by spec.
 */
class ParamSpecsTest {
  static Stream<Arguments> stages() {
    return Stream.of(
        Arguments.of(new SGDClassifier(), SGDClassifierParams.SPECS),
        Arguments.of(new SGDRegressor(), SGDRegressorParams.SPECS),
        Arguments.of(new ScheduledLasso(), ScheduledLassoParams.SPECS));
  }

  @ParameterizedTest
  @MethodSource("stages")
  void everySpecIsAParamWithItsDefault(Params stage, List<ParamSpec<?>> specs) {
    List<String> names = Arrays.stream(stage.params()).map(Param::name).toList();
    for (ParamSpec<?> spec : specs) {
      assertThat(names)
          .as("params of %s (an accessor for each spec)", stage.uid())
          .contains(spec.name());
      Param<?> param = stage.getParam(spec.name());
      Object value = stage.getDefault(param).get();
      if (spec.defaultValue() instanceof String[] columns) {
        assertThat((String[]) value).containsExactly(columns);
      } else {
        assertThat(value).as("default of %s", spec.name()).isEqualTo(spec.defaultValue());
      }
      assertThat(param.parent()).isEqualTo(stage.uid());
    }
    assertThat(specs.stream().map(ParamSpec::name).distinct().count())
        .as("names declared once")
        .isEqualTo(specs.size());
  }

  @ParameterizedTest
  @MethodSource("stages")
  void aCopyHasItsOwnParamsUnderTheSameUid(Params stage, List<ParamSpec<?>> specs) {
    Params copy = stage.copy(new org.apache.spark.ml.param.ParamMap());
    assertThat(copy.uid()).isEqualTo(stage.uid());
    for (ParamSpec<?> spec : specs) {
      assertThat(copy.getParam(spec.name())).isEqualTo(stage.getParam(spec.name()));
    }
  }

  @org.junit.jupiter.api.Test
  void anUnknownNameSaysWhichParamsThereAre() {
    SGDClassifier classifier = new SGDClassifier();
    assertThatThrownBy(() -> classifier.sgdParams().get("maxIters"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot find param maxIters of " + classifier.uid() + ": it has [maxIter, ");
  }
}
