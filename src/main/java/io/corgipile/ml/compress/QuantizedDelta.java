package io.corgipile.ml.compress;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.util.Arrays;

/**
 * One partition's model delta of one round, as it travels to the driver: dense (every coordinate)
 * or sparse (only the coordinates the round touched), each carried value a float64 ({@link
 * DeltaCompression#NONE}) or an 8-bit code ({@link DeltaCompression#INT8}).
 *
 * <p>INT8 codes the carried values in chunks of {@link #CHUNK} consecutive ones, each with its own
 * min and scale: {@code scale = (max - min) / 255}, {@code code = round((v - min) / scale)},
 * decoded {@code min + code * scale}, so a value is off by at most half its chunk's scale; a
 * constant chunk has scale 0 and decodes exactly. A chunk with values of both signs puts zero on
 * its grid (scale {@code (max - min) / 254}, min moved by under half a step), so an exact 0 decodes
 * to exactly 0. Rounding is to nearest, not stochastic: {@link ErrorFeedback} carries the error
 * into the next round, and encoding stays a pure function of the input, bit for bit the same on
 * every JVM (Java's double arithmetic is strict IEEE 754).
 *
 * <p>Sparse indices are carried as the gaps between them, each a LEB128 varint of {@code gap - 1}:
 * one byte per index while touched coordinates are less than 128 apart, instead of four.
 *
 * <p>Immutable. Java serialization writes the arrays' bytes and a few counts, no object graph.
 */
public final class QuantizedDelta implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Java serialization writes no fields by default: writeObject writes the compact form. */
  private static final ObjectStreamField[] serialPersistentFields = {};

  /**
   * Values per INT8 chunk. A chunk's outliers coarsen only its own 255 neighbours, so short chunks
   * follow coordinates of different magnitudes (features on different scales, sparse bursts); each
   * chunk adds a 16-byte header (min and scale as float64) to its 256 code bytes, 6.25%, which
   * keeps INT8 at 7.5 times fewer bytes than float64.
   */
  static final int CHUNK = 256;

  private static final int LEVELS = 255;

  // Not final only so readObject can set them; never changed after construction. Not transient, so
  // Kryo's
  // field serializer (spark.serializer=KryoSerializer) writes them; Java serialization writes
  // writeTo's form.
  private int size;
  private int count;
  private byte[] indexGaps; // null when dense
  private DeltaCompression compression;
  private double[] values; // NONE
  private byte[] codes; // INT8, unsigned
  private double[] chunkMins; // INT8
  private double[] chunkScales; // INT8

  private QuantizedDelta(
      int size,
      int count,
      byte[] indexGaps,
      DeltaCompression compression,
      double[] values,
      byte[] codes,
      double[] chunkMins,
      double[] chunkScales) {
    this.size = size;
    this.count = count;
    this.indexGaps = indexGaps;
    this.compression = compression;
    this.values = values;
    this.codes = codes;
    this.chunkMins = chunkMins;
    this.chunkScales = chunkScales;
  }

  /** Every coordinate of {@code delta}. */
  public static QuantizedDelta dense(double[] delta, DeltaCompression compression) {
    return encode(delta.length, null, delta, null, compression);
  }

  /**
   * The coordinates {@code indices} (strictly increasing, each in {@code [0, size)}) of a delta of
   * {@code size} coordinates, with {@code values}; the others are zero.
   */
  public static QuantizedDelta sparse(
      int size, int[] indices, double[] values, DeltaCompression compression) {
    checkSparse(size, indices, values);
    return encode(size, indices, values, gaps(indices), compression);
  }

  /**
   * The delta that is {@code values} at {@code indices} (strictly increasing; null: every
   * coordinate, in order) and zero elsewhere among its {@code size} coordinates, carrying only what
   * is not zero: sparse while that is under a quarter of the coordinates (an INT8 value then costs
   * its code and, while they are under 128 apart, one index byte), else dense.
   */
  public static QuantizedDelta compact(
      int size, int[] indices, double[] values, DeltaCompression compression) {
    if (indices == null && values.length != size) {
      throw new IllegalArgumentException(
          "Cannot compress a dense delta of "
              + size
              + " coordinates from "
              + values.length
              + " values; it needs one value per coordinate");
    }
    int nonZeros = 0;
    for (double v : values) {
      nonZeros += v != 0 ? 1 : 0;
    }
    if (4L * nonZeros >= size) {
      if (indices == null) {
        return dense(values, compression);
      }
      checkSparse(size, indices, values);
      double[] dense = new double[size];
      for (int i = 0; i < indices.length; i++) {
        dense[indices[i]] = values[i];
      }
      return dense(dense, compression);
    }
    int[] keptIndices = new int[nonZeros];
    double[] keptValues = new double[nonZeros];
    for (int i = 0, k = 0; i < values.length; i++) {
      if (values[i] != 0) {
        keptIndices[k] = indices == null ? i : indices[i];
        keptValues[k++] = values[i];
      }
    }
    return sparse(size, keptIndices, keptValues, compression);
  }

  /**
   * Throws unless {@code indices} and {@code values} make a sparse delta of {@code size}
   * coordinates.
   */
  static void checkSparse(int size, int[] indices, double[] values) {
    if (indices.length != values.length) {
      throw new IllegalArgumentException(
          "Cannot compress a sparse delta: it has "
              + indices.length
              + " indices but "
              + values.length
              + " values; each index needs one value");
    }
    for (int i = 0; i < indices.length; i++) {
      if (indices[i] < 0 || indices[i] >= size) {
        throw new IllegalArgumentException(
            "Cannot compress a sparse delta: indices["
                + i
                + "] is "
                + indices[i]
                + "; indices must be in [0, "
                + size
                + ") for a delta of "
                + size
                + " coordinates");
      }
      if (i > 0 && indices[i] <= indices[i - 1]) {
        throw new IllegalArgumentException(
            "Cannot compress a sparse delta: indices["
                + i
                + "] is "
                + indices[i]
                + " after indices["
                + (i - 1)
                + "] = "
                + indices[i - 1]
                + "; indices must be strictly increasing");
      }
    }
  }

  private static QuantizedDelta encode(
      int size, int[] indices, double[] values, byte[] indexGaps, DeltaCompression compression) {
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        throw new IllegalArgumentException(
            "Cannot compress a delta: coordinate "
                + (indices == null ? i : indices[i])
                + " is "
                + values[i]
                + "; only finite values can be compressed");
      }
    }
    if (compression == DeltaCompression.NONE) {
      return new QuantizedDelta(
          size, values.length, indexGaps, compression, values.clone(), null, null, null);
    }
    int chunks = (values.length + CHUNK - 1) / CHUNK;
    byte[] codes = new byte[values.length];
    double[] mins = new double[chunks];
    double[] scales = new double[chunks];
    for (int c = 0; c < chunks; c++) {
      int from = c * CHUNK;
      int to = Math.min(from + CHUNK, values.length);
      double min = values[from];
      double max = values[from];
      for (int i = from + 1; i < to; i++) {
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
      double range = max - min;
      if (range == Double.POSITIVE_INFINITY) {
        throw new IllegalArgumentException(
            "Cannot compress a delta: coordinates "
                + (indices == null ? from : indices[from])
                + " to "
                + (indices == null ? to - 1 : indices[to - 1])
                + " range from "
                + min
                + " to "
                + max
                + ", wider than a double holds; their difference must be finite");
      }
      double scale = range / LEVELS;
      if (min < 0 && max > 0) {
        // Zero on the grid, so a coordinate the round left alone decodes to exactly 0 and stays
        // "not moved" (CoordinateMean): one level spared, the grid shifted by under half a step.
        scale = range / (LEVELS - 1);
        min = -(Math.round(-min / scale) * scale);
      }
      mins[c] = min;
      scales[c] = scale;
      if (scale > 0) {
        for (int i = from; i < to; i++) {
          // the clamp only matters for subnormal scales, whose rounding can push a code past 255
          codes[i] = (byte) Math.min(LEVELS, Math.round((values[i] - min) / scale));
        }
      }
    }
    return new QuantizedDelta(
        size, values.length, indexGaps, compression, null, codes, mins, scales);
  }

  /**
   * The gaps between consecutive indices (from -1), each minus one as an unsigned LEB128 varint.
   */
  private static byte[] gaps(int[] indices) {
    byte[] out = new byte[indices.length * 5];
    int pos = 0;
    int previous = -1;
    for (int index : indices) {
      int gap = index - previous - 1;
      while ((gap & ~0x7F) != 0) {
        out[pos++] = (byte) ((gap & 0x7F) | 0x80);
        gap >>>= 7;
      }
      out[pos++] = (byte) gap;
      previous = index;
    }
    return Arrays.copyOf(out, pos);
  }

  /**
   * The bytes of the arrays it carries: values or codes and chunk headers, and the sparse index
   * gaps.
   */
  long payloadBytes() {
    return (indexGaps == null ? 0 : indexGaps.length) + valueBytes(count, compression);
  }

  /** The bytes {@code count} carried values take: float64s, or codes and their chunks' headers. */
  public static long valueBytes(int count, DeltaCompression compression) {
    return compression == DeltaCompression.NONE
        ? 8L * count
        : count + 16L * ((count + CHUNK - 1) / CHUNK);
  }

  /** Adds {@code weight} times the decoded delta to {@code target}, decoding on the fly. */
  public void addTo(double[] target, double weight) {
    requireSize(target.length);
    if (indexGaps == null) {
      for (int i = 0; i < count; i++) {
        target[i] += weight * value(i);
      }
      return;
    }
    int[] indices = indices();
    for (int i = 0; i < count; i++) {
      target[indices[i]] += weight * value(i);
    }
  }

  /** Throws unless it can be added to a sum of {@code sumSize} coordinates. */
  public void requireSize(int sumSize) {
    if (sumSize != size) {
      throw new IllegalArgumentException(
          "Cannot add a delta of "
              + size
              + " coordinates to a sum of "
              + sumSize
              + "; both must have the same number of coordinates");
    }
  }

  /** Its coordinates, the whole delta's. */
  public int size() {
    return size;
  }

  /** The coordinates it carries, strictly increasing; null when dense (it carries every one). */
  int[] indices() {
    if (indexGaps == null) {
      return null;
    }
    int[] indices = new int[count];
    int pos = 0;
    int index = -1;
    for (int i = 0; i < count; i++) {
      int gap = 0;
      int shift = 0;
      byte b;
      do {
        b = indexGaps[pos++];
        gap |= (b & 0x7F) << shift;
        shift += 7;
      } while (b < 0);
      index += gap + 1;
      indices[i] = index;
    }
    return indices;
  }

  /** The decoded carried values, in index order: what the driver will add. */
  double[] decodedValues() {
    double[] out = new double[count];
    for (int i = 0; i < count; i++) {
      out[i] = value(i);
    }
    return out;
  }

  /** The decoded delta, every coordinate. */
  double[] decode() {
    double[] out = new double[size];
    addTo(out, 1.0);
    return out;
  }

  private double value(int i) {
    if (values != null) {
      return values[i];
    }
    int c = i / CHUNK;
    return chunkMins[c] + (codes[i] & 0xFF) * chunkScales[c];
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    writeTo(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    QuantizedDelta read = readFrom(in);
    size = read.size;
    count = read.count;
    indexGaps = read.indexGaps;
    compression = read.compression;
    values = read.values;
    codes = read.codes;
    chunkMins = read.chunkMins;
    chunkScales = read.chunkScales;
  }

  /** Its compact form: counts, flags and the arrays' bytes. */
  void writeTo(ObjectOutput out) throws IOException {
    out.writeInt(size);
    out.writeInt(count);
    out.writeByte(compression.ordinal());
    out.writeInt(indexGaps == null ? -1 : indexGaps.length);
    if (indexGaps != null) {
      out.write(indexGaps);
    }
    if (compression == DeltaCompression.NONE) {
      for (double v : values) {
        out.writeDouble(v);
      }
    } else {
      out.write(codes);
      for (int c = 0; c < chunkMins.length; c++) {
        out.writeDouble(chunkMins[c]);
        out.writeDouble(chunkScales[c]);
      }
    }
  }

  /** A delta from what {@link #writeTo} wrote. */
  static QuantizedDelta readFrom(ObjectInput in) throws IOException {
    int size = in.readInt();
    int count = in.readInt();
    int ordinal = in.readByte();
    int gapBytes = in.readInt();
    if (size < 0
        || count < 0
        || count > size
        || ordinal < 0
        || ordinal >= DeltaCompression.values().length
        || gapBytes < -1
        || (gapBytes == -1 && count != size)) {
      throw new InvalidObjectException(
          "Cannot read a compressed delta: size "
              + size
              + ", count "
              + count
              + ", compression "
              + ordinal
              + " and "
              + gapBytes
              + " index bytes do not fit together");
    }
    byte[] indexGaps = gapBytes < 0 ? null : new byte[gapBytes];
    if (indexGaps != null) {
      in.readFully(indexGaps);
    }
    DeltaCompression compression = DeltaCompression.values()[ordinal];
    if (compression == DeltaCompression.NONE) {
      double[] values = new double[count];
      for (int i = 0; i < count; i++) {
        values[i] = in.readDouble();
      }
      return new QuantizedDelta(size, count, indexGaps, compression, values, null, null, null);
    }
    byte[] codes = new byte[count];
    in.readFully(codes);
    int chunks = (count + CHUNK - 1) / CHUNK;
    double[] mins = new double[chunks];
    double[] scales = new double[chunks];
    for (int c = 0; c < chunks; c++) {
      mins[c] = in.readDouble();
      scales[c] = in.readDouble();
    }
    return new QuantizedDelta(size, count, indexGaps, compression, null, codes, mins, scales);
  }
}
