package io.corgipile.source;

/**
 * A file, block or option of a {@code corgipile} scan could not be read; the message names it.
 * Thrown where the reading happens, in a task or on the driver; on the driver the source reports it
 * as a {@link CorgiPileAnalysisException}.
 */
public class CorgiPileReadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CorgiPileReadException(String message, Throwable cause) {
    super(message, cause);
  }

  public CorgiPileReadException(String message) {
    super(message);
  }
}
