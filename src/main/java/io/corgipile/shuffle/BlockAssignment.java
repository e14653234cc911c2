package io.corgipile.shuffle;

import io.corgipile.options.EnumChoice;

/** How blocks (row groups, or parts of them) are distributed over a scan's partitions. */
public enum BlockAssignment {
  /** Every epoch the (shuffled) list of all blocks is cut anew into contiguous slices. */
  EPOCH,
  /** A block stays on one partition for all epochs; only the order within it changes. */
  FIXED;

  /** The value users write in the {@code blockAssignment} option. */
  public String optionValue() {
    return EnumChoice.text(this);
  }
}
