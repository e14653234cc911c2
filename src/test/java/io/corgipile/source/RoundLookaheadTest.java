package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.shuffle.SyncInterval;
import java.io.Closeable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class RoundLookaheadTest {
  private final RoundLookahead<Fill> lookahead =
      new RoundLookahead<>(RoundLookahead.UNCLAIMED_MILLIS);

  /** What a fill leaves; records its closing. */
  static final class Fill implements Closeable {
    final CountDownLatch closed = new CountDownLatch(1);

    @Override
    public void close() {
      closed.countDown();
    }

    boolean isClosed() {
      return closed.getCount() == 0;
    }
  }

  private static RoundLookahead.Key key(String scan, int partition, int round) {
    return new RoundLookahead.Key(scan, 7, 0, partition, round, 10, SyncInterval.BUFFER);
  }

  @Test
  void aRoundNobodyFilledAheadIsReadByItsTask() throws InterruptedException {
    assertThat(lookahead.take(key("scan", 0, 1))).isNull();
  }

  @Test
  void theTaskOfTheRoundTakesTheFillOnceAfterWaitingForIt() throws InterruptedException {
    CountDownLatch release = new CountDownLatch(1);
    Fill fill = new Fill();
    assertThat(
            lookahead.start(
                key("scan", 0, 1),
                2,
                () -> {
                  release.await();
                  return fill;
                }))
        .isTrue();
    new Thread(
            () -> {
              sleep(100);
              release.countDown();
            })
        .start();

    assertThat(lookahead.take(key("scan", 0, 1))).isSameAs(fill);
    assertThat(lookahead.take(key("scan", 0, 1))).isNull();
    assertThat(lookahead.size()).isZero();
    assertThat(fill.isClosed()).isFalse();
  }

  @Test
  void atMostCapacityFillsAreHeldAndEachKeyOnce() {
    CountDownLatch never = new CountDownLatch(1);
    RoundLookahead.Fill<Fill> blocked =
        () -> {
          never.await();
          return new Fill();
        };
    assertThat(lookahead.start(key("scan", 0, 1), 2, blocked)).isTrue();
    assertThat(lookahead.start(key("scan", 0, 1), 2, blocked)).as("the same key").isFalse();
    assertThat(lookahead.start(key("scan", 1, 1), 2, blocked)).isTrue();
    assertThat(lookahead.start(key("scan", 2, 1), 2, blocked)).as("a third fill").isFalse();
    assertThat(lookahead.size()).isEqualTo(2);
  }

  @Test
  void aTaskOfALaterRoundDropsTheScansEarlierFills() throws InterruptedException {
    Fill otherPartition = new Fill();
    Fill otherScan = new Fill();
    Fill earlierEpoch = new Fill();
    lookahead.start(key("scan", 1, 1), 3, () -> otherPartition);
    lookahead.start(key("other", 1, 1), 3, () -> otherScan);
    lookahead.start(
        new RoundLookahead.Key("scan", 7, -1, 0, 5, 10, SyncInterval.BUFFER),
        3,
        () -> earlierEpoch);

    assertThat(lookahead.take(key("scan", 0, 2))).isNull();

    assertThat(otherPartition.closed.await(5, TimeUnit.SECONDS))
        .as("partition 1, round 1: passed")
        .isTrue();
    assertThat(earlierEpoch.closed.await(5, TimeUnit.SECONDS)).as("an earlier epoch").isTrue();
    assertThat(otherScan.isClosed()).isFalse();
    assertThat(lookahead.size()).isEqualTo(1);
    assertThat(lookahead.take(key("other", 1, 1))).isSameAs(otherScan);
  }

  @Test
  void aFillNobodyTakesIsClosedAndDropped() throws InterruptedException {
    RoundLookahead<Fill> shortLived = new RoundLookahead<>(50);
    Fill fill = new Fill();
    shortLived.start(key("scan", 0, 1), 2, () -> fill);

    assertThat(fill.closed.await(5, TimeUnit.SECONDS)).isTrue();
    while (shortLived.size() > 0) {
      sleep(10);
    }
    assertThat(shortLived.take(key("scan", 0, 1))).isNull();
  }

  @Test
  void aFailedFillLeavesTheSliceToItsTask() throws InterruptedException {
    lookahead.start(
        key("scan", 0, 1),
        2,
        () -> {
          throw new IllegalStateException("corrupt row group");
        });
    assertThat(lookahead.take(key("scan", 0, 1))).isNull();
    assertThat(lookahead.size()).isZero();
  }

  @Test
  void aFillDroppedWhileRunningIsClosedWhenItEnds() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    Fill fill = new Fill();
    lookahead.start(
        key("scan", 0, 1),
        2,
        () -> {
          started.countDown();
          try {
            Thread.sleep(10_000);
          } catch (InterruptedException e) {
            // a fill may finish what it was doing when interrupted
          }
          return fill;
        });
    started.await();
    lookahead.take(key("scan", 0, 3));

    assertThat(fill.closed.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(lookahead.size()).isZero();
  }

  @Test
  void aFailedTaskDropsItsScansFills() throws InterruptedException {
    Fill first = new Fill();
    Fill second = new Fill();
    Fill otherScan = new Fill();
    lookahead.start(key("scan", 0, 1), 3, () -> first);
    lookahead.start(key("scan", 1, 1), 3, () -> second);
    lookahead.start(key("other", 0, 1), 3, () -> otherScan);

    lookahead.drop("scan");

    assertThat(first.closed.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(second.closed.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(lookahead.take(key("scan", 0, 1))).isNull();
    assertThat(lookahead.take(key("other", 0, 1))).isSameAs(otherScan);
    assertThat(otherScan.isClosed()).isFalse();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
