package io.corgipile.source;

import io.corgipile.shuffle.SyncInterval;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Next rounds' first buffers, filled ahead on an executor while the current round trains: {@code V}
 * is what a fill leaves ({@link FilledSlice}), closed when nobody takes it.
 *
 * <p>Each round is a Spark job of its own, so a task's prefetch ends with its slice, and between
 * two rounds a core waits for the slowest partition and for the driver's merge. A task therefore
 * starts, on a thread of its own, the fill of its partition's next slice's first buffer once it
 * reads its own last fill and holds no other buffer, and, when the next slice reads one fill, the
 * slice after once it has let its own buffer go (which then fills while the driver merges the
 * round); the next rounds' tasks for that partition take them when they run on the same executor,
 * and read their slices themselves otherwise. A fill is a pure function of the scan, seed, epoch,
 * partition and round (the key), so which task filled a buffer never changes what it holds.
 *
 * <p>Memory: at most {@code capacity} fills are held at once (the driver passes twice the task
 * slots of an executor: each slot's partition holds its task's buffer and one ahead, or two ahead
 * between its tasks: the two buffers that {@code prefetch} budgets); a fill not taken within {@link
 * #UNCLAIMED_MILLIS} of its end, whose round another task of the same scan has passed, or whose
 * scan had a task fail, is closed and dropped.
 */
final class RoundLookahead<V extends Closeable> {
  private static final Logger LOG = LoggerFactory.getLogger(RoundLookahead.class);

  /**
   * How long a finished fill waits for its round's task, in milliseconds: long beside the driver's
   * merge between rounds; and the most a fit stopped between two rounds, when it has no task left
   * to kill, keeps its fills (threads and buffers) on the executors.
   */
  static final long UNCLAIMED_MILLIS = 10_000;

  /** The executor's fills ahead. */
  static final RoundLookahead<FilledSlice> EXECUTOR = new RoundLookahead<>(UNCLAIMED_MILLIS);

  /**
   * The slice a fill reads: its scan, seed, epoch, partition and round of an epoch of {@code
   * rounds}.
   */
  record Key(
      String scan,
      long seed,
      int epoch,
      int partition,
      int round,
      int rounds,
      SyncInterval interval) {
    /** A key of the same scan and seed for an earlier round, whose task has been and gone. */
    boolean precedes(Key other) {
      return scan.equals(other.scan)
          && seed == other.seed
          && (epoch < other.epoch || epoch == other.epoch && round < other.round);
    }
  }

  /** Opens a slice and fills its first buffer. */
  @FunctionalInterface
  interface Fill<V> {
    V fill() throws Exception;
  }

  private final long unclaimedMillis;
  private final Map<Key, Pending> pending = new HashMap<>();

  RoundLookahead(long unclaimedMillis) {
    this.unclaimedMillis = unclaimedMillis;
  }

  /**
   * Starts filling {@code key}'s slice on a daemon thread, unless it is already held or {@code
   * capacity} fills are.
   *
   * @return whether the fill was started
   */
  synchronized boolean start(Key key, int capacity, Fill<V> fill) {
    if (pending.containsKey(key) || pending.size() >= capacity) {
      LOG.debug(
          "corgipile: not filling {} ahead: {}",
          key,
          pending.containsKey(key) ? "already held" : pending.size() + " fills held, the capacity");
      return false;
    }
    Pending p = new Pending(key, fill);
    pending.put(key, p);
    p.thread.start();
    return true;
  }

  /**
   * The filled slice of {@code key}, after waiting for its fill; null when no fill of it was
   * started on this executor or the fill failed (the task then reads the slice itself, and meets
   * the failure again, with its own context). Drops the fills of the scan's earlier rounds.
   */
  V take(Key key) throws InterruptedException {
    Pending p;
    List<Pending> stale = new ArrayList<>();
    synchronized (this) {
      p = pending.remove(key);
      pending.values().removeIf(other -> other.key.precedes(key) && stale.add(other));
    }
    stale.forEach(Pending::drop);
    if (p == null) {
      LOG.debug("corgipile: {} was not filled ahead on this executor", key);
      return null;
    }
    return p.claim();
  }

  /**
   * Drops every fill of {@code scan}, closing each when its fill ends: a task of the scan failed or
   * was killed, so its job may not go on, and the fills would otherwise be held until they expire.
   * A retried task fills its next round again.
   */
  void drop(String scan) {
    List<Pending> dropped = new ArrayList<>();
    synchronized (this) {
      pending.values().removeIf(p -> p.key.scan().equals(scan) && dropped.add(p));
    }
    dropped.forEach(Pending::drop);
  }

  /** Fills held or in progress. */
  synchronized int size() {
    return pending.size();
  }

  /** The slices of the fills held or in progress. */
  synchronized List<Key> keys() {
    return new ArrayList<>(pending.keySet());
  }

  private synchronized void expire(Pending p) {
    pending.remove(p.key, p);
  }

  /** One fill ahead and the thread that runs it, then waits for its taker. */
  private final class Pending {
    private final Key key;
    private final Thread thread;
    private V filled;
    private boolean done;
    private boolean claimed;
    private boolean dropped;

    Pending(Key key, Fill<V> fill) {
      this.key = key;
      this.thread =
          new Thread(
              () -> run(fill),
              "corgipile-lookahead-partition-"
                  + key.partition()
                  + "-epoch-"
                  + key.epoch()
                  + "-round-"
                  + key.round());
      thread.setDaemon(true);
    }

    private void run(Fill<V> fill) {
      V result = null;
      try {
        result = fill.fill();
      } catch (InterruptedException e) {
        // dropped while filling
      } catch (Exception | Error e) {
        LOG.debug(
            "corgipile: filling {} ahead failed; its task will read the slice itself", key, e);
      }
      synchronized (this) {
        filled = result;
        done = true;
        notifyAll();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(unclaimedMillis);
        try {
          while (!claimed && !dropped) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
              break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
          }
        } catch (InterruptedException e) {
          // dropped
        }
        if (claimed) {
          return;
        }
        dropped = true;
      }
      expire(this);
      if (result != null) {
        try {
          result.close();
        } catch (IOException | RuntimeException e) {
          LOG.debug("corgipile: closing {}, filled ahead and not taken, failed", key, e);
        }
      }
    }

    /** Waits for the fill; null when it failed or this was dropped first. */
    synchronized V claim() throws InterruptedException {
      while (!done) {
        wait();
      }
      if (dropped || filled == null) {
        return null;
      }
      claimed = true;
      notifyAll();
      return filled;
    }

    void drop() {
      synchronized (this) {
        if (claimed) {
          return;
        }
        dropped = true;
        notifyAll();
      }
      thread.interrupt();
    }
  }
}
