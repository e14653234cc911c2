package io.corgipile.shuffle;

/**
 * Derives every random stream of a scan from the user's seed, the epoch, the partition and the
 * purpose of the stream. Nothing else (no clock, thread or task attempt) enters an order, so a
 * retried task repeats its output exactly.
 */
public final class EpochSeeds {
  /** What a random stream is used for; streams for different purposes are independent. */
  public enum Purpose {
    BLOCK_ORDER(0x426c6f636bL),
    TUPLE_ORDER(0x5475706c65L),
    WINDOW_SLOT(0x57696e646fL);

    private final long salt;

    Purpose(long salt) {
      this.salt = salt;
    }
  }

  /** The partition number to use for streams shared by all partitions of an epoch. */
  public static final int ALL_PARTITIONS = -1;

  private final long seed;

  public EpochSeeds(long seed) {
    this.seed = seed;
  }

  public long seed() {
    return seed;
  }

  /** A fresh generator for one stream; equal arguments give equal streams. */
  public SplitMix64 random(int epoch, int partition, Purpose purpose) {
    return new SplitMix64(hash(epoch, partition, purpose));
  }

  /**
   * A fresh generator for piece {@code piece} of a partition's stream: the planned fill of its
   * tuple buffer, or the slice a sliding window starts at. Each piece having its own stream, a
   * round can start at any piece without replaying the draws of the pieces before it.
   */
  public SplitMix64 random(int epoch, int partition, Purpose purpose, int piece) {
    return new SplitMix64(SplitMix64.mix(hash(epoch, partition, purpose) + piece));
  }

  private long hash(int epoch, int partition, Purpose purpose) {
    // Mix the seed before the salt, so seeds a simple XOR apart do not share streams.
    long h = SplitMix64.mix(SplitMix64.mix(seed) + purpose.salt);
    h = SplitMix64.mix(h + epoch);
    return SplitMix64.mix(h + partition);
  }
}
