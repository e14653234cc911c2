package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a filler reads is never closed under it, even when it ignores the stop; and a filler that
 * spins without progress fails the consumer instead of keeping it waiting for ever.
 */
class PrefetcherStopTest {
  @Test
  void aFillerThatIgnoresTheInterruptClosesItsInputWhenItEnds() throws Exception {
    AtomicBoolean release = new AtomicBoolean();
    CountDownLatch filling = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Prefetcher<int[]> prefetcher =
        new Prefetcher<>(
            "test-prefetch",
            buffer -> {
              filling.countDown();
              while (!release.get()) { // as a decoder looping on a damaged page: deaf to interrupts
                Thread.onSpinWait();
              }
              return false;
            },
            new int[1],
            new int[1],
            50,
            null,
            Prefetcher.STALL_MILLIS);
    filling.await();

    boolean ended = prefetcher.stopThenClose(closed::countDown);

    assertThat(ended).isFalse();
    assertThat(closed.getCount()).as("closed while the filler still runs").isEqualTo(1);
    release.set(true);
    assertThat(closed.await(10, TimeUnit.SECONDS)).as("closed once the filler ended").isTrue();
  }

  @Test
  void aFillerThatStopsHasItsInputClosedAtOnce() throws Exception {
    CountDownLatch filling = new CountDownLatch(1);
    Prefetcher<int[]> prefetcher =
        new Prefetcher<>(
            "test-prefetch",
            buffer -> {
              filling.countDown();
              Thread.sleep(60_000);
              return true;
            },
            new int[1],
            new int[1],
            10_000,
            null,
            Prefetcher.STALL_MILLIS);
    filling.await();
    AtomicBoolean closed = new AtomicBoolean();
    assertThat(prefetcher.stopThenClose(() -> closed.set(true))).isTrue();
    assertThat(closed).isTrue();
  }

  /** A progress counter the test moves, failing with a message that names what was read. */
  private static final class Counter implements Prefetcher.Progress {
    final AtomicLong rows = new AtomicLong();

    @Override
    public long count() {
      return rows.get();
    }

    @Override
    public RuntimeException stalled(String why) {
      return new IllegalStateException("Cannot read row group 7 of f.parquet: " + why);
    }
  }

  @Test
  @Timeout(60)
  void aFillerSpinningWithoutProgressFailsTheConsumerNamingWhatItRead() throws Exception {
    AtomicBoolean release = new AtomicBoolean();
    Prefetcher<int[]> prefetcher =
        new Prefetcher<>(
            "test-prefetch",
            buffer -> {
              while (!release
                  .get()) { // busy on a core, as Spark's decoder looping on a damaged page
                Thread.onSpinWait();
              }
              return false;
            },
            new int[1],
            new int[1],
            50,
            new Counter(),
            600);
    try {
      long start = System.nanoTime();
      assertThatThrownBy(prefetcher::next)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith(
              "Cannot read row group 7 of f.parquet: the decoder made no progress in ")
          .hasMessageContaining("s while busy on a CPU core")
          .hasMessageContaining("stays busy until the JVM exits");
      assertThat(System.nanoTime() - start)
          .as("waited the stall time")
          .isGreaterThanOrEqualTo(600_000_000L);
      assertThatThrownBy(prefetcher::next)
          .as("sticky")
          .hasMessageStartingWith("Cannot read row group 7");
    } finally {
      release.set(true);
      prefetcher.close();
    }
  }

  @Test
  void aFillerThatWaitsOrProgressesIsWaitedFor() throws Exception {
    Counter counter = new Counter();
    long stallMillis = 300;
    Prefetcher<int[]> prefetcher =
        new Prefetcher<>(
            "test-prefetch",
            buffer -> {
              Thread.sleep(3 * stallMillis); // waiting on storage: no progress, but no CPU either
              long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * stallMillis);
              while (System.nanoTime() < until) { // busy, and producing rows
                counter.rows.incrementAndGet();
              }
              buffer[0] = 1;
              return true;
            },
            new int[1],
            new int[1],
            50,
            counter,
            stallMillis);
    try {
      assertThat(prefetcher.next()).containsExactly(1);
    } finally {
      prefetcher.close();
    }
  }
}
