package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/** Fewer partitions, each of consecutive ones in order, whatever their locations. */
class InOrderCoalescerTest {
  private static JavaRDD<Integer> numbers(int count, int partitions) {
    return JavaSparkContext.fromSparkContext(SharedSpark.get().sparkContext())
        .parallelize(IntStream.range(0, count).boxed().toList(), partitions);
  }

  private static List<Integer> range(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  @Test
  void groupsConsecutivePartitionsInOrder() {
    // 10 partitions of 10 into 3: partitions [0, 3), [3, 6), [6, 10)
    List<List<Integer>> groups = InOrderCoalescer.coalesce(numbers(100, 10), 3).glom().collect();
    assertThat(groups).containsExactly(range(0, 30), range(30, 60), range(60, 100));
  }

  @Test
  void leavesAnRddOfNoMorePartitionsAsItIs() {
    JavaRDD<Integer> rdd = numbers(10, 3);
    assertThat(InOrderCoalescer.coalesce(rdd, 3)).isSameAs(rdd);
    assertThat(InOrderCoalescer.coalesce(rdd, 5)).isSameAs(rdd);
  }

  @Test
  void refusesFewerThanOnePartition() {
    assertThatThrownBy(() -> InOrderCoalescer.coalesce(numbers(10, 3), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot coalesce into 0 partitions: it needs at least 1");
  }
}
