package io.corgipile.table;

/**
 * A table snapshot that cannot be planned: no such table or version, a feature the reader does not
 * honour, or the format's library missing from the class path. The message says what to do.
 */
public class TableReadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TableReadException(String message) {
    super(message);
  }

  public TableReadException(String message, Throwable cause) {
    super(message, cause);
  }
}
