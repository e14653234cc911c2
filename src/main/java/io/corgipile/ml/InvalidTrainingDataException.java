package io.corgipile.ml;

/** The training data cannot be used as it is: a row, a column or the whole dataset. */
public final class InvalidTrainingDataException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public InvalidTrainingDataException(String message) {
    super(message);
  }

  public InvalidTrainingDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
