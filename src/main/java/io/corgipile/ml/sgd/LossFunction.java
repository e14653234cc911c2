package io.corgipile.ml.sgd;

/**
 * A loss of the margin {@code m = w.x + b} against a label, and its derivative in {@code m}: all
 * SGD needs, since the gradient in {@code w} is {@code derivative * x}. Classification labels are 0
 * and 1, read as the signs -1 and +1.
 */
public sealed interface LossFunction extends MarginsLoss {
  double value(double margin, double label);

  double derivative(double margin, double label);

  @Override
  default int numMargins() {
    return 1;
  }

  @Override
  default double lossAndDerivatives(double[] margins, double label, double[] derivatives) {
    derivatives[0] = derivative(margins[0], label);
    return value(margins[0], label);
  }

  /** The loss named by the {@code loss} param; {@code epsilon} is used by {@code huber} only. */
  static LossFunction named(String name, double epsilon) {
    switch (name) {
      case "logistic":
        return new Logistic();
      case "hinge":
        return new Hinge();
      case "squared":
        return new Squared();
      case "huber":
        return new Huber(epsilon);
      default:
        throw new IllegalArgumentException(
            "Cannot use loss '"
                + name
                + "': allowed values are "
                + String.join(", ", SGDTask.CLASSIFICATION.losses())
                + ", "
                + String.join(", ", SGDTask.REGRESSION.losses()));
    }
  }

  private static double sign(double label) {
    return label > 0.5 ? 1.0 : -1.0;
  }

  /** {@code log(1 + exp(-s m))}, computed without overflow. */
  record Logistic() implements LossFunction {
    @Override
    public double value(double margin, double label) {
      double z = sign(label) * margin;
      return z > 0 ? Math.log1p(Math.exp(-z)) : -z + Math.log1p(Math.exp(z));
    }

    @Override
    public double derivative(double margin, double label) {
      double s = sign(label);
      double z = s * margin;
      // -s * sigmoid(-z), in the form that does not overflow for either sign of z
      return z > 0 ? -s * Math.exp(-z) / (1 + Math.exp(-z)) : -s / (1 + Math.exp(z));
    }

    /**
     * {@link #value} and {@link #derivative}, exactly, from one {@code exp(-|z|)} instead of three.
     */
    @Override
    public double lossAndDerivatives(double[] margins, double label, double[] derivatives) {
      double s = sign(label);
      double z = s * margins[0];
      if (z > 0) {
        double e = Math.exp(-z);
        derivatives[0] = -s * e / (1 + e);
        return Math.log1p(e);
      }
      double e = Math.exp(z);
      derivatives[0] = -s / (1 + e);
      return -z + Math.log1p(e);
    }
  }

  /** {@code max(0, 1 - s m)}, as {@code LinearSVC}. */
  record Hinge() implements LossFunction {
    @Override
    public double value(double margin, double label) {
      return Math.max(0, 1 - sign(label) * margin);
    }

    @Override
    public double derivative(double margin, double label) {
      double s = sign(label);
      return s * margin < 1 ? -s : 0;
    }
  }

  /** {@code (m - y)^2 / 2}. */
  record Squared() implements LossFunction {
    @Override
    public double value(double margin, double label) {
      double r = margin - label;
      return 0.5 * r * r;
    }

    @Override
    public double derivative(double margin, double label) {
      return margin - label;
    }
  }

  /** Squared within {@code epsilon} of the label, linear beyond: robust to outliers. */
  record Huber(double epsilon) implements LossFunction {
    @Override
    public double value(double margin, double label) {
      double r = Math.abs(margin - label);
      return r <= epsilon ? 0.5 * r * r : epsilon * r - 0.5 * epsilon * epsilon;
    }

    @Override
    public double derivative(double margin, double label) {
      double r = margin - label;
      return r > epsilon ? epsilon : r < -epsilon ? -epsilon : r;
    }
  }
}
