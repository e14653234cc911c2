package io.corgipile.options;

/** A bad command line or option value; the message names the option and what it allows. */
public class OptionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public OptionException(String message) {
    super(message);
  }
}
