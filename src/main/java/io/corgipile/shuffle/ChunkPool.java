package io.corgipile.shuffle;

import java.lang.ref.SoftReference;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The chunks of finished tasks' buffers, kept in this JVM for the next tasks' buffers.
 *
 * <p>Every task makes its buffers anew, and a buffer's chunks are a tenth of a partition's rows by
 * default. Allocated afresh by each task, they cost the zeroing of that memory every epoch, and the
 * last task's chunks lie as garbage in the old generation beside the next task's live ones, so the
 * heap held more than the buffer bound. Handed on, the next task's buffer takes them instead of
 * allocating. Each returned set is held softly: the collector frees it before the JVM would run out
 * of memory, so the pool never costs a task memory it needs.
 */
final class ChunkPool {
  /** This JVM's pool: tasks on an executor run in one JVM. */
  static final ChunkPool SHARED = new ChunkPool();

  private final ConcurrentLinkedDeque<SoftReference<byte[][]>> sets = new ConcurrentLinkedDeque<>();

  /** A set of chunks that some buffer released, or null when none is kept. */
  byte[][] take() {
    SoftReference<byte[][]> set;
    while ((set = sets.pollFirst()) != null) {
      byte[][] chunks = set.get();
      if (chunks != null) {
        return chunks;
      }
    }
    return null;
  }

  /** Keeps {@code chunks}, which their buffer no longer reads, for a later {@link #take}. */
  void give(List<byte[]> chunks) {
    if (!chunks.isEmpty()) {
      sets.addFirst(new SoftReference<>(chunks.toArray(new byte[0][])));
    }
  }
}
