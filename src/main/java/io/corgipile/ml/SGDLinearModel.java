package io.corgipile.ml;

import io.corgipile.ml.common.LinearFit;
import io.corgipile.ml.common.LinearModelData;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;

/**
 * What both SGD models share, written once: their coefficients, intercept and training summary, all
 * read from one {@link LinearFit}, and how they are saved. Java allows no common base class under
 * MLlib's two Scala parents, so this is an interface over an accessor; what a default method cannot
 * hold (fields, constructors, overrides of the parents' methods such as {@code numFeatures}, static
 * {@code read}/{@code load}) stays in each model.
 */
public interface SGDLinearModel extends SGDParams, MLWritable {
  /**
   * The model's fit, behind the methods below. Its type is package-private: outside this package
   * use them instead.
   */
  LinearFit fit();

  /**
   * The weights {@code w} of {@code w.x + b}; a multinomial classifier has a matrix of them
   * instead.
   */
  default Vector coefficients() {
    return fit().coefficients(uid());
  }

  /**
   * The intercept {@code b} of {@code w.x + b}; a multinomial classifier has a vector of them
   * instead.
   */
  default double intercept() {
    return fit().intercept(uid());
  }

  /** Whether {@link #summary()} is available: only on a model just trained, not on a loaded one. */
  default boolean hasSummary() {
    return fit().hasSummary();
  }

  /** How training went; fails on a model that {@link #hasSummary()} says has none. */
  default SGDTrainingSummary summary() {
    return fit().summary(uid());
  }

  /** Saves the params and the coefficients as {@link LinearModelData} says. */
  @Override
  default MLWriter write() {
    return new LinearModelData.Writer(this, fit());
  }
}
