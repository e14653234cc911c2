package io.corgipile.source;

import io.corgipile.options.EnumChoice;
import io.corgipile.options.Integers;
import io.corgipile.shuffle.BlockAssignment;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.ShuffleMode;
import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The validated settings of one scan. Each value comes from the reader option if set, else from the
 * session configuration {@code spark.datasource.corgipile.<option>}, else from its default.
 */
final class ReadConf implements Serializable {
  private static final long serialVersionUID = 1L;

  private final ShuffleMode shuffle;
  private final BufferSize bufferSize;
  private final BlockSize blockSize;
  private final long seed;
  private final int epoch;
  private final Integer partitions;
  private final BlockAssignment blockAssignment;
  private final boolean prefetch;

  private ReadConf(Source source) {
    this.shuffle =
        source.choice(ReadOptions.SHUFFLE, ReadOptions.SHUFFLE_DEFAULT, ShuffleMode.values());
    this.bufferSize = source.bufferSize();
    this.blockSize = source.blockSize();
    this.seed = source.longValue(ReadOptions.SEED, ReadOptions.SEED_DEFAULT);
    this.epoch = source.intAtLeast(ReadOptions.EPOCH, ReadOptions.EPOCH_DEFAULT, 0);
    this.partitions =
        source.has(ReadOptions.PARTITIONS) ? source.intAtLeast(ReadOptions.PARTITIONS, 1, 1) : null;
    this.blockAssignment =
        source.choice(
            ReadOptions.BLOCK_ASSIGNMENT,
            ReadOptions.BLOCK_ASSIGNMENT_DEFAULT,
            BlockAssignment.values());
    this.prefetch = source.bool(ReadOptions.PREFETCH, ReadOptions.PREFETCH_DEFAULT);
  }

  /**
   * Reads and validates the settings.
   *
   * @param options the reader's options, looked up case-insensitively
   * @param sessionConf the session's configuration
   * @throws IllegalArgumentException naming the option (or configuration key), the value and what
   *     is allowed
   */
  static ReadConf from(Map<String, String> options, Map<String, String> sessionConf) {
    return new ReadConf(new Source(options, sessionConf));
  }

  ShuffleMode shuffle() {
    return shuffle;
  }

  BufferSize bufferSize() {
    return bufferSize;
  }

  BlockSize blockSize() {
    return blockSize;
  }

  OptionalInt partitions() {
    return partitions == null ? OptionalInt.empty() : OptionalInt.of(partitions);
  }

  BlockAssignment blockAssignment() {
    return blockAssignment;
  }

  boolean prefetch() {
    return prefetch;
  }

  /** The epoch of a task whose job does not set one ({@link ReadScope#EPOCH}). */
  int epoch() {
    return epoch;
  }

  /** The seed of a task whose job does not set one ({@link ReadScope#SEED}). */
  long seed() {
    return seed;
  }

  @Override
  public String toString() {
    return "shuffle="
        + shuffle.optionValue()
        + ", bufferSize="
        + bufferSize
        + ", blockSize="
        + blockSize
        + ", seed="
        + seed
        + ", epoch="
        + epoch
        + ", partitions="
        + (partitions == null ? "default" : partitions)
        + ", blockAssignment="
        + blockAssignment.optionValue()
        + ", prefetch="
        + prefetch;
  }

  /** Where a value comes from, and how to name it in an error. */
  private static final class Source {
    private final Map<String, String> options;
    private final Map<String, String> sessionConf;

    Source(Map<String, String> options, Map<String, String> sessionConf) {
      this.options = options;
      this.sessionConf = sessionConf;
    }

    boolean has(String name) {
      return raw(name) != null;
    }

    private String raw(String name) {
      String v = options.get(name);
      return v != null ? v : sessionConf.get(ReadOptions.SESSION_CONF_PREFIX + name);
    }

    private String label(String name) {
      return options.get(name) != null ? "option " + name : ReadOptions.SESSION_CONF_PREFIX + name;
    }

    private IllegalArgumentException invalid(String name, String value, String expected) {
      return new IllegalArgumentException(
          "Cannot set " + label(name) + " to '" + value + "': " + expected);
    }

    <E extends Enum<E>> E choice(String name, String defaultValue, E[] values) {
      String v = raw(name);
      return EnumChoice.find(values, v == null ? defaultValue : v)
          .orElseThrow(() -> invalid(name, v, EnumChoice.allowed(values)));
    }

    BufferSize bufferSize() {
      String v = raw(ReadOptions.BUFFER_SIZE);
      if (v == null) {
        return BufferSize.parse(ReadOptions.BUFFER_SIZE_DEFAULT);
      }
      try {
        return BufferSize.parse(v);
      } catch (IllegalArgumentException e) {
        throw invalid(ReadOptions.BUFFER_SIZE, v, e.getMessage());
      }
    }

    BlockSize blockSize() {
      String v = raw(ReadOptions.BLOCK_SIZE);
      try {
        return BlockSize.parse(v == null ? ReadOptions.BLOCK_SIZE_DEFAULT : v);
      } catch (IllegalArgumentException e) {
        throw invalid(ReadOptions.BLOCK_SIZE, v, e.getMessage());
      }
    }

    long longValue(String name, long defaultValue) {
      return integer(name, defaultValue, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    int intAtLeast(String name, int defaultValue, int min) {
      return (int) integer(name, defaultValue, min, Integer.MAX_VALUE);
    }

    private long integer(String name, long defaultValue, long min, long max) {
      String v = raw(name);
      if (v == null) {
        return defaultValue;
      }
      try {
        return Integers.parse(v, min, max);
      } catch (IllegalArgumentException e) {
        throw invalid(name, v, e.getMessage());
      }
    }

    boolean bool(String name, boolean defaultValue) {
      String v = raw(name);
      if (v == null) {
        return defaultValue;
      }
      switch (v.trim().toLowerCase(Locale.ROOT)) {
        case "true":
          return true;
        case "false":
          return false;
        default:
          throw invalid(name, v, "allowed values are true, false");
      }
    }
  }
}
