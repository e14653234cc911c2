package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PrefetcherTest {

  /** A buffer that records what was filled into it and whether the consumer is reading it. */
  static final class Buf {
    final int[] data = new int[64];
    volatile int seq = -1;
    volatile boolean consuming;
  }

  /**
   * Fills buffers with sequence numbers 0 .. count-1 then reports the end; records every buffer it
   * was handed, its thread, and any fill of a buffer the consumer was still reading.
   */
  static final class CountingFiller implements Prefetcher.Filler<Buf> {
    final int count;
    final AtomicInteger fills = new AtomicInteger();
    final Set<Buf> seen =
        Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    final AtomicReference<String> violation = new AtomicReference<>();
    final AtomicReference<Thread> thread = new AtomicReference<>();
    volatile long fillDelayNanos;

    CountingFiller(int count) {
      this.count = count;
    }

    @Override
    public boolean fill(Buf b) throws Exception {
      thread.set(Thread.currentThread());
      seen.add(b);
      if (b.consuming) {
        violation.compareAndSet(
            null, "filler got buffer " + b.seq + " while the consumer was reading it");
      }
      int k = fills.get();
      if (k == count) {
        return false;
      }
      if (fillDelayNanos > 0) {
        TimeUnit.NANOSECONDS.sleep(fillDelayNanos);
      }
      for (int i = 0; i < b.data.length; i++) {
        b.data[i] = k;
      }
      b.seq = k;
      fills.incrementAndGet();
      return true;
    }
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition not reached in time").isLessThan(deadline);
      Thread.sleep(1);
    }
  }

  @Test
  void deliversBuffersInFillOrderWithAtMostTwoBuffers() throws Exception {
    Buf first = new Buf();
    Buf second = new Buf();
    CountingFiller filler = new CountingFiller(300);
    List<Integer> got = new ArrayList<>();
    try (Prefetcher<Buf> p = new Prefetcher<>("test-prefetch", filler, first, second)) {
      Buf b;
      int i = 0;
      while ((b = p.next()) != null) {
        assertThat(b).isIn(first, second);
        b.consuming = true;
        int seq = b.seq;
        got.add(seq);
        if (i % 10 == 0) {
          Thread.sleep(1); // let the filler run ahead; it must not touch this buffer
        }
        for (int v : b.data) {
          assertThat(v).as("buffer %d unchanged while consumed", seq).isEqualTo(seq);
        }
        assertThat(b.seq).isEqualTo(seq);
        b.consuming = false;
        i++;
      }
    }
    assertThat(got).hasSize(300);
    for (int k = 0; k < 300; k++) {
      assertThat(got.get(k)).isEqualTo(k);
    }
    assertThat(filler.violation.get()).isNull();
    assertThat(filler.seen).hasSize(2);
  }

  @Test
  void aPrefetcherHoldingAFilledBufferFillsTheOtherAndTakesItBackAtTheFirstNext() throws Exception {
    Buf held = new Buf();
    held.seq = -7; // filled elsewhere
    held.consuming = true;
    Buf free = new Buf();
    CountingFiller filler = new CountingFiller(3);
    try (Prefetcher<Buf> p = Prefetcher.holding("holding", filler, held, free, null)) {
      waitUntil(() -> filler.fills.get() == 1);
      Thread.sleep(5); // no other buffer to fill while the caller reads the held one
      assertThat(filler.fills.get()).isEqualTo(1);
      assertThat(held.seq).isEqualTo(-7);
      held.consuming = false;
      List<Integer> got = new ArrayList<>();
      Buf b;
      while ((b = p.next()) != null) {
        got.add(b.seq);
      }
      assertThat(got).containsExactly(0, 1, 2);
    }
    assertThat(filler.violation.get()).isNull();
    assertThat(filler.seen).containsExactlyInAnyOrder(held, free);
  }

  @Test
  void fillerWorksAheadByExactlyOneBuffer() throws Exception {
    CountingFiller filler = new CountingFiller(100);
    try (Prefetcher<Buf> p = new Prefetcher<>("ahead", filler, new Buf(), new Buf())) {
      Buf b0 = p.next();
      assertThat(b0.seq).isZero();
      // While the consumer holds buffer 0, the filler fills the other one (double buffering) ...
      waitUntil(() -> filler.fills.get() == 2);
      // ... and then has no third buffer to fill.
      Thread.sleep(100);
      assertThat(filler.fills.get()).isEqualTo(2);
      assertThat(b0.seq).as("held buffer untouched").isZero();
      Buf b1 = p.next();
      assertThat(b1).isNotSameAs(b0);
      assertThat(b1.seq).isEqualTo(1);
      waitUntil(() -> filler.fills.get() == 3);
      Thread.sleep(50);
      assertThat(filler.fills.get()).isEqualTo(3);
      assertThat(p.next()).isSameAs(b0);
      assertThat(b0.seq).isEqualTo(2);
    }
  }

  @Test
  void slowFillerAndSlowConsumerStillDeliverInOrder() throws Exception {
    CountingFiller filler = new CountingFiller(40);
    filler.fillDelayNanos = TimeUnit.MICROSECONDS.toNanos(500);
    try (Prefetcher<Buf> p = new Prefetcher<>("slow", filler, new Buf(), new Buf())) {
      for (int k = 0; k < 40; k++) {
        Buf b = p.next();
        assertThat(b.seq).isEqualTo(k);
        if (k % 3 == 0) {
          Thread.sleep(1);
        }
      }
      assertThat(p.next()).isNull();
    }
  }

  @Test
  void nextAfterTheEndKeepsReturningNull() throws Exception {
    CountingFiller filler = new CountingFiller(3);
    try (Prefetcher<Buf> p = new Prefetcher<>("end", filler, new Buf(), new Buf())) {
      assertThat(p.next().seq).isZero();
      assertThat(p.next().seq).isEqualTo(1);
      assertThat(p.next().seq).isEqualTo(2);
      assertThat(p.next()).isNull();
      assertThat(p.next()).isNull();
      assertThat(p.next()).isNull();
    }
    assertThat(filler.fills.get()).isEqualTo(3);
  }

  @Test
  void emptyInputGivesNullAtOnce() throws Exception {
    CountingFiller filler = new CountingFiller(0);
    try (Prefetcher<Buf> p = new Prefetcher<>("empty", filler, new Buf(), new Buf())) {
      assertThat(p.next()).isNull();
      assertThat(p.next()).isNull();
    }
  }

  @Test
  void runtimeExceptionOfTheFillerIsRethrownAsIs() throws Exception {
    IllegalArgumentException boom = new IllegalArgumentException("boom");
    AtomicInteger calls = new AtomicInteger();
    AtomicReference<Thread> thread = new AtomicReference<>();
    Prefetcher.Filler<Buf> filler =
        b -> {
          thread.set(Thread.currentThread());
          int k = calls.getAndIncrement();
          if (k == 2) {
            throw boom;
          }
          b.seq = k;
          return true;
        };
    try (Prefetcher<Buf> p = new Prefetcher<>("fails", filler, new Buf(), new Buf())) {
      assertThat(p.next().seq).isZero();
      assertThat(p.next().seq).isEqualTo(1);
      assertThatThrownBy(p::next).isSameAs(boom);
    }
    thread.get().join(5000);
    assertThat(thread.get().isAlive()).as("filler thread ended after the failure").isFalse();
    assertThat(calls.get()).as("no fill after the failure").isEqualTo(3);
  }

  @Test
  void failureOnTheFirstFillReachesTheFirstNext() throws Exception {
    IllegalStateException boom = new IllegalStateException("first");
    try (Prefetcher<Buf> p =
        new Prefetcher<>(
            "fails-first",
            b -> {
              throw boom;
            },
            new Buf(),
            new Buf())) {
      assertThatThrownBy(p::next).isSameAs(boom);
    }
  }

  @Test
  void aFailureStaysAFailureWhenAskedAgain() throws Exception {
    IllegalStateException boom = new IllegalStateException("boom");
    try (Prefetcher<int[]> p =
        new Prefetcher<>(
            "t-sticky",
            b -> {
              throw boom;
            },
            new int[1],
            new int[1])) {
      assertThatThrownBy(p::next).isSameAs(boom);
      assertThatThrownBy(p::next).isSameAs(boom);
    }
  }

  @Test
  void checkedExceptionOfTheFillerIsWrapped() throws Exception {
    IOException disk = new IOException("disk gone");
    AtomicInteger calls = new AtomicInteger();
    Prefetcher.Filler<Buf> filler =
        b -> {
          if (calls.getAndIncrement() == 1) {
            throw disk;
          }
          b.seq = 0;
          return true;
        };
    try (Prefetcher<Buf> p = new Prefetcher<>("wraps", filler, new Buf(), new Buf())) {
      assertThat(p.next().seq).isZero();
      assertThatThrownBy(p::next)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("disk gone")
          .cause()
          .isSameAs(disk);
    }
  }

  @Test
  void errorOfTheFillerIsRethrownAsIs() throws Exception {
    AssertionError error = new AssertionError("broken invariant");
    try (Prefetcher<Buf> p =
        new Prefetcher<>(
            "error",
            b -> {
              throw error;
            },
            new Buf(),
            new Buf())) {
      assertThatThrownBy(p::next).isSameAs(error);
    }
  }

  @Test
  void fillerRunsOnANamedDaemonThread() throws Exception {
    CountingFiller filler = new CountingFiller(1);
    try (Prefetcher<Buf> p =
        new Prefetcher<>("corgipile-prefetch-42", filler, new Buf(), new Buf())) {
      p.next();
      Thread t = filler.thread.get();
      assertThat(t).isNotSameAs(Thread.currentThread());
      assertThat(t.getName()).isEqualTo("corgipile-prefetch-42");
      assertThat(t.isDaemon()).isTrue();
    }
  }

  @Test
  void closeStopsTheThreadWhenTheConsumerStopsEarly() throws Exception {
    CountingFiller filler = new CountingFiller(Integer.MAX_VALUE);
    Prefetcher<Buf> p = new Prefetcher<>("early-stop", filler, new Buf(), new Buf());
    assertThat(p.next().seq).isZero();
    assertThat(p.next().seq).isEqualTo(1);
    waitUntil(() -> filler.fills.get() == 3); // the filler now waits for a free buffer
    long start = System.nanoTime();
    p.close();
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
    assertThat(filler.thread.get().isAlive()).isFalse();
    int fills = filler.fills.get();
    Thread.sleep(50);
    assertThat(filler.fills.get()).as("no fill after close").isEqualTo(fills);
    p.close(); // idempotent
  }

  @Test
  void closeBeforeTheFirstNextStopsTheThread() throws Exception {
    CountingFiller filler = new CountingFiller(Integer.MAX_VALUE);
    Prefetcher<Buf> p = new Prefetcher<>("never-read", filler, new Buf(), new Buf());
    waitUntil(() -> filler.fills.get() == 2);
    p.close();
    assertThat(filler.thread.get().isAlive()).isFalse();
  }

  @Test
  void closeInterruptsAFillerBlockedInsideFill() throws Exception {
    CountDownLatch inFill = new CountDownLatch(1);
    AtomicReference<Thread> thread = new AtomicReference<>();
    AtomicInteger calls = new AtomicInteger();
    Prefetcher.Filler<Buf> filler =
        b -> {
          thread.set(Thread.currentThread());
          if (calls.getAndIncrement() == 1) {
            inFill.countDown();
            Thread.sleep(60_000); // e.g. waiting on slow storage
          }
          return true;
        };
    Prefetcher<Buf> p = new Prefetcher<>("blocked", filler, new Buf(), new Buf());
    assertThat(p.next()).isNotNull();
    assertThat(inFill.await(10, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    p.close();
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
    assertThat(thread.get().isAlive()).isFalse();
  }

  @Test
  void aFillerThatSwallowsTheInterruptStillEndsOnClose() throws Exception {
    CountDownLatch inFill = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    AtomicReference<Thread> thread = new AtomicReference<>();
    AtomicInteger calls = new AtomicInteger();
    Prefetcher.Filler<Buf> filler =
        b -> {
          thread.set(Thread.currentThread());
          if (calls.getAndIncrement() == 1) {
            inFill.countDown();
            try {
              closed.await(); // a library call that catches the interrupt and goes on
            } catch (InterruptedException e) {
              closed.await(5, TimeUnit.SECONDS);
            }
          }
          return true;
        };
    // A caller already interrupted returns from close at once (the task-kill path), leaving the
    // filler to end by itself; with both buffers filled it then waits for one handed back.
    Prefetcher<Buf> p = new Prefetcher<>("swallowing", filler, new Buf(), new Buf());
    assertThat(p.next()).isNotNull();
    assertThat(inFill.await(10, TimeUnit.SECONDS)).isTrue();
    Thread.currentThread().interrupt();
    try {
      assertThat(p.stop()).as("the filler is still filling").isFalse();
    } finally {
      Thread.interrupted();
    }
    closed.countDown();
    waitUntil(() -> !thread.get().isAlive());
    assertThat(calls.get()).as("no fill after close").isEqualTo(2);
  }

  @Test
  void closeAfterTheEndIsHarmless() throws Exception {
    CountingFiller filler = new CountingFiller(2);
    Prefetcher<Buf> p = new Prefetcher<>("done", filler, new Buf(), new Buf());
    while (p.next() != null) {
      // drain
    }
    p.close();
    assertThat(filler.thread.get().isAlive()).isFalse();
  }

  @Test
  void stopEndsTheFillerAndSaysSo() {
    Prefetcher<Buf> p =
        new Prefetcher<>("stop", new CountingFiller(Integer.MAX_VALUE), new Buf(), new Buf());
    assertThat(p.stop()).as("the filler has ended, so its buffers may be reused").isTrue();
  }

  @Test
  void stopByAnInterruptedCallerKeepsItsInterruptStatus() {
    Prefetcher<Buf> p =
        new Prefetcher<>(
            "stop-interrupted", new CountingFiller(Integer.MAX_VALUE), new Buf(), new Buf());
    Thread.currentThread().interrupt();
    try {
      p.stop();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
      assertThat(p.stop()).isTrue();
    }
  }
}
