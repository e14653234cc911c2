package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.ServiceLoader;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.param.Params;
import org.junit.jupiter.api.Test;

/**
 * Spark Connect ML finds estimators and models through {@link ServiceLoader} over {@code
 * org.apache.spark.ml.Estimator} and {@code org.apache.spark.ml.Transformer}, and creates them by
 * their no-argument constructors: ours must be listed and constructible that way.
 */
class ConnectRegistrationTest {

  @Test
  void estimatorServicesListEveryEstimator() {
    List<Params> ours = ourProviders(Estimator.class);
    assertThat(ours)
        .extracting(Object::getClass)
        .containsExactlyInAnyOrder(SGDClassifier.class, SGDRegressor.class, ScheduledLasso.class);
    assertUsable(ours);
    assertThat(ours)
        .filteredOn(SGDClassifier.class::isInstance)
        .allSatisfy(e -> assertThat(((SGDClassifier) e).getLoss()).isEqualTo("logistic"));
    assertThat(ours)
        .filteredOn(SGDRegressor.class::isInstance)
        .allSatisfy(e -> assertThat(((SGDRegressor) e).getLoss()).isEqualTo("squared"));
  }

  @Test
  void transformerServicesListEveryModel() {
    List<Params> ours = ourProviders(Transformer.class);
    assertThat(ours)
        .extracting(Object::getClass)
        .containsExactlyInAnyOrder(
            SGDClassificationModel.class, SGDRegressionModel.class, ScheduledLassoModel.class);
    assertUsable(ours);
    assertThat(ours)
        .filteredOn(SGDClassificationModel.class::isInstance)
        .allSatisfy(m -> assertThat(((SGDClassificationModel) m).numClasses()).isEqualTo(2));
  }

  /**
   * Every provider of {@code service} from this project's package, instantiated as Spark Connect
   * does.
   */
  private static List<Params> ourProviders(Class<?> service) {
    return ServiceLoader.load(service).stream()
        .filter(p -> p.type().getPackageName().equals("io.corgipile.ml"))
        .peek(p -> assertPublicNoArgConstructor(p.type()))
        .map(p -> (Params) p.get())
        .toList();
  }

  private static void assertPublicNoArgConstructor(Class<?> type) {
    try {
      assertThat(Modifier.isPublic(type.getConstructor().getModifiers()))
          .as(type.getName())
          .isTrue();
    } catch (NoSuchMethodException e) {
      throw new AssertionError(type.getName() + " has no public no-arg constructor", e);
    }
  }

  /** An instance made by the no-arg constructor has a uid and every param with a default. */
  private static void assertUsable(List<Params> instances) {
    assertThat(instances)
        .allSatisfy(
            p -> {
              assertThat(p.uid()).isNotBlank();
              assertThat(p.params()).extracting(param -> param.parent()).containsOnly(p.uid());
              assertThat(p.hasDefault(p.getParam("maxIter"))).isTrue();
              assertThat(p.getOrDefault(p.getParam("maxIter")))
                  .isEqualTo(
                      p instanceof ScheduledLassoParams
                          ? ScheduledLassoParams.DEFAULT_MAX_ITER
                          : SGDParams.DEFAULT_MAX_ITER);
            });
  }
}
