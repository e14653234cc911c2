package io.corgipile.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.rand;
import static org.apache.spark.sql.functions.randn;

import io.corgipile.shuffle.SplitMix64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The generated data sets of {@code scripts/bench shapes} ({@link ShapeSuite}): each a named
 * generator with a seed, written once as Parquet under the data folder. Every shape has columns
 * {@code id}, {@code features} (a vector), {@code label} (0..classes-1) and, where the table is
 * clustered by another column, {@code source}. The training table is stored sorted by its {@link
 * Shape#order() order} column (then id) in {@value #ROW_GROUPS} row groups, so that at P=128 a
 * partition holds about 4; beside it a copy of the same rows in random order (the full-shuffle
 * reference) and a test table of other rows in random order.
 */
final class Shapes {
  private Shapes() {}

  /**
   * Row groups of a training table: 4 per partition at P=128, as the table (a partition "a
   * few row groups").
   */
  static final int ROW_GROUPS = 512;

  /** Partitions of the generating jobs: fixed, so a shape's rows do not depend on the machine. */
  private static final int GENERATING_PARTITIONS = 4;

  /** A shape: how its rows are made, and what a reader of the results needs to know of it. */
  record Shape(
      String name,
      int classes,
      int features,
      boolean sparse,
      String order,
      long seed,
      String description,
      Generator generator) {
    /** {@code n} rows, ids 0..n-1, columns id, features, label and, if clustered, source. */
    Dataset<Row> rows(SparkSession spark, long n) {
      return generator.rows(spark, n, seed);
    }

    /** Whether the table is stored in order of a column other than the label. */
    boolean clustered() {
      return !order.equals("label");
    }
  }

  /** Makes a shape's rows; the same rows for the same n and seed. */
  @FunctionalInterface
  interface Generator {
    Dataset<Row> rows(SparkSession spark, long n, long seed);
  }

  /** Where a shape's tables of one size are. */
  record Tables(Path dir, String train, String shuffled, String test) {}

  private static final int DENSE_FEATURES = 20;
  private static final int SOURCES = 16;
  private static final int SPARSE_FEATURES = 2_000;
  private static final int SPARSE_TOKENS = 20;
  private static final int TOPIC_CLASSES = 10;
  private static final int TOPIC_WORDS = 1_000;
  private static final int TOPIC_SOURCES = 8;
  private static final int TOPIC_TOKENS = 30;
  private static final int TOPIC_WORDS_PER_CLASS = 20;
  private static final double TOPIC_SHARE = 0.15;
  private static final double SOURCE_SHARE = 0.25;
  private static final double IMAGE_MIX = 0.4;
  private static final int SIDE = 28;
  private static final int PIXELS = SIDE * SIDE;

  /** The suite's shapes, in the order it runs and reports them. */
  static final List<Shape> ALL =
      List.of(
          new Shape(
              "separable",
              2,
              4,
              false,
              "label",
              1,
              "4 dense features uniform on [0, 1], unscaled; label f0 + f1 > 1: separable"
                  + " (ConvergenceBenchmark's `separable`)",
              (spark, n, seed) ->
                  assembled(ConvergenceBenchmark.separableRows(spark, n, seed, partitions()), 4)),
          new Shape(
              "noisy",
              2,
              DENSE_FEATURES,
              false,
              "label",
              2,
              "20 dense standard normal features; label from a linear model plus normal noise:"
                  + " the model's own accuracy is about 0.80",
              Shapes::noisy),
          new Shape(
              "scales",
              2,
              DENSE_FEATURES,
              false,
              "label",
              3,
              "`noisy`'s model with less noise (about 0.90), column j scaled by 10^(-3 + 7j/19):"
                  + " 1e-3 to 1e4, every other column off center by its scale",
              Shapes::scales),
          new Shape(
              "clustered",
              2,
              DENSE_FEATURES,
              false,
              "source",
              4,
              "20 dense features, 16 sources, each shifting the features' means across the true"
                  + " weights (so the label share is the same in every source); about 0.90"
                  + " reachable; stored by source",
              Shapes::clustered),
          new Shape(
              "sparse",
              2,
              SPARSE_FEATURES,
              true,
              "label",
              5,
              "2,000 features, 20 tokens a row at skewed frequencies (about 1% non-zero, counts),"
                  + " sparse vectors; label from a linear model plus noise",
              Shapes::sparse),
          new Shape(
              "classes",
              10,
              50,
              false,
              "label",
              6,
              "10 classes of overlapping Gaussian clusters in 50 dense dimensions"
                  + " (ConvergenceBenchmark's `classes`, LogisticRegression about 0.8)",
              (spark, n, seed) ->
                  assembled(ConvergenceBenchmark.classRows(spark, n, seed, partitions()), 50)),
          new Shape(
              "topics",
              TOPIC_CLASSES,
              TOPIC_WORDS,
              true,
              "source",
              7,
              "10 classes (topics) of 1,000 sparse word counts, 30 words a row from the topic, the"
                  + " row's source (8 sources) or anywhere; stored by source",
              Shapes::topics),
          new Shape(
              "images",
              2,
              PIXELS,
              true,
              "label",
              8,
              "784 pixels in [0, 1] (28 x 28), most 0: two prototype rings sharing most pixels,"
                  + " a row mixes the two where they differ, keeps 80% of its pixels and gets"
                  + " speckle (shaped like the issue's data)",
              Shapes::images));

  /** The shape of that name; the message lists the names. */
  static Shape named(String name) {
    return ALL.stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot use shape '"
                        + name
                        + "': expected one of "
                        + ALL.stream().map(Shape::name).collect(Collectors.joining(","))));
  }

  /**
   * Writes the shape's tables of {@code rows} training rows and {@code testRows} test rows under
   * {@code data}, unless an earlier run did; returns where they are.
   */
  static Tables write(SparkSession spark, Shape shape, long rows, long testRows, Path data) {
    Path dir = data.resolve("shapes-" + shape.name() + "-" + rows);
    Tables t =
        new Tables(
            dir,
            dir.resolve("train-sorted-by-" + shape.order()).toString(),
            dir.resolve("train-shuffled").toString(),
            dir.resolve("test-" + testRows).toString());
    if (Files.exists(Path.of(t.test(), "_SUCCESS"))) {
      return t;
    }
    System.err.printf(
        Locale.ROOT,
        "[shapes] generating %s: %,d training rows under %s%n",
        shape.name(),
        rows,
        dir);
    // ids below testRows are the test rows, the others the training rows
    Dataset<Row> all = shape.rows(spark, rows + testRows);
    Dataset<Row> train = all.where(col("id").geq(testRows));
    long groupRows = Math.max(1, (rows + ROW_GROUPS - 1) / ROW_GROUPS);
    train
        .orderBy(col(shape.order()), col("id"))
        .coalesce(1)
        .write()
        .mode("overwrite")
        .option("parquet.block.row.count.limit", groupRows)
        .parquet(t.train());
    train
        .orderBy(rand(shape.seed() * 1000 + 901))
        .coalesce(1)
        .write()
        .mode("overwrite")
        .option("parquet.block.row.count.limit", groupRows)
        .parquet(t.shuffled());
    all.where(col("id").lt(testRows))
        .orderBy(rand(shape.seed() * 1000 + 902))
        .coalesce(1)
        .write()
        .mode("overwrite")
        .parquet(t.test());
    return t;
  }

  private static int partitions() {
    return GENERATING_PARTITIONS;
  }

  /** Columns {@code f0..f<n-1>} as the vector {@code features}, unscaled. */
  private static Dataset<Row> assembled(Dataset<Row> d, int n) {
    String[] names = new String[n];
    Arrays.setAll(names, i -> "f" + i);
    List<Column> keep = new ArrayList<>(List.of(col("id"), col("features"), col("label")));
    if (Arrays.asList(d.columns()).contains("source")) {
      keep.add(col("source"));
    }
    return new VectorAssembler()
        .setInputCols(names)
        .setOutputCol("features")
        .transform(d)
        .select(keep.toArray(new Column[0]));
  }

  /** The true weights of the dense binary shapes: 1 on every third feature, -0.5 elsewhere. */
  static double[] denseWeights() {
    double[] w = new double[DENSE_FEATURES];
    Arrays.setAll(w, j -> j % 3 == 0 ? 1.0 : -0.5);
    return w;
  }

  /** {@code z0..z19} standard normal, and label w.z + noise * N(0, 1) > 0. */
  private static Dataset<Row> normalWithLabel(SparkSession spark, long n, long seed, double noise) {
    List<Column> columns = new ArrayList<>(List.of(col("id")));
    for (int j = 0; j < DENSE_FEATURES; j++) {
      columns.add(randn(seed * 1000 + j).as("z" + j));
    }
    columns.add(randn(seed * 1000 + 999).multiply(noise).as("noise"));
    columns.add(floor(rand(seed * 1000 + 998).multiply(SOURCES)).cast("int").as("source"));
    Dataset<Row> d =
        spark.range(0, n, 1, GENERATING_PARTITIONS).select(columns.toArray(new Column[0]));
    double[] w = denseWeights();
    StringBuilder margin = new StringBuilder("noise");
    for (int j = 0; j < DENSE_FEATURES; j++) {
      margin.append(String.format(Locale.ROOT, " + %s * z%d", w[j], j));
    }
    return d.withColumn("label", expr("cast(" + margin + " > 0 as double)"));
  }

  /**
   * Noise of sd 2.3 against the margin's sd of 3.2: a correlation of 0.81 between the two, so the
   * true model is right about 1 - arccos(0.81) / pi = 0.80 of the time.
   */
  private static Dataset<Row> noisy(SparkSession spark, long n, long seed) {
    Dataset<Row> d = normalWithLabel(spark, n, seed, 2.3);
    for (int j = 0; j < DENSE_FEATURES; j++) {
      d = d.withColumn("f" + j, col("z" + j));
    }
    return assembled(d.drop("source"), DENSE_FEATURES);
  }

  /** The scale of column j of {@code scales}: 1e-3 to 1e4 on a log scale. */
  static double scale(int j) {
    return Math.pow(10, -3 + 7.0 * j / (DENSE_FEATURES - 1));
  }

  private static Dataset<Row> scales(SparkSession spark, long n, long seed) {
    Dataset<Row> d = normalWithLabel(spark, n, seed, 1.0);
    for (int j = 0; j < DENSE_FEATURES; j++) {
      d = d.withColumn("f" + j, col("z" + j).plus(j % 2).multiply(scale(j)));
    }
    return assembled(d.drop("source"), DENSE_FEATURES);
  }

  /**
   * Source s shifts the features by a mean of norm about 6, made orthogonal to the true weights:
   * the label is w.z + noise > 0 either way, so it does not depend on the source, while the
   * features do.
   */
  private static Dataset<Row> clustered(SparkSession spark, long n, long seed) {
    Dataset<Row> d = normalWithLabel(spark, n, seed, 1.0);
    double[][] means = sourceMeans();
    for (int j = 0; j < DENSE_FEATURES; j++) {
      Column[] m = new Column[SOURCES];
      for (int s = 0; s < SOURCES; s++) {
        m[s] = functions.lit(means[s][j]);
      }
      d =
          d.withColumn(
              "f" + j,
              col("z" + j).plus(functions.element_at(functions.array(m), col("source").plus(1))));
    }
    return assembled(d, DENSE_FEATURES);
  }

  /** Per source, the shift of the features' means: 2 sin(s (j + 1)), w's direction removed. */
  static double[][] sourceMeans() {
    double[] w = denseWeights();
    double ww = Arrays.stream(w).map(x -> x * x).sum();
    double[][] means = new double[SOURCES][DENSE_FEATURES];
    for (int s = 0; s < SOURCES; s++) {
      double dot = 0;
      for (int j = 0; j < DENSE_FEATURES; j++) {
        means[s][j] = 2 * Math.sin((s + 1) * (j + 1));
        dot += means[s][j] * w[j];
      }
      for (int j = 0; j < DENSE_FEATURES; j++) {
        means[s][j] -= dot / ww * w[j];
      }
    }
    return means;
  }

  /** The schema of the shapes made row by row. */
  private static StructType schema(boolean source) {
    StructType s =
        new StructType()
            .add("id", DataTypes.LongType, false)
            .add("features", SQLDataTypes.VectorType(), false)
            .add("label", DataTypes.DoubleType, false);
    return source ? s.add("source", DataTypes.IntegerType, false) : s;
  }

  /** A row's own random numbers: the same for the same seed and id, on any machine. */
  private static SplitMix64 random(long seed, long id) {
    return new SplitMix64(new SplitMix64(seed).nextLong() + id);
  }

  private static double uniform(SplitMix64 r) {
    return (r.nextLong() >>> 11) * 0x1.0p-53;
  }

  /** A standard normal number (Box-Muller). */
  private static double gaussian(SplitMix64 r) {
    double u = 1 - uniform(r); // in (0, 1]
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform(r));
  }

  /** Counts of the given indices as a sparse vector of {@code size}. */
  private static Vector counts(int size, int[] indices) {
    TreeMap<Integer, Double> counts = new TreeMap<>();
    for (int i : indices) {
      counts.merge(i, 1.0, Double::sum);
    }
    return Vectors.sparse(
        size,
        counts.keySet().stream().mapToInt(Integer::intValue).toArray(),
        counts.values().stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * Token i of a {@code sparse} row is feature floor(2000 u^2): low features are frequent (feature
   * 0 in about 2% of the tokens, feature 1,999 in 0.01%). The label is the tokens' weights (uniform
   * on [-1, 1], one per feature) plus noise of sd 1.3, less their expected sum, above 0.
   */
  private static Dataset<Row> sparse(SparkSession spark, long n, long seed) {
    double[] w = new double[SPARSE_FEATURES];
    SplitMix64 weights = random(seed, -1);
    double expected = 0;
    for (int i = 0; i < w.length; i++) {
      w[i] = 2 * uniform(weights) - 1;
      double p = Math.sqrt((i + 1.0) / w.length) - Math.sqrt((double) i / w.length);
      expected += SPARSE_TOKENS * p * w[i];
    }
    double bias = expected;
    MapFunction<Long, Row> row =
        id -> {
          SplitMix64 r = random(seed, id);
          int[] tokens = new int[SPARSE_TOKENS];
          double margin = -bias;
          for (int t = 0; t < tokens.length; t++) {
            double u = uniform(r);
            tokens[t] = (int) (SPARSE_FEATURES * u * u);
            margin += w[tokens[t]];
          }
          margin += 1.3 * gaussian(r);
          return RowFactory.create(id, counts(SPARSE_FEATURES, tokens), margin > 0 ? 1.0 : 0.0);
        };
    return spark.range(0, n, 1, GENERATING_PARTITIONS).map(row, Encoders.row(schema(false))).toDF();
  }

  /** {@code count} distinct words of {@code words}, drawn by {@code r}. */
  private static int[] words(SplitMix64 r, int count) {
    return java.util.stream.IntStream.generate(() -> r.nextInt(TOPIC_WORDS))
        .distinct()
        .limit(count)
        .toArray();
  }

  /**
   * Label and source uniform and independent; each of a row's 30 words is one of its topic's 20
   * words with probability 0.15, one of its source's 20 with 0.25, else any of the 1,000.
   */
  private static Dataset<Row> topics(SparkSession spark, long n, long seed) {
    int[][] topic = new int[TOPIC_CLASSES][];
    for (int k = 0; k < TOPIC_CLASSES; k++) {
      topic[k] = words(random(seed, -1 - k), TOPIC_WORDS_PER_CLASS);
    }
    int[][] source = new int[TOPIC_SOURCES][];
    for (int s = 0; s < TOPIC_SOURCES; s++) {
      source[s] = words(random(seed, -100 - s), TOPIC_WORDS_PER_CLASS);
    }
    MapFunction<Long, Row> row =
        id -> {
          SplitMix64 r = random(seed, id);
          int label = r.nextInt(TOPIC_CLASSES);
          int s = r.nextInt(TOPIC_SOURCES);
          int[] tokens = new int[TOPIC_TOKENS];
          for (int t = 0; t < tokens.length; t++) {
            double u = uniform(r);
            tokens[t] =
                u < TOPIC_SHARE
                    ? topic[label][r.nextInt(TOPIC_WORDS_PER_CLASS)]
                    : u < TOPIC_SHARE + SOURCE_SHARE
                        ? source[s][r.nextInt(TOPIC_WORDS_PER_CLASS)]
                        : r.nextInt(TOPIC_WORDS);
          }
          return RowFactory.create(id, counts(TOPIC_WORDS, tokens), (double) label, s);
        };
    return spark.range(0, n, 1, GENERATING_PARTITIONS).map(row, Encoders.row(schema(true))).toDF();
  }

  /**
   * The two prototypes of {@code images}: a ring of radius 5 to 9 around the center (class 0); the
   * same ring with a gap at the top and a tail to the lower right (class 1).
   */
  static double[][] prototypes() {
    double[] ring = new double[PIXELS];
    double[] other = new double[PIXELS];
    for (int r = 0; r < SIDE; r++) {
      for (int c = 0; c < SIDE; c++) {
        double d = Math.hypot(r - 13.5, c - 13.5);
        double v = d >= 6 && d <= 8 ? 1.0 : d >= 5 && d <= 9 ? 0.5 : 0.0;
        ring[r * SIDE + c] = v;
        boolean gap = r < 8 && Math.abs(c - 13.5) < 2.5;
        boolean tail = r >= 18 && r <= 25 && Math.abs(c - r) <= 1;
        other[r * SIDE + c] = tail ? 1.0 : gap ? 0.0 : v;
      }
    }
    return new double[][] {ring, other};
  }

  /**
   * A row of class k takes its class's prototype where the two agree; where they differ, each pixel
   * is the other class's with probability m, m uniform on [0, 0.4] per row (so the classes
   * overlap). Every lit pixel is kept with probability 0.8, at an intensity of a (0.7 + 0.3 u), a
   * uniform on [0.5, 1] per row; each pixel is speckled (at least u) with probability 0.03.
   */
  private static Dataset<Row> images(SparkSession spark, long n, long seed) {
    double[][] proto = prototypes();
    MapFunction<Long, Row> row =
        id -> {
          SplitMix64 r = random(seed, id);
          int label = r.nextInt(2);
          double m = IMAGE_MIX * uniform(r);
          double a = 0.5 + 0.5 * uniform(r);
          double[] x = new double[PIXELS];
          for (int p = 0; p < PIXELS; p++) {
            double own = proto[label][p];
            double v = own == proto[1 - label][p] || uniform(r) >= m ? own : proto[1 - label][p];
            if (v > 0 && uniform(r) < 0.8) {
              x[p] = a * v * (0.7 + 0.3 * uniform(r));
            }
            if (uniform(r) < 0.03) {
              x[p] = Math.max(x[p], uniform(r));
            }
          }
          return RowFactory.create(id, Vectors.dense(x).compressed(), (double) label);
        };
    return spark.range(0, n, 1, GENERATING_PARTITIONS).map(row, Encoders.row(schema(false))).toDF();
  }
}
