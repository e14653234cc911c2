package io.corgipile.ml.compress;

import io.corgipile.options.EnumChoice;
import java.util.List;

/**
 * How a partition's model delta travels to the driver each round: the one home of the values of the
 * {@code deltaCompression} param.
 */
public enum DeltaCompression {
  /** Every carried value as a float64: exact. */
  NONE,
  /**
   * Every carried value as an 8-bit code of its chunk's min/max range (Bagua's MinMaxUInt8): about
   * 1/7.5 the bytes.
   */
  INT8;

  /** The values of the {@code deltaCompression} param, in declaration order. */
  public static List<String> names() {
    return EnumChoice.texts(values());
  }

  /** The compression {@code paramValue} names, ignoring case and surrounding blanks. */
  public static DeltaCompression of(String paramValue) {
    return EnumChoice.find(values(), paramValue)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot compress deltas: deltaCompression is '"
                        + paramValue
                        + "'; "
                        + EnumChoice.allowed(values())));
  }
}
