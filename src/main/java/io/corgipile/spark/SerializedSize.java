package io.corgipile.spark;

import java.io.OutputStream;
import org.apache.spark.SparkContext;
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

  /**
   * What a broadcast of {@code value} ships: its size times the executors it reaches, in local mode
   * the driver's own (the status tracker lists the driver among the executors).
   */
  public static long broadcast(SparkContext sc, Object value) {
    return of(value) * Math.max(1, sc.statusTracker().getExecutorInfos().length - 1);
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
