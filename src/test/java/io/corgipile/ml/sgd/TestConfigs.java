package io.corgipile.ml.sgd;

import io.corgipile.ml.SGDClassifier;

/**
 * Run settings for the tests of the update rules, made as a fit makes them: from an estimator's
 * params.
 */
public final class TestConfigs {
  private TestConfigs() {}

  /**
   * A binary logistic run on the vector column "features" with {@code params}, its L1 and L2
   * strengths {@code l1} and {@code l2} (as regParam and elasticNetParam give them).
   */
  public static SGDConfig logistic(SGDClassifier params, double l1, double l2) {
    double reg = l1 + l2;
    params.setRegParam(reg).setElasticNetParam(reg == 0 ? 0 : l1 / reg);
    return SGDConfig.of(
        params, SGDTask.CLASSIFICATION, "features", "label", 2, new LossFunction.Logistic());
  }
}
