package io.corgipile.shuffle;

import io.corgipile.options.EnumChoice;

/**
 * How a partition's rows are reordered within one epoch. A block is a Parquet row group, or a part
 * of one (the {@code blockSize} option).
 */
public enum ShuffleMode {
  /** Random block order, then whole blocks poured into a buffer whose tuples are shuffled. */
  CORGIPILE,
  /** Random block order only; the tuples of a block stay in storage order. */
  BLOCK,
  /** Storage order through a sliding window of tuples (tf.data's {@code shuffle(buffer)}). */
  WINDOW,
  /** Storage order. */
  NONE;

  /** The value users write in the {@code shuffle} option. */
  public String optionValue() {
    return EnumChoice.text(this);
  }

  /**
   * Whether rows pass through a buffer of {@code bufferSize} (the tuple buffer or the sliding
   * window), so a partition's stream is cut at buffer boundaries rather than at blocks.
   */
  public boolean buffersTuples() {
    return this == CORGIPILE || this == WINDOW;
  }

  /** Whether the order of blocks is randomized every epoch. */
  public boolean shufflesBlocks() {
    return this == CORGIPILE || this == BLOCK;
  }
}
