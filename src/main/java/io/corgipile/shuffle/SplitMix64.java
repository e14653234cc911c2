package io.corgipile.shuffle;

/**
 * A small, fully specified pseudo-random generator (Steele, Lea and Flood's SplitMix64).
 *
 * <p>Shuffle orders must be identical across JVMs, Java versions and task retries, so the project
 * does not rely on {@code java.util.Random} or {@code SplittableRandom}, whose algorithms the JDK
 * does not promise to keep.
 */
public final class SplitMix64 {
  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

  private long state;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  /** The SplitMix64 output function: a bijective mix of all 64 bits. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  public long nextLong() {
    state += GOLDEN_GAMMA;
    return mix(state);
  }

  /** A uniform integer in {@code [0, bound)}, without modulo bias (Lemire's method). */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException(
          "Cannot draw a random integer: bound must be positive, got " + bound);
    }
    long m = (nextLong() >>> 32) * bound;
    long low = m & 0xffffffffL;
    if (low < bound) {
      long threshold = (0x100000000L - bound) % bound;
      while (low < threshold) {
        m = (nextLong() >>> 32) * bound;
        low = m & 0xffffffffL;
      }
    }
    return (int) (m >>> 32);
  }

  /** Shuffles {@code values[0, length)} in place with Fisher-Yates. */
  public void shuffle(int[] values, int length) {
    for (int i = length - 1; i > 0; i--) {
      int j = nextInt(i + 1);
      int t = values[i];
      values[i] = values[j];
      values[j] = t;
    }
  }
}
