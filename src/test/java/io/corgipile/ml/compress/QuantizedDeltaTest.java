package io.corgipile.ml.compress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

class QuantizedDeltaTest {
  private static final int CHUNK = QuantizedDelta.CHUNK;

  /** Java serialization, as Spark's default serializer writes task results. */
  static byte[] serialize(Object value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Through Kryo, as Spark writes task results when {@code spark.serializer} is its KryoSerializer.
   */
  @SuppressWarnings("unchecked")
  static <T> T throughKryo(T value) {
    SerializerInstance kryo = new KryoSerializer(new SparkConf(false)).newInstance();
    ClassTag<Object> tag = ClassTag$.MODULE$.AnyRef();
    return (T) kryo.deserialize(kryo.serialize(value, tag), tag);
  }

  @SuppressWarnings("unchecked")
  static <T> T deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return (T) in.readObject();
    }
  }

  /** Values of mixed magnitudes and signs, the same every run. */
  static double[] randomDelta(int n, long seed) {
    Random random = new Random(seed);
    double[] delta = new double[n];
    for (int j = 0; j < n; j++) {
      delta[j] = random.nextGaussian() * Math.pow(10, random.nextInt(5) - 3);
    }
    return delta;
  }

  /** Half of the step of the chunk of {@code values} that holds position {@code i}. */
  private static double halfStep(double[] values, int i) {
    int from = i / CHUNK * CHUNK;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int k = from; k < Math.min(from + CHUNK, values.length); k++) {
      min = Math.min(min, values[k]);
      max = Math.max(max, values[k]);
    }
    // a chunk of both signs spares a level to put zero on its grid
    return (max - min) / (min < 0 && max > 0 ? 254 : 255) / 2;
  }

  @Test
  void theParamValuesAreTheLowerCaseNames() {
    assertThat(DeltaCompression.names()).containsExactly("none", "int8");
    assertThat(DeltaCompression.of(" INT8 ")).isEqualTo(DeltaCompression.INT8);
    assertThat(DeltaCompression.of("none")).isEqualTo(DeltaCompression.NONE);
    assertThatThrownBy(() -> DeltaCompression.of("fp16"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot compress deltas: deltaCompression is 'fp16'; allowed values are none, int8");
  }

  @ParameterizedTest(name = "{0} coordinates")
  @ValueSource(ints = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 1 << 20})
  void int8DecodesEveryCoordinateWithinHalfItsChunksStep(int n) {
    double[] delta = randomDelta(n, n);
    double[] decoded = QuantizedDelta.dense(delta, DeltaCompression.INT8).decode();
    assertThat(decoded).hasSize(n);
    for (int j = 0; j < n; j++) {
      double bound = halfStep(delta, j) * (1 + 1e-12) + Math.ulp(Math.abs(delta[j]));
      if (Math.abs(decoded[j] - delta[j]) > bound) {
        throw new AssertionError(
            "coordinate " + j + ": " + decoded[j] + " for " + delta[j] + ", bound " + bound);
      }
    }
  }

  @ParameterizedTest(name = "{0} coordinates")
  @ValueSource(ints = {0, 1, CHUNK + 1})
  void noneIsExact(int n) {
    double[] delta = randomDelta(n, 7);
    assertThat(QuantizedDelta.dense(delta, DeltaCompression.NONE).decode()).containsExactly(delta);
  }

  @Test
  void constantChunksDecodeExactly() {
    double[] delta = new double[2 * CHUNK + 3];
    Arrays.fill(delta, 0, CHUNK, 0.1);
    Arrays.fill(delta, CHUNK, 2 * CHUNK, -2.5);
    Arrays.fill(delta, 2 * CHUNK, delta.length, -3.7e-9);
    assertThat(QuantizedDelta.dense(delta, DeltaCompression.INT8).decode()).containsExactly(delta);
    // -0.0 comes back as 0.0, which adds the same to any sum
    assertThat(QuantizedDelta.dense(new double[] {-0.0, -0.0}, DeltaCompression.INT8).decode())
        .containsExactly(0.0, 0.0);
  }

  @Test
  void aOneSignedChunksMinAndMaxDecodeExactly() {
    double[] delta = {1.5, 0.2, 0.3, 2.5};
    double[] decoded = QuantizedDelta.dense(delta, DeltaCompression.INT8).decode();
    assertThat(decoded[1]).isEqualTo(0.2);
    assertThat(decoded[3]).isEqualTo(2.5);
  }

  /** A coordinate a round left alone must stay "not moved" for the coordinate-wise mean. */
  @Test
  void zeroInAChunkOfBothSignsDecodesToExactlyZero() {
    double[] delta = randomDelta(CHUNK * 3, 11);
    for (int j = 0; j < delta.length; j += 3) {
      delta[j] = 0;
    }
    double[] decoded = QuantizedDelta.dense(delta, DeltaCompression.INT8).decode();
    for (int j = 0; j < delta.length; j += 3) {
      assertThat(decoded[j]).as("coordinate %d", j).isEqualTo(0.0);
    }
  }

  @Test
  void encodingIsAPureFunctionOfTheDelta() {
    double[] delta = randomDelta(3 * CHUNK + 5, 3);
    assertThat(serialize(QuantizedDelta.dense(delta, DeltaCompression.INT8)))
        .isEqualTo(serialize(QuantizedDelta.dense(delta.clone(), DeltaCompression.INT8)));
  }

  @Test
  void nonFiniteCoordinatesAreRejected() {
    for (DeltaCompression compression : DeltaCompression.values()) {
      assertThatThrownBy(() -> QuantizedDelta.dense(new double[] {0, 1, Double.NaN}, compression))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot compress a delta: coordinate 2 is NaN; only finite values can be compressed");
      assertThatThrownBy(
              () -> QuantizedDelta.dense(new double[] {Double.NEGATIVE_INFINITY}, compression))
          .hasMessage(
              "Cannot compress a delta: coordinate 0 is -Infinity; only finite values can be"
                  + " compressed");
      assertThatThrownBy(
              () ->
                  QuantizedDelta.sparse(
                      10,
                      new int[] {3, 8},
                      new double[] {1, Double.POSITIVE_INFINITY},
                      compression))
          .hasMessage(
              "Cannot compress a delta: coordinate 8 is Infinity; only finite values can be"
                  + " compressed");
    }
  }

  @Test
  void aChunkWiderThanADoubleIsRejected() {
    double[] delta = new double[CHUNK + 2];
    delta[CHUNK] = -1e308;
    delta[CHUNK + 1] = 1e308;
    assertThatThrownBy(() -> QuantizedDelta.dense(delta, DeltaCompression.INT8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot compress a delta: coordinates 256 to 257 range from -1.0E308 to 1.0E308, wider"
                + " than a double holds; their difference must be finite");
    assertThatThrownBy(
            () ->
                QuantizedDelta.sparse(
                    1000, new int[] {5, 900}, new double[] {-1e308, 1e308}, DeltaCompression.INT8))
        .hasMessage(
            "Cannot compress a delta: coordinates 5 to 900 range from -1.0E308 to 1.0E308, wider"
                + " than a double holds; their difference must be finite");
    assertThat(QuantizedDelta.dense(delta, DeltaCompression.NONE).decode()).containsExactly(delta);
  }

  @Test
  void sparseDeltasCarryOnlyTheirCoordinates() {
    int size = 3_000_000;
    int[] indices = {0, 1, 127, 128, 300, 20_000, 2_999_999};
    double[] values = {0.5, -0.25, 1e-3, 0, 7, -7, 3.25};
    for (DeltaCompression compression : DeltaCompression.values()) {
      QuantizedDelta delta = QuantizedDelta.sparse(size, indices, values, compression);
      double[] decoded = delta.decode();
      double step = (7 - -7) / 255.0;
      for (int i = 0; i < indices.length; i++) {
        assertThat(decoded[indices[i]]).isCloseTo(values[i], offset(step / 2 * 1.000001));
        decoded[indices[i]] = 0;
      }
      assertThat(decoded).containsOnly(0.0);
      // gaps 0, 0, 125, 0, 171, 19699, 2979998: a varint byte per 7 bits
      long gapBytes = 1 + 1 + 1 + 1 + 2 + 3 + 4;
      assertThat(delta.payloadBytes())
          .isEqualTo(gapBytes + (compression == DeltaCompression.NONE ? 8L * 7 : 7 + 16));
    }
    assertThat(QuantizedDelta.sparse(10, new int[0], new double[0], DeltaCompression.INT8).decode())
        .containsOnly(0.0)
        .hasSize(10);
  }

  @Test
  void compactCarriesOnlyNonZerosWhileTheyAreUnderAQuarter() {
    double[] values = new double[1000];
    values[3] = 0.5;
    values[998] = -2;
    QuantizedDelta sparse = QuantizedDelta.compact(1000, null, values, DeltaCompression.INT8);
    assertThat(sparse.indices()).containsExactly(3, 998);
    assertThat(serialize(sparse))
        .isEqualTo(
            serialize(
                QuantizedDelta.sparse(
                    1000, new int[] {3, 998}, new double[] {0.5, -2}, DeltaCompression.INT8)));
    QuantizedDelta fromIndices =
        QuantizedDelta.compact(
            1000, new int[] {3, 7, 998}, new double[] {0.5, 0, -2}, DeltaCompression.INT8);
    assertThat(fromIndices.indices()).containsExactly(3, 998);
    assertThat(serialize(fromIndices)).isEqualTo(serialize(sparse));

    double[] quarter = new double[8];
    quarter[1] = 1;
    quarter[6] = -1;
    QuantizedDelta dense = QuantizedDelta.compact(8, null, quarter, DeltaCompression.INT8);
    assertThat(dense.indices()).isNull();
    assertThat(serialize(dense))
        .isEqualTo(serialize(QuantizedDelta.dense(quarter, DeltaCompression.INT8)));
    QuantizedDelta denseFromIndices =
        QuantizedDelta.compact(8, new int[] {1, 6}, new double[] {1, -1}, DeltaCompression.INT8);
    assertThat(serialize(denseFromIndices)).isEqualTo(serialize(dense));
    assertThat(QuantizedDelta.compact(8, null, new double[8], DeltaCompression.INT8).indices())
        .isEmpty();
    assertThatThrownBy(() -> QuantizedDelta.compact(8, null, new double[7], DeltaCompression.INT8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot compress a dense delta of 8 coordinates from 7 values; it needs one value per"
                + " coordinate");
  }

  @Test
  void sparseDeltasAreChecked() {
    assertThatThrownBy(
            () ->
                QuantizedDelta.sparse(
                    10, new int[] {1, 2}, new double[] {1}, DeltaCompression.INT8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot compress a sparse delta: it has 2 indices but 1 values; each index needs one"
                + " value");
    assertThatThrownBy(
            () ->
                QuantizedDelta.sparse(
                    10, new int[] {1, 10}, new double[] {1, 2}, DeltaCompression.NONE))
        .hasMessage(
            "Cannot compress a sparse delta: indices[1] is 10; indices must be in [0, 10) for a"
                + " delta of 10 coordinates");
    assertThatThrownBy(
            () ->
                QuantizedDelta.sparse(10, new int[] {-1}, new double[] {1}, DeltaCompression.INT8))
        .hasMessage(
            "Cannot compress a sparse delta: indices[0] is -1; indices must be in [0, 10) for a"
                + " delta of 10 coordinates");
    assertThatThrownBy(
            () ->
                QuantizedDelta.sparse(
                    10, new int[] {4, 4}, new double[] {1, 2}, DeltaCompression.INT8))
        .hasMessage(
            "Cannot compress a sparse delta: indices[1] is 4 after indices[0] = 4; indices must be"
                + " strictly increasing");
  }

  @Test
  void addToAccumulatesTheWeightedDecodedDelta() {
    double[] delta = randomDelta(CHUNK + 9, 11);
    QuantizedDelta payload = QuantizedDelta.dense(delta, DeltaCompression.INT8);
    double[] decoded = payload.decode();
    double[] target = new double[delta.length];
    Arrays.fill(target, 1.0);
    payload.addTo(target, 0.5);
    for (int j = 0; j < target.length; j++) {
      assertThat(target[j]).isEqualTo(1.0 + 0.5 * decoded[j]);
    }
    assertThatThrownBy(() -> payload.addTo(new double[3], 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot add a delta of 265 coordinates to a sum of 3; both must have the same number of"
                + " coordinates");
  }

  @ParameterizedTest(name = "{0} coordinates")
  @ValueSource(ints = {1000, 4096, 1 << 20})
  void int8CarriesAtLeast3Point5TimesFewerBytesThanNone(int n) {
    double[] delta = randomDelta(n, 5);
    long none = QuantizedDelta.dense(delta, DeltaCompression.NONE).payloadBytes();
    long int8 = QuantizedDelta.dense(delta, DeltaCompression.INT8).payloadBytes();
    assertThat(none).isEqualTo(8L * n);
    assertThat(int8).isEqualTo(n + 16L * ((n + CHUNK - 1) / CHUNK));
    assertThat((double) none / int8).isGreaterThanOrEqualTo(3.5);
  }

  @Test
  void javaSerializationWritesTheArraysBytesAndLittleElse() throws Exception {
    int n = 1 << 20;
    QuantizedDelta delta = QuantizedDelta.dense(randomDelta(n, 13), DeltaCompression.INT8);
    byte[] bytes = serialize(delta);
    assertThat(delta.payloadBytes()).isEqualTo(n + 16L * n / CHUNK);
    // ObjectOutputStream frames custom data in blocks of 1024 bytes with a 5-byte header each: 0.5%
    long framing = delta.payloadBytes() / 1024 * 5;
    assertThat((long) bytes.length)
        .isBetween(delta.payloadBytes(), delta.payloadBytes() + framing + 200);
    QuantizedDelta read = deserialize(bytes);
    assertThat(Arrays.equals(read.decode(), delta.decode())).as("the same decoded delta").isTrue();
    assertThat(read.payloadBytes()).isEqualTo(delta.payloadBytes());

    QuantizedDelta sparse =
        QuantizedDelta.sparse(
            1000, new int[] {3, 999}, new double[] {0.5, -2}, DeltaCompression.NONE);
    QuantizedDelta readSparse = deserialize(serialize(sparse));
    assertThat(readSparse.decode()).containsExactly(sparse.decode());
    assertThat(readSparse.payloadBytes()).isEqualTo(sparse.payloadBytes());
  }

  @Test
  void kryoCarriesTheFields() {
    QuantizedDelta dense = QuantizedDelta.dense(randomDelta(CHUNK + 1, 17), DeltaCompression.INT8);
    QuantizedDelta read = throughKryo(dense);
    assertThat(read.decode()).containsExactly(dense.decode());
    QuantizedDelta sparse =
        QuantizedDelta.sparse(
            1000, new int[] {3, 999}, new double[] {0.5, -2}, DeltaCompression.NONE);
    assertThat(throughKryo(sparse).decode()).containsExactly(sparse.decode());
  }

  @Test
  void aCorruptStreamIsRejected() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeInt(10); // size
      out.writeInt(11); // count, more than size
      out.writeByte(1);
      out.writeInt(-1);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      assertThatThrownBy(() -> QuantizedDelta.readFrom(in))
          .isInstanceOf(InvalidObjectException.class)
          .hasMessage(
              "Cannot read a compressed delta: size 10, count 11, compression 1 and -1 index bytes"
                  + " do not fit together");
    }
  }
}
