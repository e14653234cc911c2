package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What a filler reads is never closed under it, even when it ignores the stop. */
class PrefetcherStopTest {
  @Test
  void aFillerThatIgnoresTheInterruptClosesItsInputWhenItEnds() throws Exception {
    AtomicBoolean release = new AtomicBoolean();
    CountDownLatch filling = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Prefetcher<int[]> prefetcher = new Prefetcher<>("test-prefetch", buffer -> {
      filling.countDown();
      while (!release.get()) { // as a decoder looping on a damaged page: deaf to interrupts
        Thread.onSpinWait();
      }
      return false;
    }, new int[1], new int[1], 50);
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
    Prefetcher<int[]> prefetcher = new Prefetcher<>("test-prefetch", buffer -> {
      filling.countDown();
      Thread.sleep(60_000);
      return true;
    }, new int[1], new int[1], 10_000);
    filling.await();
    AtomicBoolean closed = new AtomicBoolean();
    assertThat(prefetcher.stopThenClose(() -> closed.set(true))).isTrue();
    assertThat(closed).isTrue();
  }
}
