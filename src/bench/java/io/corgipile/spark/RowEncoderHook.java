package io.corgipile.spark;

import java.util.stream.IntStream;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The reader's own {@link FixedWidthRowEncoder}, which is package-private, opened to the benchmarks
 * (src/bench, compiled with the tests, so never in the library jar): a benchmark of the row path
 * then runs the encoder the reader runs instead of a copy of it that could drift.
 */
public final class RowEncoderHook {
  private final FixedWidthRowEncoder encoder;

  private RowEncoderHook(FixedWidthRowEncoder encoder) {
    this.encoder = encoder;
  }

  /** The encoder the reader builds for {@code schema} (BlockDecoder: every column, in order). */
  public static RowEncoderHook forSchema(StructType schema) {
    FixedWidthRowEncoder encoder =
        FixedWidthRowEncoder.forSchema(schema, IntStream.range(0, schema.size()).toArray());
    if (encoder == null) {
      throw new IllegalArgumentException("Cannot encode rows of " + schema.simpleString()
          + ": some field is not a fixed-width primitive");
    }
    return new RowEncoderHook(encoder);
  }

  public int rowBytes() {
    return encoder.rowBytes();
  }

  /** Writes rows {@code [first, first + n)} of the batch one after another into {@code target}, from its start. */
  public void encode(ColumnarBatch batch, int first, int n, byte[] target) {
    encoder.encode(batch, first, n, target);
  }
}
