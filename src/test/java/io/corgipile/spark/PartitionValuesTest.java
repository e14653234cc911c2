package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.NarrowDependency;
import org.apache.spark.Partition;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction2;
import org.apache.spark.rdd.RDD;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;

/** Each task gets its own partition's value, and only that one. */
class PartitionValuesTest {
  private static final int PARTITIONS = 4;
  private static final int VALUE_BYTES = 100_000;

  private static JavaSparkContext jsc() {
    return JavaSparkContext.fromSparkContext(SharedSpark.get().sparkContext());
  }

  /** A value of {@link #VALUE_BYTES} bytes, each {@code b}. */
  private static byte[] value(int b) {
    byte[] v = new byte[VALUE_BYTES];
    Arrays.fill(v, (byte) b);
    return v;
  }

  private static List<byte[]> values() {
    return IntStream.range(0, PARTITIONS).mapToObj(PartitionValuesTest::value).toList();
  }

  /** What a task saw: its partition, its rows, and the first byte of every value it got. */
  private static final FlatMapFunction2<Iterator<Integer>, Iterator<byte[]>, int[]> SEEN =
      (rows, values) -> {
        int count = 0;
        while (rows.hasNext()) {
          rows.next();
          count++;
        }
        List<Integer> firstBytes = new ArrayList<>();
        values.forEachRemaining(v -> firstBytes.add((int) v[0]));
        int[] seen = new int[2 + firstBytes.size()];
        seen[0] = TaskContext.getPartitionId();
        seen[1] = count;
        for (int i = 0; i < firstBytes.size(); i++) {
          seen[2 + i] = firstBytes.get(i);
        }
        return List.of(seen).iterator();
      };

  private static long javaSerializedSize(Object o) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.size();
  }

  @Test
  void everyTaskGetsTheValueOfItsPartitionAndNoOther() {
    JavaRDD<Integer> rows = jsc().parallelize(IntStream.range(0, 40).boxed().toList(), PARTITIONS);
    List<int[]> seen = PartitionValues.zip(rows, values(), SEEN).collect();
    assertThat(seen).hasSize(PARTITIONS);
    for (int p = 0; p < PARTITIONS; p++) {
      assertThat(seen.get(p)).containsExactly(p, 10, p);
    }
  }

  /**
   * A task's serialized partition holds its own value only, and what every task gets (the job's RDD
   * and function, broadcast as the task binary) none: the values travel each to one task.
   */
  @Test
  void aTasksPartitionCarriesItsOwnValueAndTheJobNone() {
    JavaRDD<Integer> rows = jsc().parallelize(IntStream.range(0, 40).boxed().toList(), PARTITIONS);
    RDD<int[]> zipped = PartitionValues.zip(rows, values(), SEEN).rdd();
    for (Partition partition : zipped.partitions()) {
      assertThat(javaSerializedSize(partition)).isBetween((long) VALUE_BYTES, VALUE_BYTES + 2_000L);
    }
    assertThat(javaSerializedSize(new Object[] {zipped, SEEN})).isLessThan(VALUE_BYTES / 10);
  }

  /** No shuffle, and the tasks run where the RDD's partitions prefer, as without the values. */
  @Test
  void theZipIsNarrowAndKeepsTheRddsPreferredLocations() {
    List<Tuple2<Integer, Seq<String>>> placed = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      placed.add(new Tuple2<>(p, CollectionConverters.asScala(List.of("host-" + p)).toSeq()));
    }
    RDD<Integer> rows =
        jsc()
            .sc()
            .makeRDD(
                CollectionConverters.asScala(placed).toSeq(),
                ClassTag$.MODULE$.apply(Integer.class));
    RDD<int[]> zipped = PartitionValues.zip(rows.toJavaRDD(), values(), SEEN).rdd();
    assertThat(CollectionConverters.asJava(zipped.dependencies()))
        .isNotEmpty()
        .allMatch(d -> d instanceof NarrowDependency);
    for (int p = 0; p < PARTITIONS; p++) {
      assertThat(CollectionConverters.asJava(zipped.preferredLocations(zipped.partitions()[p])))
          .containsExactly("host-" + p);
    }
  }

  @Test
  void itNeedsOneValuePerPartition() {
    JavaRDD<Integer> rows = jsc().parallelize(List.of(1, 2, 3), 3);
    assertThatThrownBy(() -> PartitionValues.zip(rows, values(), SEEN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot send each task a value of its own: 4 values for an RDD of 3 partitions; it"
                + " needs one value per partition");
  }
}
