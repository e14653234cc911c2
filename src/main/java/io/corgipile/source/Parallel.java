package io.corgipile.source;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Planning work the driver runs on a pool of its own: each task mostly waits on storage (a footer,
 * a page index, a folder's status), so threads beyond the cores pay off, which a parallel stream on
 * the common pool (one thread per core) would not give.
 */
final class Parallel {
  private static final int MAX_THREADS = 32;

  private Parallel() {}

  /**
   * {@code work} of each index in [0, count) on at most {@value #MAX_THREADS} threads, the results
   * in index order; the first failure, in index order, is thrown.
   *
   * @param doing what the work does, for the error when interrupted: "reading Parquet footers"
   */
  static <T> List<T> map(int count, String doing, IntFunction<T> work) {
    int threads = Math.max(1, Math.min(MAX_THREADS, count));
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "corgipile-planner");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        futures.add(pool.submit(() -> work.apply(index)));
      }
      List<T> results = new ArrayList<>(count);
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IllegalStateException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot plan the scan: interrupted while " + doing, e);
    } finally {
      pool.shutdownNow();
    }
  }
}
