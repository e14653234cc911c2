package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Spark internals and {@code UnsafeRow} byte layouts stay in {@code io.corgipile.spark}. */
class AdapterBoundaryTest {
  private static final Path SOURCES = Paths.get("src", "main", "java");
  private static final Path ADAPTER = SOURCES.resolve(Paths.get("io", "corgipile", "spark"));

  /** Spark-internal packages, developer APIs, and what computes {@code UnsafeRow} addresses. */
  static final Pattern INTERNAL =
      Pattern.compile(
          "org\\.apache\\.spark\\.unsafe|org\\.apache\\.spark\\.sql\\.execution|org\\.apache\\.spark\\.sql\\.internal"
              + "|org\\.apache\\.spark\\.sql\\.classic|\\bPlatform\\.|\\bBitSetMethods\\b|\\bgetBase(Offset|Object)\\b"
              + "|org\\.apache\\.spark\\.scheduler|\\bSparkEnv\\b");

  /** Pointing an unsafe row, array or map at bytes, in a file that names one of them. */
  static final Pattern POINTING = Pattern.compile("\\bpointTo\\(");

  static final Pattern UNSAFE_DATA = Pattern.compile("\\bUnsafe(Row|ArrayData|MapData)\\b");

  /**
   * The uses of Spark internals in {@code source}, one line each as {@code file:line: text}. The
   * adapter's own {@link FeatureVector#pointTo} is allowed: a file that calls it without naming an
   * unsafe row computes no byte offsets.
   */
  static List<String> violations(Path file, String source) {
    boolean unsafeData = UNSAFE_DATA.matcher(source).find();
    List<String> found = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (INTERNAL.matcher(lines[i]).find() || (unsafeData && POINTING.matcher(lines[i]).find())) {
        found.add(file + ":" + (i + 1) + ": " + lines[i].trim());
      }
    }
    return found;
  }

  @Test
  void noFileOutsideTheAdapterPackageTouchesSparkInternals() throws IOException {
    assertThat(ADAPTER).as("run from the project directory").isDirectory();
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file :
          (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java")).sorted()::iterator) {
        if (!file.startsWith(ADAPTER)) {
          found.addAll(violations(file, Files.readString(file)));
        }
      }
    }
    assertThat(found)
        .as("Spark internals outside %s (move them into the adapter package)", ADAPTER)
        .isEmpty();
  }

  @Test
  void theCheckFindsInternalsAndPointing() {
    Path file = Paths.get("Example.java");
    assertThat(violations(file, "import org.apache.spark.unsafe.Platform;\nclass A {}")).hasSize(1);
    assertThat(violations(file, "x = (org.apache.spark.sql.classic.Dataset<?>) d;")).hasSize(1);
    assertThat(violations(file, "row.pointTo(bytes, Platform.BYTE_ARRAY_OFFSET + o, n);"))
        .hasSize(1);
    assertThat(violations(file, "BitSetMethods.isSet(base, offset, 3)")).hasSize(1);
    assertThat(violations(file, "import org.apache.spark.scheduler.SparkListener;")).hasSize(1);
    assertThat(violations(file, "long n = SparkEnv.get().serializer();")).hasSize(1);
    assertThat(violations(file, "UnsafeRow row = new UnsafeRow(3);\nrow.pointTo(bytes, 24);"))
        .hasSize(1);
    assertThat(violations(file, "UnsafeRow row = stream.get();\nint n = row.getSizeInBytes();"))
        .isEmpty();
    assertThat(violations(file, "UnsafeRows.view(row, bytes, offset, n);")).isEmpty();
    assertThat(violations(file, "FeatureVector x = new FeatureVector();\nx.pointTo(row, 0);"))
        .isEmpty();
  }
}
