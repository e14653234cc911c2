package io.corgipile.shuffle;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Double buffering: a background thread fills one buffer while the caller consumes the other. With
 * one buffer, the thread fills it again only once the caller has handed it back: no reading ahead,
 * but a fill the caller can watch ({@link Progress}) instead of running it on its own thread.
 *
 * <p>The filler runs strictly sequentially, one buffer after the other, so what each buffer holds
 * does not depend on thread timing. At most two buffers exist: the one being consumed and the one
 * being filled.
 *
 * @param <B> the buffer type
 */
public final class Prefetcher<B> implements AutoCloseable {
  /** Fills a buffer; returns false, leaving it empty, when the input is exhausted. */
  @FunctionalInterface
  public interface Filler<B> {
    boolean fill(B buffer) throws Exception;
  }

  /**
   * The filler's progress, by which a consumer waiting for a buffer tells a filler that works from
   * one that spins: Spark's vectorized Parquet decoder can loop forever on a damaged page and
   * ignores interrupts. The reader checks pages for the damage known to do that; this catches the
   * rest.
   */
  public interface Progress {
    /**
     * Rows (or any unit of work) the filler has produced so far; read from the consumer's thread.
     */
    long count();

    /** The error the consumer fails with when the filler spins, saying what it was reading. */
    RuntimeException stalled(String why);
  }

  /** No progress for this long while busy on a core: no decoder works that long on one batch. */
  static final long STALL_MILLIS = TimeUnit.SECONDS.toMillis(30);

  /**
   * Busy: the filler had at least 1/10 of the wall time on a core. A filler waiting on storage has
   * next to none; one spinning on a machine with ten times more runnable threads than cores still
   * has that much.
   */
  private static final int BUSY_SHARE = 10;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final Object END = new Object();

  /** How often a filler waiting for a buffer checks whether the consumer has closed. */
  private static final long STOP_CHECK_MILLIS = 100;

  private final BlockingQueue<B> free = new ArrayBlockingQueue<>(2);
  private final BlockingQueue<Object> filled = new ArrayBlockingQueue<>(3);
  private final Thread thread;
  private final long stopWaitMillis;
  private final Progress progress;
  private final long stallNanos;
  private B current;
  private boolean ended;
  private Throwable failure;
  private boolean fillerEnded;
  private volatile boolean stopping;
  private AutoCloseable closeAfterFiller;

  public Prefetcher(String threadName, Filler<B> filler, B first, B second) {
    this(threadName, filler, first, second, null);
  }

  /**
   * @param second the buffer filled while the caller reads the first, or null for one buffer
   * @param progress the filler's progress, watched while the consumer waits; null: not watched
   */
  public Prefetcher(String threadName, Filler<B> filler, B first, B second, Progress progress) {
    this(threadName, filler, first, second, TimeUnit.SECONDS.toMillis(30), progress, STALL_MILLIS);
  }

  /**
   * Double buffering that starts from a buffer filled elsewhere: the caller reads {@code held}
   * while the filler fills {@code free}, and {@code held} goes back to the filler at the first
   * {@link #next}, as a buffer this prefetcher had returned would.
   */
  public static <B> Prefetcher<B> holding(
      String threadName, Filler<B> filler, B held, B free, Progress progress) {
    Prefetcher<B> prefetcher = new Prefetcher<>(threadName, filler, free, null, progress);
    prefetcher.current = held;
    return prefetcher;
  }

  /**
   * @param stopWaitMillis how long {@link #close} waits for the filler to end
   * @param stallMillis how long a filler busy on a core without progress is waited for
   */
  Prefetcher(
      String threadName,
      Filler<B> filler,
      B first,
      B second,
      long stopWaitMillis,
      Progress progress,
      long stallMillis) {
    this.stopWaitMillis = stopWaitMillis;
    this.progress = progress;
    this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
    free.add(first);
    if (second != null) {
      free.add(second);
    }
    thread = new Thread(() -> run(filler), threadName);
    thread.setDaemon(true);
    thread.start();
  }

  private void run(Filler<B> filler) {
    try {
      fill(filler);
    } finally {
      AutoCloseable input;
      synchronized (this) {
        fillerEnded = true;
        input = closeAfterFiller;
      }
      closeQuietly(input);
    }
  }

  private void fill(Filler<B> filler) {
    try {
      B buffer;
      while ((buffer = nextFree()) != null) {
        if (!filler.fill(buffer)) {
          filled.put(END);
          return;
        }
        filled.put(buffer);
      }
    } catch (InterruptedException e) {
      // closed by the consumer
    } catch (Throwable t) {
      filled.offer(new Failure(t));
    }
  }

  /**
   * The next buffer to fill, once the consumer hands one back; null once it has closed. Not only
   * the interrupt ends the wait: the libraries a filler runs may swallow it (catch an {@code
   * InterruptedException} and go on), and a filler that then waited for a buffer nobody returns
   * would outlive its task.
   */
  private B nextFree() throws InterruptedException {
    B buffer;
    do {
      buffer = free.poll(STOP_CHECK_MILLIS, TimeUnit.MILLISECONDS);
    } while (buffer == null && !stopping);
    return stopping ? null : buffer;
  }

  /**
   * Returns the next filled buffer, or null when the input is exhausted. The buffer returned by the
   * previous call goes back to the filler, so it must no longer be read.
   */
  @SuppressWarnings("unchecked")
  public B next() throws InterruptedException {
    if (failure != null) {
      throw rethrow(failure);
    }
    if (ended) {
      return null;
    }
    if (current != null) {
      free.put(current);
      current = null;
    }
    Object item = awaitFilled();
    if (item == END) {
      ended = true;
      return null;
    }
    if (item instanceof Failure) {
      // Sticky: a caller that catches the failure and asks again must not see a normal end.
      failure = ((Failure) item).cause;
      throw rethrow(failure);
    }
    current = (B) item;
    return current;
  }

  /**
   * The next filled buffer, the end or the filler's failure; or, when the filler has been busy on a
   * core ({@link #BUSY_SHARE}) for {@code stallNanos} without any progress, its {@link
   * Progress#stalled} error. A filler waiting on storage is waited for.
   */
  private Object awaitFilled() throws InterruptedException {
    long cpu = fillerCpuNanos();
    if (progress == null || cpu < 0) {
      return filled.take();
    }
    long count = progress.count();
    long since = System.nanoTime();
    while (true) {
      Object item = filled.poll(Math.max(1, stallNanos / 6), TimeUnit.NANOSECONDS);
      if (item != null) {
        return item;
      }
      long now = System.nanoTime();
      long nowCount = progress.count();
      long nowCpu = fillerCpuNanos();
      if (nowCount != count || nowCpu < 0) {
        count = nowCount;
        cpu = nowCpu;
        since = now;
      } else if (now - since >= stallNanos) {
        if (nowCpu - cpu >= (now - since) / BUSY_SHARE) {
          failure =
              progress.stalled(
                  String.format(
                      "the decoder made no progress in %d s while busy on a CPU core. Spark's"
                          + " vectorized Parquet decoder loops forever on some damaged pages, and"
                          + " this one passed the reader's page checks. The decoding thread ignores"
                          + " interrupts and stays busy until the JVM exits",
                      TimeUnit.NANOSECONDS.toSeconds(now - since)));
          throw rethrow(failure);
        }
        cpu = nowCpu;
        since = now;
      }
    }
  }

  /**
   * The filler thread's CPU time, or -1 where the JVM cannot tell (and then nothing is watched).
   */
  private long fillerCpuNanos() {
    try {
      return THREADS.isThreadCpuTimeSupported() ? THREADS.getThreadCpuTime(thread.getId()) : -1;
    } catch (UnsupportedOperationException e) {
      return -1;
    }
  }

  private static RuntimeException rethrow(Throwable cause) {
    if (cause instanceof RuntimeException) {
      throw (RuntimeException) cause;
    }
    if (cause instanceof Error) {
      throw (Error) cause;
    }
    return new IllegalStateException(cause.getMessage(), cause);
  }

  /** Stops the filler and waits for it, so the caller may then close what the filler reads. */
  @Override
  public void close() throws InterruptedException {
    stopping = true;
    thread.interrupt();
    thread.join(stopWaitMillis);
  }

  /**
   * {@link #close}, for a caller that cannot throw {@link InterruptedException}: an interrupt while
   * waiting is kept as the thread's interrupt status.
   *
   * @return whether the filler has ended, so it no longer touches either buffer
   */
  public boolean stop() {
    try {
      close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return !thread.isAlive();
  }

  /**
   * {@link #stop}, then closes {@code input}, what the filler reads, once the filler has ended: at
   * once if it ended within the wait, else from the filler's thread when it ends. A filler stuck in
   * a decoder (Spark's vectorized reader can loop on a damaged page and ignores the interrupt) must
   * not have its decoder closed under it: that crashed the JVM with a SIGSEGV in an unsafe copy.
   *
   * @return whether the filler had ended, so it no longer touches either buffer
   */
  public boolean stopThenClose(AutoCloseable input) throws Exception {
    stop();
    synchronized (this) {
      if (!fillerEnded) {
        closeAfterFiller = input;
        return false;
      }
    }
    input.close();
    return true;
  }

  private static void closeQuietly(AutoCloseable input) {
    if (input == null) {
      return;
    }
    try {
      input.close();
    } catch (Exception e) {
      // the task that owned it has ended; nobody is left to tell
    }
  }

  private static final class Failure {
    final Throwable cause;

    Failure(Throwable cause) {
      this.cause = cause;
    }
  }
}
