package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.SharedSpark;
import io.corgipile.bench.Shapes.Shape;
import io.corgipile.source.TestTables;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each shape of the suite has the rows, classes, sparsity and storage order it documents, and is
 * the same when generated again.
 */
class ShapesTest {
  private static final long ROWS = 1_024;
  private static final long TEST_ROWS = 200;

  @TempDir static Path data;

  static List<String> shapes() {
    return Shapes.ALL.stream().map(Shape::name).toList();
  }

  /** The rows of a table in storage order (one small file: one partition). */
  private static List<Row> stored(SparkSession spark, String table) {
    return spark.read().parquet(table).collectAsList();
  }

  private static double[] column(List<Row> rows, String name) {
    int i = rows.get(0).fieldIndex(name);
    return rows.stream().mapToDouble(r -> ((Number) r.get(i)).doubleValue()).toArray();
  }

  /** How often consecutive values differ. */
  private static int changes(double[] values) {
    return (int) IntStream.range(1, values.length).filter(i -> values[i] != values[i - 1]).count();
  }

  private static boolean sorted(double[] values) {
    return IntStream.range(1, values.length).allMatch(i -> values[i] >= values[i - 1]);
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void writesTheDocumentedShape(String name) {
    SparkSession spark = SharedSpark.get();
    Shape shape = Shapes.named(name);
    Shapes.Tables t = Shapes.write(spark, shape, ROWS, TEST_ROWS, data);

    List<Row> train = stored(spark, t.train());
    List<Row> shuffled = stored(spark, t.shuffled());
    List<Row> test = stored(spark, t.test());
    assertThat(train).hasSize((int) ROWS);
    assertThat(test).hasSize((int) TEST_ROWS);
    // the shuffled copy holds the training rows, the test rows are others
    Set<Double> trainIds = Arrays.stream(column(train, "id")).boxed().collect(Collectors.toSet());
    assertThat(Arrays.stream(column(shuffled, "id")).boxed().collect(Collectors.toSet()))
        .isEqualTo(trainIds);
    assertThat(Arrays.stream(column(test, "id")).boxed().toList()).noneMatch(trainIds::contains);
    // the same rows when generated again
    assertThat(
            shape
                .rows(spark, ROWS + TEST_ROWS)
                .where("id >= " + TEST_ROWS)
                .orderBy("id")
                .collectAsList())
        .isEqualTo(
            train.stream().sorted(java.util.Comparator.comparingLong(r -> r.getLong(0))).toList());
    // 512 row groups: several for every partition at P=128
    assertThat(TestTables.rowGroups(t.train())).isEqualTo(Shapes.ROW_GROUPS);

    // classes 0..K-1, each present
    Set<Double> labels = new TreeSet<>();
    Arrays.stream(column(train, "label")).forEach(labels::add);
    assertThat(labels)
        .containsExactlyElementsOf(
            IntStream.range(0, shape.classes()).mapToObj(k -> (double) k).toList());

    // the features: size, storage, share of non-zeros
    int f = train.get(0).fieldIndex("features");
    List<Vector> x = train.stream().map(r -> (Vector) r.get(f)).toList();
    assertThat(x).allMatch(v -> v.size() == shape.features());
    double nonZeros = x.stream().mapToDouble(Vector::numNonzeros).sum() / (ROWS * shape.features());
    if (shape.sparse()) {
      assertThat(x).allMatch(v -> v instanceof SparseVector);
      assertThat(nonZeros).isLessThan(0.35);
    } else {
      assertThat(x).allMatch(v -> v instanceof DenseVector);
      assertThat(nonZeros).isGreaterThan(0.99);
    }

    // stored by the order column; the shuffled copy and the test rows are not
    double[] order = column(train, shape.order());
    assertThat(sorted(order)).isTrue();
    assertThat(sorted(column(shuffled, shape.order()))).isFalse();
    assertThat(sorted(column(test, shape.order()))).isFalse();
    if (shape.clustered()) {
      // the label runs through every source, about evenly
      double[] label = column(train, "label");
      assertThat(changes(label)).isGreaterThan((int) ROWS / 4);
      Map<Double, double[]> bySource = new HashMap<>();
      for (int i = 0; i < label.length; i++) {
        double[] c = bySource.computeIfAbsent(order[i], s -> new double[2]);
        c[0]++;
        c[1] += label[i] == 0 ? 1 : 0;
      }
      for (double[] c : bySource.values()) {
        assertThat(c[1] / c[0]).isBetween(0.3 / shape.classes(), 3.0 / shape.classes());
      }
    } else {
      assertThat(changes(order)).isEqualTo(shape.classes() - 1);
    }
  }

  @Test
  void scalesSpanTheDocumentedRange() {
    SparkSession spark = SharedSpark.get();
    List<Row> rows = Shapes.named("scales").rows(spark, 2_000).collectAsList();
    int f = rows.get(0).fieldIndex("features");
    double[] sd = new double[20];
    for (int j = 0; j < sd.length; j++) {
      int col = j;
      double[] v = rows.stream().mapToDouble(r -> ((Vector) r.get(f)).apply(col)).toArray();
      double mean = Arrays.stream(v).average().orElseThrow();
      sd[j] = Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).average().orElseThrow());
    }
    assertThat(sd[0]).isBetween(0.8e-3, 1.2e-3);
    assertThat(sd[19]).isBetween(0.8e4, 1.2e4);
  }

  @Test
  void imagesArePixelsInTheUnitInterval() {
    SparkSession spark = SharedSpark.get();
    List<Row> rows = Shapes.named("images").rows(spark, 500).collectAsList();
    int f = rows.get(0).fieldIndex("features");
    assertThat(rows)
        .allMatch(
            r -> Arrays.stream(((Vector) r.get(f)).toArray()).allMatch(v -> v >= 0 && v <= 1));
    double[][] p = Shapes.prototypes();
    long shared = IntStream.range(0, p[0].length).filter(i -> p[0][i] > 0 && p[1][i] > 0).count();
    long lit = IntStream.range(0, p[0].length).filter(i -> p[0][i] > 0 || p[1][i] > 0).count();
    assertThat((double) shared / lit).as("pixels the prototypes share").isGreaterThan(0.8);
  }

  @Test
  void aWrongNameIsRefusedWithTheNames() {
    assertThatThrownBy(() -> Shapes.named("blobs"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use shape 'blobs': expected one of"
                + " separable,noisy,scales,clustered,sparse,classes,topics,images");
  }
}
