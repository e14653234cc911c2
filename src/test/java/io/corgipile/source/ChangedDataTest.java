package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.ml.SGDClassifier;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A file that changes under a fit, after its scan was planned (between two epochs): deleted,
 * truncated, replaced at the same length, or with a row group gone bad behind the same length and
 * modification time. The fit fails naming the file, and the row group where it got that far; it
 * returns no model, and never trains on rows missing, doubled or other than planned.
 */
class ChangedDataTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {"deleted", "truncated", "replaced at the same length", "corrupt row group"})
  void aFileChangedBetweenEpochsFailsTheFitNamingIt(String change) throws Exception {
    Path dir = TestTables.tempDir("changed");
    String table = dir.resolve("t").toString();
    TestTables.spark()
        .range(0, 8000, 1, 2)
        .selectExpr("cast(id % 2 as int) as label", "cast(id as double) as x")
        .write()
        .option("parquet.block.row.count.limit", 1000)
        .parquet(table);
    Path file;
    try (Stream<Path> files = Files.list(Path.of(table))) {
      file =
          files.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
    }
    SparkContext sc = TestTables.spark().sparkContext();
    AtomicInteger jobs = new AtomicInteger();
    Path damaged = file;
    SparkListener afterTwoJobs =
        new SparkListener() {
          @Override
          public void onJobEnd(SparkListenerJobEnd end) {
            if (jobs.incrementAndGet() == 2) {
              damage(damaged, change);
            }
          }
        };
    sc.addSparkListener(afterTwoJobs);
    String messages = "";
    Exception failure = null;
    try {
      new SGDClassifier()
          .setSeed(1)
          .setMaxIter(40)
          .setTol(0)
          .setSyncInterval("epoch")
          .setStepSize(0.01)
          .setFeaturesCols(new String[] {"x"})
          .fit(TestTables.corgipile("partitions", "2").load(table));
    } catch (Exception e) { // Spark rethrows SparkException, a checked exception, undeclared
      failure = e;
      for (Throwable c = e; c != null; c = c.getCause()) {
        messages += c.getMessage() + "\n";
      }
    } finally {
      sc.removeSparkListener(afterTwoJobs);
    }
    assertThat(messages).as("the fit failed").isNotEmpty().contains(file.toUri().getPath());
    // the driver's own one-line report of what the task found, not Spark's job failure with its
    // trace
    assertThat(failure).isInstanceOf(CorgiPileAnalysisException.class);
    assertThat(failure.getMessage()).hasLineCount(1).contains(file.toUri().getPath());
    switch (change) {
      case "deleted" -> assertThat(messages).containsPattern("(does not exist|FileNotFound)");
      case "truncated" ->
          assertThat(messages).contains("the file changed since the scan was planned: it is");
      case "replaced at the same length" ->
          assertThat(messages)
              .contains("the file changed since the scan was planned: it was modified at");
      default -> assertThat(messages).contains("Cannot read row group 0 (offset 4, ");
    }
  }

  private static void damage(Path file, String change) {
    try {
      FileTime planned = Files.getLastModifiedTime(file);
      switch (change) {
        case "deleted" -> Files.delete(file);
        case "truncated" -> {
          try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 100);
          }
        }
        case "replaced at the same length" -> {
          byte[] bytes =
              Files.readAllBytes(file); // the same bytes, written anew: as a rewrite leaves it
          Files.delete(file);
          Files.write(file, bytes);
          Files.setLastModifiedTime(file, FileTime.fromMillis(planned.toMillis() + 2000));
        }
        default -> {
          // Garbage over row group 0's first page header (after the 4-byte magic), length and
          // modification time as planned: only decoding can tell.
          try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(4);
            raf.write(
                new byte[] {
                  (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff
                });
          }
          Files.setLastModifiedTime(file, planned);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
