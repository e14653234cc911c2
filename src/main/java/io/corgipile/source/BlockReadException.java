package io.corgipile.source;

/**
 * A block could not be read; the message already names it (its rows and row group) and its file.
 */
final class BlockReadException extends CorgiPileReadException {
  private static final long serialVersionUID = 1L;

  BlockReadException(String message, Throwable cause) {
    super(message, cause);
  }
}
