package io.corgipile.spark;

import java.io.OutputStream;
import org.apache.spark.SparkEnv;
import org.apache.spark.serializer.SerializationStream;
import scala.reflect.ClassTag$;

/**
 * The bytes of a value as Spark's configured serializer writes it: what a broadcast of it ships to
 * each executor, before {@code spark.broadcast.compress}.
 */
public final class SerializedSize {
  private SerializedSize() {}

  /** Serializes {@code value} into a counter, so no copy of its bytes is held. */
  public static long of(Object value) {
    Counter counter = new Counter();
    SerializationStream stream = SparkEnv.get().serializer().newInstance().serializeStream(counter);
    stream.writeObject(value, ClassTag$.MODULE$.AnyRef());
    stream.close();
    return counter.bytes;
  }

  private static final class Counter extends OutputStream {
    private long bytes;

    @Override
    public void write(int b) {
      bytes++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      bytes += len;
    }
  }
}
