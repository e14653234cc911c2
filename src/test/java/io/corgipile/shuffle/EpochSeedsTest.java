package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.shuffle.EpochSeeds.Purpose;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EpochSeedsTest {

  private static long[] firstOutputs(SplitMix64 r, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = r.nextLong();
    }
    return out;
  }

  @Test
  void seedIsReported() {
    assertThat(new EpochSeeds(42).seed()).isEqualTo(42);
    assertThat(new EpochSeeds(-7).seed()).isEqualTo(-7);
  }

  @Test
  void allPartitionsIsMinusOne() {
    assertThat(EpochSeeds.ALL_PARTITIONS).isEqualTo(-1);
  }

  @Test
  void equalArgumentsGiveEqualStreamsEvenFromDifferentInstances() {
    for (Purpose purpose : Purpose.values()) {
      for (int epoch = 0; epoch < 5; epoch++) {
        for (int partition = -1; partition < 5; partition++) {
          long[] a = firstOutputs(new EpochSeeds(99).random(epoch, partition, purpose), 20);
          long[] b = firstOutputs(new EpochSeeds(99).random(epoch, partition, purpose), 20);
          assertThat(a).isEqualTo(b);
        }
      }
    }
  }

  @Test
  void everyArgumentChangesTheStream() {
    EpochSeeds seeds = new EpochSeeds(1);
    long base = seeds.random(3, 4, Purpose.TUPLE_ORDER).nextLong();
    assertThat(new EpochSeeds(2).random(3, 4, Purpose.TUPLE_ORDER).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(4, 4, Purpose.TUPLE_ORDER).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(3, 5, Purpose.TUPLE_ORDER).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(3, EpochSeeds.ALL_PARTITIONS, Purpose.TUPLE_ORDER).nextLong())
        .isNotEqualTo(base);
    assertThat(seeds.random(3, 4, Purpose.BLOCK_ORDER).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(3, 4, Purpose.WINDOW_SLOT).nextLong()).isNotEqualTo(base);
  }

  @Test
  void noTwoStreamsOfAGridCollide() {
    // 3 seeds x 3 purposes x 40 epochs x 42 partitions = 15120 streams; first outputs are 64-bit,
    // so for independent streams a collision has probability ~ 15120^2 / 2^65 ~ 6e-12.
    // In particular (epoch, partition) and (partition, epoch) must not coincide, nor must
    // (epoch + 1, partition - 1) and (epoch, partition), as a naive "seed + epoch + partition"
    // would.
    Set<Long> firsts = new HashSet<>();
    int streams = 0;
    for (long seed : new long[] {0, 1, 0x5eedL}) {
      EpochSeeds seeds = new EpochSeeds(seed);
      for (Purpose purpose : Purpose.values()) {
        for (int epoch = 0; epoch < 40; epoch++) {
          for (int partition = -1; partition < 41; partition++) {
            firsts.add(seeds.random(epoch, partition, purpose).nextLong());
            streams++;
          }
        }
      }
    }
    assertThat(firsts).hasSize(streams);
  }

  @Test
  void neighbouringStreamsAreUncorrelated() {
    // Streams for consecutive epochs must look independent: the Hamming distance between their
    // outputs is Binomial(64, 1/2) per pair (mean 32, sd 4); averaged over 2000 pairs the mean has
    // sd 4 / sqrt(2000) ~ 0.09, so it must lie within 32 +- 0.6 (about 6.7 sd).
    EpochSeeds seeds = new EpochSeeds(123);
    long totalBits = 0;
    int pairs = 0;
    for (int epoch = 0; epoch < 200; epoch++) {
      SplitMix64 a = seeds.random(epoch, 0, Purpose.TUPLE_ORDER);
      SplitMix64 b = seeds.random(epoch + 1, 0, Purpose.TUPLE_ORDER);
      SplitMix64 c = seeds.random(epoch, 1, Purpose.TUPLE_ORDER);
      for (int i = 0; i < 5; i++) {
        long x = a.nextLong();
        totalBits += Long.bitCount(x ^ b.nextLong());
        totalBits += Long.bitCount(x ^ c.nextLong());
        pairs += 2;
      }
    }
    assertThat((double) totalBits / pairs).isBetween(31.4, 32.6);
  }

  @Test
  void shuffleOrderOfOneElementOverEpochsIsUniform() {
    // Where element 0 lands when shuffling 8 elements with each epoch's stream: uniform over 8
    // positions if the epochs' streams are independent. 7 df; 0.9999 quantile of chi2(7) = 29.88.
    EpochSeeds seeds = new EpochSeeds(8);
    long[] counts = new long[8];
    for (int epoch = 0; epoch < 16_000; epoch++) {
      int[] v = {0, 1, 2, 3, 4, 5, 6, 7};
      seeds.random(epoch, 0, Purpose.BLOCK_ORDER).shuffle(v, 8);
      for (int p = 0; p < 8; p++) {
        if (v[p] == 0) {
          counts[p]++;
        }
      }
    }
    assertThat(SplitMix64Test.chiSquare(counts)).isLessThan(29.88);
  }

  @Test
  void everyPieceOfAStreamHasItsOwnReproducibleStream() {
    EpochSeeds seeds = new EpochSeeds(5);
    long base = seeds.random(1, 2, Purpose.TUPLE_ORDER, 0).nextLong();
    assertThat(new EpochSeeds(5).random(1, 2, Purpose.TUPLE_ORDER, 0).nextLong()).isEqualTo(base);
    assertThat(seeds.random(1, 2, Purpose.TUPLE_ORDER, 1).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(1, 3, Purpose.TUPLE_ORDER, 0).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(1, 2, Purpose.WINDOW_SLOT, 0).nextLong()).isNotEqualTo(base);
    assertThat(seeds.random(1, 2, Purpose.TUPLE_ORDER).nextLong()).isNotEqualTo(base);
  }
}
