package io.corgipile.cli;

/** A bad command line: {@link Train} prints the message and exits with status 2. */
final class UsageException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
