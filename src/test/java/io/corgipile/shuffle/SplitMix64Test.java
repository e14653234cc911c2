package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SplitMix64Test {

  /**
   * Chi-square statistic of observed counts against equal expected counts.
   *
   * <p>For k categories with equal probability and n draws, the statistic is asymptotically
   * chi-square distributed with k - 1 degrees of freedom (Pearson). The bounds used below are the
   * 0.9999 quantiles of that distribution (scipy.stats.chi2.ppf(0.9999, df)): df=5 -> 25.74, df=9
   * -> 33.72, df=19 -> 50.80. A correct generator exceeds them for a random seed with probability
   * 1e-4; the seeds here are fixed, so the tests are deterministic, while a biased generator (e.g.
   * one value twice as likely) produces statistics in the thousands.
   */
  static double chiSquare(long[] counts) {
    long n = Arrays.stream(counts).sum();
    double expected = (double) n / counts.length;
    double chi = 0;
    for (long c : counts) {
      chi += (c - expected) * (c - expected) / expected;
    }
    return chi;
  }

  @Test
  void nextLongMatchesPublishedSplitMix64ForSeedZero() {
    // Reference values computed independently in Python from Vigna's published splitmix64.c
    // (https://prng.di.unimi.it/splitmix64.c): x += 0x9e3779b97f4a7c15; z = x;
    // z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9; z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    // return z ^ (z >> 31); all arithmetic mod 2^64, starting from x = 0.
    SplitMix64 r = new SplitMix64(0);
    assertThat(r.nextLong()).isEqualTo(0xe220a8397b1dcdafL);
    assertThat(r.nextLong()).isEqualTo(0x6e789e6aa1b965f4L);
    assertThat(r.nextLong()).isEqualTo(0x06c45d188009454fL);
    assertThat(r.nextLong()).isEqualTo(0xf88bb8a8724c81ecL);
    assertThat(r.nextLong()).isEqualTo(0x1b39896a51a8749bL);
    assertThat(r.nextLong()).isEqualTo(0x53cb9f0c747ea2eaL);
  }

  @Test
  void nextLongMatchesPublishedSplitMix64ForANonZeroSeed() {
    // Same Python reference implementation, seed 0x123456789abcdef0.
    SplitMix64 r = new SplitMix64(0x123456789abcdef0L);
    assertThat(r.nextLong()).isEqualTo(0x161922c645ce50e8L);
    assertThat(r.nextLong()).isEqualTo(0xad760cafa1697b60L);
    assertThat(r.nextLong()).isEqualTo(0x3501ff44902ca50dL);
  }

  @Test
  void nextIntIsPinnedSoShuffleOrdersStayStableAcrossVersions() {
    // Computed in Python with Lemire's nearly divisionless method ("Fast Random Integer Generation
    // in an Interval", 2019) on 32-bit draws taken as the high 32 bits of each SplitMix64 output:
    // m = x * bound; if (m mod 2^32) < bound, reject while (m mod 2^32) < 2^32 mod bound; return m
    // >> 32.
    SplitMix64 r = new SplitMix64(0);
    int[] got = new int[12];
    for (int i = 0; i < got.length; i++) {
      got[i] = r.nextInt(10);
    }
    assertThat(got).containsExactly(8, 4, 0, 9, 1, 3, 1, 7, 2, 9, 3, 7);

    SplitMix64 r42 = new SplitMix64(42);
    int[] got42 = new int[8];
    for (int i = 0; i < got42.length; i++) {
      got42[i] = r42.nextInt(1000);
    }
    assertThat(got42).containsExactly(741, 159, 278, 344, 38, 868, 218, 800);
  }

  @Test
  void sameSeedGivesSameStreamAndDifferentSeedsDiffer() {
    SplitMix64 a = new SplitMix64(12345);
    SplitMix64 b = new SplitMix64(12345);
    SplitMix64 c = new SplitMix64(12346);
    boolean anyDifferent = false;
    for (int i = 0; i < 100; i++) {
      long x = a.nextLong();
      assertThat(b.nextLong()).isEqualTo(x);
      anyDifferent |= c.nextLong() != x;
    }
    assertThat(anyDifferent).isTrue();
  }

  @Test
  void eachOutputBitIsSetAboutHalfTheTime() {
    // Each bit is Bernoulli(1/2): over n = 20000 draws the count has sd sqrt(n)/2 ~ 70.7;
    // allow 6 sd (~424) around n/2.
    SplitMix64 r = new SplitMix64(7);
    int n = 20_000;
    int[] ones = new int[64];
    for (int i = 0; i < n; i++) {
      long x = r.nextLong();
      for (int bit = 0; bit < 64; bit++) {
        ones[bit] += (int) ((x >>> bit) & 1);
      }
    }
    for (int bit = 0; bit < 64; bit++) {
      assertThat(ones[bit]).as("bit %d", bit).isBetween(n / 2 - 424, n / 2 + 424);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
  void nextIntRejectsNonPositiveBound(int bound) {
    assertThatThrownBy(() -> new SplitMix64(1).nextInt(bound))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot draw a random integer: bound must be positive, got " + bound);
  }

  @Test
  void nextIntOfOneIsAlwaysZero() {
    SplitMix64 r = new SplitMix64(3);
    for (int i = 0; i < 1000; i++) {
      assertThat(r.nextInt(1)).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 7, 10, 1000, 1 << 30, (1 << 30) + 1, 0x60000000, Integer.MAX_VALUE})
  void nextIntStaysInRange(int bound) {
    SplitMix64 r = new SplitMix64(bound * 31L);
    for (int i = 0; i < 20_000; i++) {
      assertThat(r.nextInt(bound)).isBetween(0, bound - 1);
    }
  }

  @Test
  void nextIntOfSmallBoundIsUniformByChiSquare() {
    // 10 categories -> 9 degrees of freedom; bound 33.72 (see chiSquare).
    SplitMix64 r = new SplitMix64(2024);
    long[] counts = new long[10];
    for (int i = 0; i < 100_000; i++) {
      counts[r.nextInt(10)]++;
    }
    assertThat(chiSquare(counts)).isLessThan(33.72);
  }

  @Test
  void nextIntOfTwentyIsUniformByChiSquareForSeveralSeeds() {
    // 20 categories -> 19 degrees of freedom; bound 50.80 (see chiSquare).
    for (long seed = 0; seed < 5; seed++) {
      SplitMix64 r = new SplitMix64(seed);
      long[] counts = new long[20];
      for (int i = 0; i < 40_000; i++) {
        counts[r.nextInt(20)]++;
      }
      assertThat(chiSquare(counts)).as("seed %d", seed).isLessThan(50.80);
    }
  }

  @Test
  void nextIntHasNoMultiplyShiftBiasForALargeBound() {
    // bound = 3 * 2^29. Plain multiply-shift (x * bound >> 32 on 32-bit x, no rejection) maps
    // 2^32/bound = 8/3 inputs per output: values v with v % 3 == 2 get 2 of every 8 inputs, the
    // others 3, so P(v % 3 == 2) would be 0.25. Unbiased, it is exactly 1/3 (bound divisible by 3).
    // n = 60000: sd = sqrt(p(1-p)/n) ~ 0.00192; 6 sd ~ 0.0116 << 1/3 - 1/4.
    int bound = 0x60000000;
    SplitMix64 r = new SplitMix64(99);
    int n = 60_000;
    int hits = 0;
    for (int i = 0; i < n; i++) {
      if (r.nextInt(bound) % 3 == 2) {
        hits++;
      }
    }
    assertThat((double) hits / n).isCloseTo(1.0 / 3, org.assertj.core.data.Offset.offset(0.0116));
  }

  @Test
  void shuffleIsAPermutationAndTouchesOnlyThePrefix() {
    SplitMix64 r = new SplitMix64(5);
    for (int length = 0; length <= 50; length++) {
      int[] values = new int[length + 5];
      for (int i = 0; i < values.length; i++) {
        values[i] = i * 10;
      }
      r.shuffle(values, length);
      int[] prefix = Arrays.copyOf(values, length);
      int[] sorted = prefix.clone();
      Arrays.sort(sorted);
      for (int i = 0; i < length; i++) {
        assertThat(sorted[i]).isEqualTo(i * 10);
      }
      for (int i = length; i < values.length; i++) {
        assertThat(values[i]).as("untouched tail").isEqualTo(i * 10);
      }
    }
  }

  @Test
  void shuffleActuallyReordersAndIsDeterministic() {
    int[] a = new int[100];
    int[] b = new int[100];
    for (int i = 0; i < 100; i++) {
      a[i] = i;
      b[i] = i;
    }
    new SplitMix64(77).shuffle(a, 100);
    new SplitMix64(77).shuffle(b, 100);
    assertThat(a).isEqualTo(b);
    int fixedPoints = 0;
    for (int i = 0; i < 100; i++) {
      if (a[i] == i) {
        fixedPoints++;
      }
    }
    // A uniform permutation has ~Poisson(1) fixed points; 10 or more has probability < 1e-7.
    assertThat(fixedPoints).isLessThan(10);
  }

  @Test
  void allPermutationsOfThreeAppearWithNearEqualFrequency() {
    // 6 permutations -> 5 degrees of freedom; bound 25.74 (see chiSquare). Each of the 6 must
    // also appear, which an off-by-one in Fisher-Yates (e.g. nextInt(i) instead of nextInt(i + 1))
    // would violate.
    SplitMix64 r = new SplitMix64(11);
    Map<String, Integer> seen = new HashMap<>();
    int n = 60_000;
    for (int i = 0; i < n; i++) {
      int[] v = {0, 1, 2};
      r.shuffle(v, 3);
      seen.merge(Arrays.toString(v), 1, Integer::sum);
    }
    assertThat(seen).hasSize(6);
    long[] counts = seen.values().stream().mapToLong(Integer::longValue).toArray();
    assertThat(chiSquare(counts)).isLessThan(25.74);
  }

  @Test
  void everyElementReachesEveryPositionUniformly() {
    // For n = 5, position of element 0 over many shuffles: 5 categories -> 4 df; the 0.9999
    // quantile of chi2(4) is 23.51.
    SplitMix64 r = new SplitMix64(13);
    long[] counts = new long[5];
    for (int i = 0; i < 50_000; i++) {
      int[] v = {0, 1, 2, 3, 4};
      r.shuffle(v, 5);
      for (int p = 0; p < 5; p++) {
        if (v[p] == 0) {
          counts[p]++;
        }
      }
    }
    assertThat(chiSquare(counts)).isLessThan(23.51);
  }

  @Test
  void mixIsTheSplitMix64Finalizer() {
    // mix(0) == 0 for the finalizer; mix(golden gamma) is the first output for seed 0.
    assertThat(SplitMix64.mix(0)).isZero();
    assertThat(SplitMix64.mix(0x9e3779b97f4a7c15L)).isEqualTo(0xe220a8397b1dcdafL);
  }
}
