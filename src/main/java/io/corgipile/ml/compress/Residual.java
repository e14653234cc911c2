package io.corgipile.ml.compress;

/**
 * What {@link ErrorFeedback} keeps of a partition's delta for its next round: the part compression
 * lost, {@code (delta + previous residual) - decoded}.
 *
 * @param size coordinates of the whole delta
 * @param indices the coordinates held, strictly increasing; null when it holds every coordinate
 * @param values the residual at those coordinates (or at every coordinate)
 */
public record Residual(int size, int[] indices, double[] values) {

  /** Adds it to the dense {@code target}. */
  void addTo(double[] target) {
    requireSize(target.length);
    for (int i = 0; i < values.length; i++) {
      target[indices == null ? i : indices[i]] += values[i];
    }
  }

  /** Throws unless it belongs to a delta of {@code deltaSize} coordinates. */
  void requireSize(int deltaSize) {
    if (deltaSize != size) {
      throw new IllegalArgumentException(
          "Cannot add a residual of "
              + size
              + " coordinates to a delta of "
              + deltaSize
              + "; a partition's deltas must keep their number of coordinates from round to round");
    }
  }
}
