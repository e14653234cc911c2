package io.corgipile.source;

import java.util.Optional;

/**
 * A file, row group or option of a {@code corgipile} scan could not be read; the message names it.
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

  /**
   * The first read error in {@code failure}'s cause chain: a task's error reaches the driver wrapped
   * in its Spark job's failure.
   */
  public static Optional<CorgiPileReadException> in(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CorgiPileReadException read) {
        return Optional.of(read);
      }
    }
    return Optional.empty();
  }
}
