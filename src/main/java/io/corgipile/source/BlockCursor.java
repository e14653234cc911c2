package io.corgipile.source;

import io.corgipile.spark.BlockBatches;
import io.corgipile.spark.BlockRows;
import java.io.Closeable;
import java.io.IOException;

/**
 * A partition's blocks in the epoch's order, opened one at a time as rows or as batches: the
 * current block is closed before the next one opens, and errors name the current block. It owns its
 * {@link BlockOpener}.
 */
final class BlockCursor<T extends Closeable> implements Closeable {
  /** How a block is opened: as rows or as column batches. */
  @FunctionalInterface
  private interface Open<T> {
    T open(Block block) throws IOException;
  }

  private final BlockOpener opener;
  private final int[] order;
  private final Open<T> how;
  private int nextBlock;
  private Block current;
  private T opened;

  private BlockCursor(BlockOpener opener, int[] order, Open<T> how) {
    this.opener = opener;
    this.order = order;
    this.how = how;
  }

  /** The blocks {@code order} (indexes into the plan) opened as decoded rows. */
  static BlockCursor<BlockRows> rows(BlockOpener opener, int[] order) {
    return new BlockCursor<>(opener, order, opener::rows);
  }

  /** The blocks {@code order} (indexes into the plan) opened as column batches. */
  static BlockCursor<BlockBatches> batches(BlockOpener opener, int[] order) {
    return new BlockCursor<>(opener, order, opener::batches);
  }

  /** Whether another block remains after the current one. */
  boolean hasNext() {
    return nextBlock < order.length;
  }

  /** Closes the current block and opens the next one. */
  T openNext() throws IOException {
    closeCurrent();
    current = opener.block(order[nextBlock++]);
    opened = how.open(current);
    return opened;
  }

  /** An error reading the current block, naming it and its file. */
  CorgiPileReadException failure(Exception e) {
    return opener.failure(current, e);
  }

  /** Closes the current block, if one is open. */
  void closeCurrent() throws IOException {
    if (opened != null) {
      T o = opened;
      opened = null;
      o.close();
    }
  }

  /** Closes the current block, then the files the blocks were read from. */
  @Override
  public void close() throws IOException {
    try {
      closeCurrent();
    } finally {
      opener.close();
    }
  }
}
