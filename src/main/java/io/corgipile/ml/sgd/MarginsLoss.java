package io.corgipile.ml.sgd;

import java.io.Serializable;

/**
 * A loss of a row's margins, one per linear model ({@code m_k = w_k.x + b_k}), against its label,
 * and its derivatives in the margins: all SGD needs, since the gradient in {@code w_k} is {@code
 * derivative_k * x}. One margin for binary classification and regression ({@link LossFunction}),
 * one per class for multinomial ({@link Softmax}).
 */
public interface MarginsLoss extends Serializable {
  /** The margins a row has: the linear models trained side by side. */
  int numMargins();

  /**
   * The row's loss; its derivative in margin k goes to {@code derivatives[k]}.
   *
   * @param margins {@link #numMargins()} finite margins
   */
  double lossAndDerivatives(double[] margins, double label, double[] derivatives);
}
