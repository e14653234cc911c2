package io.corgipile.ml;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamField;
import java.io.Serializable;

/**
 * The weighted sum of partitions' decoded deltas, for {@code treeAggregate}: {@link #add} is its
 * {@code seqOp}, {@link #merge} its {@code combOp}, and {@link #sum} the dense result on the driver.
 *
 * <p>It holds its first delta as is and only decodes when a second one arrives: a partition's task
 * result, one delta, then travels compressed. Its serialized form is a few counts and then that
 * delta's compact form, or the sum, dense (8 bytes a coordinate) or sparse (4 + 8 bytes a non-zero
 * coordinate), whichever is smaller: sparse pays while under 2/3 of the coordinates are not zero.
 *
 * <p>The sum's bits depend on the order of the adds and merges, as any floating-point sum does.
 */
final class DeltaAccumulator implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Java serialization writes no fields by default: writeObject writes the compact form. */
  private static final ObjectStreamField[] serialPersistentFields = {};
  private static final int EMPTY = 0;
  private static final int SINGLE = 1;
  private static final int DENSE = 2;
  private static final int SPARSE = 3;

  // Not transient, so Kryo's field serializer (spark.serializer=KryoSerializer) writes them; Java serialization
  // writes writeObject's form instead.
  private int size;
  private int deltas;
  private int residualsLost;
  private double weightSum;
  private QuantizedDelta single; // the only delta added, not decoded yet
  private double singleWeight;
  private double[] sum; // once two deltas were added

  /** An empty sum of deltas of {@code size} coordinates: {@code treeAggregate}'s zero value. */
  DeltaAccumulator(int size) {
    this.size = size;
  }

  /** Adds {@code weight} times the decoded {@code delta}; returns this. */
  DeltaAccumulator add(QuantizedDelta delta, double weight) {
    delta.requireSize(size);
    if (deltas == 0) {
      single = delta;
      singleWeight = weight;
    } else {
      delta.addTo(dense(), weight);
    }
    count(1, delta.residualLost() ? 1 : 0, weight);
    return this;
  }

  /** Adds what {@code other} holds; returns this. {@code other} stays as it was. */
  DeltaAccumulator merge(DeltaAccumulator other) {
    if (other.size != size) {
      throw new IllegalArgumentException("Cannot merge a sum of deltas of " + other.size
          + " coordinates into one of " + size + "; both must have the same number of coordinates");
    }
    if (other.deltas == 0) {
      return this;
    }
    if (deltas == 0) {
      single = other.single;
      singleWeight = other.singleWeight;
      sum = other.sum == null ? null : other.sum.clone();
    } else if (other.single != null) {
      other.single.addTo(dense(), other.singleWeight);
    } else {
      double[] target = dense();
      for (int j = 0; j < size; j++) {
        target[j] += other.sum[j];
      }
    }
    count(other.deltas, other.residualsLost, other.weightSum);
    return this;
  }

  private void count(int moreDeltas, int moreLost, double moreWeight) {
    deltas += moreDeltas;
    residualsLost += moreLost;
    weightSum += moreWeight;
  }

  /** The dense sum, decoding the single delta into it first. */
  private double[] dense() {
    if (sum == null) {
      sum = new double[size];
      if (single != null) {
        single.addTo(sum, singleWeight);
        single = null;
      }
    }
    return sum;
  }

  /** The weighted sum of the decoded deltas added, every coordinate; a new array. */
  double[] sum() {
    if (sum != null) {
      return sum.clone();
    }
    double[] out = new double[size];
    if (single != null) {
      single.addTo(out, singleWeight);
    }
    return out;
  }

  /** The sum of the weights the deltas were added with. */
  double weightSum() {
    return weightSum;
  }

  /** How many deltas were added. */
  int deltas() {
    return deltas;
  }

  /** How many of the deltas added said their partition's residual was lost. */
  int residualsLost() {
    return residualsLost;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    out.writeInt(size);
    out.writeInt(deltas);
    out.writeInt(residualsLost);
    out.writeDouble(weightSum);
    if (single != null) {
      out.writeByte(SINGLE);
      out.writeDouble(singleWeight);
      single.writeTo(out);
    } else if (sum == null) {
      out.writeByte(EMPTY);
    } else {
      int nonZeros = 0;
      for (double v : sum) {
        nonZeros += v != 0 ? 1 : 0;
      }
      boolean sparse = 12L * nonZeros < 8L * size;
      out.writeByte(sparse ? SPARSE : DENSE);
      if (sparse) {
        out.writeInt(nonZeros);
      }
      for (int j = 0; j < size; j++) {
        if (!sparse) {
          out.writeDouble(sum[j]);
        } else if (sum[j] != 0) {
          out.writeInt(j);
          out.writeDouble(sum[j]);
        }
      }
    }
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    size = in.readInt();
    deltas = in.readInt();
    residualsLost = in.readInt();
    weightSum = in.readDouble();
    int form = in.readByte();
    switch (form) {
      case EMPTY -> { }
      case SINGLE -> {
        singleWeight = in.readDouble();
        single = QuantizedDelta.readFrom(in);
      }
      case DENSE -> {
        sum = new double[size];
        for (int j = 0; j < size; j++) {
          sum[j] = in.readDouble();
        }
      }
      case SPARSE -> {
        sum = new double[size];
        for (int n = in.readInt(); n > 0; n--) {
          int j = in.readInt();
          sum[j] = in.readDouble();
        }
      }
      default -> throw new InvalidObjectException("Cannot read a sum of deltas: its form is " + form
          + "; known forms are 0 (empty), 1 (one delta), 2 (dense) and 3 (sparse)");
    }
  }
}
