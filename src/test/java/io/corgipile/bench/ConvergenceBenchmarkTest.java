package io.corgipile.bench;

import static org.apache.spark.sql.functions.avg;
import static org.apache.spark.sql.functions.stddev;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.corgipile.SharedSpark;
import io.corgipile.ml.SGDClassifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark harness at a tiny size: it runs, writes every file, and writes what it measured.
 */
class ConvergenceBenchmarkTest {
  @TempDir static Path dir;
  private static List<EpochRecord> records;
  private static Path out;

  @BeforeAll
  static void runTiny() throws Exception {
    out = dir.resolve("results");
    records =
        ConvergenceBenchmark.run(
            SharedSpark.get(),
            ConvergenceBenchmark.Settings.parse(
                new String[] {
                  "tiny",
                  "--out",
                  out.toString(),
                  "--data",
                  dir.resolve("data").toString(),
                  "--datasets",
                  "higgs"
                }));
  }

  /**
   * Issue 12's separable set: labels by f0 + f1 > 1 over unscaled uniform features, the same for a
   * seed.
   */
  @Test
  void separableRowsAreLabelledByTheLineAndRepeatable() {
    List<org.apache.spark.sql.Row> rows =
        ConvergenceBenchmark.separableRows(SharedSpark.get(), 2_000, 1, 2)
            .orderBy("id")
            .collectAsList();

    assertThat(rows).hasSize(2_000);
    long positives = 0;
    for (org.apache.spark.sql.Row r : rows) {
      for (int i = 0; i < 4; i++) {
        assertThat(r.getDouble(r.fieldIndex("f" + i))).isBetween(0.0, 1.0);
      }
      double label =
          r.getDouble(r.fieldIndex("f0")) + r.getDouble(r.fieldIndex("f1")) > 1 ? 1.0 : 0.0;
      assertThat(r.getDouble(r.fieldIndex("label"))).isEqualTo(label);
      positives += (long) label;
    }
    assertThat(positives).isBetween(800L, 1_200L); // about half
    assertThat(
            ConvergenceBenchmark.separableRows(SharedSpark.get(), 2_000, 1, 2)
                .orderBy("id")
                .collectAsList())
        .isEqualTo(rows);
    assertThat(
            ConvergenceBenchmark.separableRows(SharedSpark.get(), 2_000, 2, 2)
                .orderBy("id")
                .collectAsList())
        .isNotEqualTo(rows);
  }

  /**
   * Issue 12's multiclass set: ten classes, each a cluster of its own center, the same for a seed.
   */
  @Test
  void classRowsAreClustersOfTenClassesAndRepeatable() {
    org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> rows =
        ConvergenceBenchmark.classRows(SharedSpark.get(), 5_000, 1, 2);
    assertThat(rows.columns()).hasSize(52).contains("id", "label", "f0", "f49");
    List<org.apache.spark.sql.Row> counts =
        rows.groupBy("label").count().orderBy("label").collectAsList();
    assertThat(counts)
        .extracting(r -> r.getDouble(0))
        .containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
    assertThat(counts).allSatisfy(r -> assertThat(r.getLong(1)).isBetween(400L, 600L));
    // a class's mean is its center, the same for every seed; the noise has unit variance
    org.apache.spark.sql.Row zero = rows.where("label = 0").agg(avg("f0"), stddev("f0")).head();
    org.apache.spark.sql.Row zeroAgain =
        ConvergenceBenchmark.classRows(SharedSpark.get(), 5_000, 2, 2)
            .where("label = 0")
            .agg(avg("f0"))
            .head();
    assertThat(zero.getDouble(0)).isCloseTo(zeroAgain.getDouble(0), within(0.15));
    assertThat(zero.getDouble(1)).isCloseTo(1.0, within(0.1));
    assertThat(
            ConvergenceBenchmark.classRows(SharedSpark.get(), 5_000, 1, 2)
                .orderBy("id")
                .collectAsList())
        .isEqualTo(rows.orderBy("id").collectAsList());
  }

  @Test
  void sgdParamsSetTheClassifiersParamsByType() {
    SGDClassifier sgd =
        ConvergenceBenchmark.withParams(
            new SGDClassifier(),
            "stepSchedule=adagrad,stepSize=0.5,batchSize=4,seed=9,averaging=false");
    assertThat(sgd.getStepSchedule()).isEqualTo("adagrad");
    assertThat(sgd.getStepSize()).isEqualTo(0.5);
    assertThat(sgd.getBatchSize()).isEqualTo(4);
    assertThat(sgd.getSeed()).isEqualTo(9);
    assertThat(sgd.getAveraging()).isFalse();
    assertThatThrownBy(() -> ConvergenceBenchmark.withParams(new SGDClassifier(), "speed=3"))
        .hasMessage(
            "Cannot run the benchmark: --sgd-params takes name=value pairs of SGDClassifier params,"
                + " not 'speed=3'");
    assertThatThrownBy(
            () ->
                ConvergenceBenchmark.Settings.parse(new String[] {"small", "--strategies", "fast"}))
        .hasMessageContaining("--strategies takes a comma list among none,window,");
  }

  @Test
  void writesEveryFile() throws Exception {
    for (String file :
        List.of(
            "strategies.csv",
            "buffer-sweep.csv",
            "summary.md",
            "higgs-accuracy-by-epoch.png",
            "higgs-accuracy-by-time.png",
            "higgs-buffer-sweep.png",
            "higgs-shuffle-quality.png")) {
      assertThat(out.resolve(file)).as(file).exists();
      assertThat(Files.size(out.resolve(file))).as(file).isPositive();
    }
    assertThat(Files.readString(out.resolve("summary.md")))
        .contains(
            "size tiny, 2 epochs, 2 partitions", "every run in one JVM, after 2 warm-up epochs");
  }

  @Test
  void runsEveryStrategyEveryEpochAndEveryBufferSize() {
    Map<String, List<EpochRecord>> strategies =
        records.stream()
            .filter(r -> r.experiment().equals("strategies"))
            .collect(Collectors.groupingBy(EpochRecord::strategy));
    assertThat(strategies)
        .containsOnlyKeys(
            "none",
            "window",
            "block",
            "corgipile",
            "shuffle-once",
            "full-shuffle",
            "mllib-lr",
            "mllib-svc");
    for (String sgd :
        List.of("none", "window", "block", "corgipile", "shuffle-once", "full-shuffle")) {
      assertThat(strategies.get(sgd)).extracting(EpochRecord::epoch).containsExactly(1, 2);
    }
    Map<Double, List<EpochRecord>> sweep =
        records.stream()
            .filter(r -> r.experiment().equals("buffer-sweep"))
            .collect(Collectors.groupingBy(EpochRecord::bufferPercent));
    assertThat(sweep).containsOnlyKeys(1.0, 2.0, 5.0, 10.0, 20.0);
    sweep
        .values()
        .forEach(runs -> assertThat(runs).extracting(EpochRecord::epoch).containsExactly(1, 2));
  }

  @Test
  void theMeasurementsAreWhatTrainingMeasured() {
    for (EpochRecord r : records) {
      assertThat(r.testAccuracy()).as("%s", r).isBetween(0.0, 1.0);
      assertThat(r.testAuc()).as("%s", r).isBetween(0.0, 1.0);
      assertThat(r.epochSeconds()).as("%s", r).isPositive();
      assertThat(r.cumulativeSeconds()).as("%s", r).isGreaterThanOrEqualTo(r.epochSeconds());
      assertThat(r.bytesRead()).as("%s", r).isPositive();
      assertThat(r.peakHeapBytes()).as("%s", r).isPositive();
    }
    // an epoch's cumulative time is the previous one's plus its own
    List<EpochRecord> corgipile = strategy("corgipile");
    assertThat(corgipile.get(1).cumulativeSeconds())
        .isEqualTo(corgipile.get(0).cumulativeSeconds() + corgipile.get(1).epochSeconds());
    // the shuffled copy's cost is counted before its first epoch
    EpochRecord once = strategy("shuffle-once").get(0);
    assertThat(once.cumulativeSeconds()).isGreaterThan(once.epochSeconds());
  }

  @Test
  void labelSortedDataReadInOrderMixesWorseThanCorgipile() {
    // sorted by label: most chunks of the none stream are all one label, variance near p(1-p)
    assertThat(strategy("none").get(0).shuffleQuality()).isGreaterThan(0.15);
    assertThat(strategy("corgipile").get(0).shuffleQuality())
        .isLessThan(strategy("none").get(0).shuffleQuality() / 2);
  }

  @Test
  void theCsvHoldsTheRecords() throws Exception {
    List<String> lines = Files.readAllLines(out.resolve("strategies.csv"));
    long strategies = records.stream().filter(r -> r.experiment().equals("strategies")).count();
    assertThat(lines).hasSize((int) strategies + 1);
    EpochRecord first =
        records.stream().filter(r -> r.experiment().equals("strategies")).findFirst().orElseThrow();
    assertThat(lines.get(1))
        .contains(
            first.strategy(),
            Double.toString(first.testAccuracy()),
            Double.toString(first.epochSeconds()),
            Long.toString(first.bytesRead()));
  }

  @Test
  void aRunInAJvmOfItsOwnBringsItsRecordsBack() throws Exception {
    List<EpochRecord> forked =
        ConvergenceBenchmark.fork(
            tiny(), new ConvergenceBenchmark.RunSpec("higgs", "strategies", "block", 10));

    assertThat(forked).extracting(EpochRecord::epoch).containsExactly(1, 2);
    for (EpochRecord r : forked) {
      assertThat(r.strategy()).isEqualTo("block");
      assertThat(r.bufferPercent()).isNaN();
      assertThat(r.testAccuracy()).as("%s", r).isBetween(0.0, 1.0);
      assertThat(r.epochSeconds()).as("%s", r).isPositive();
      assertThat(r.bytesRead()).as("%s", r).isPositive();
    }
    // the same data, seed and partitions: the same model as block's run in this JVM, epoch by epoch
    assertThat(forked)
        .extracting(EpochRecord::objective, EpochRecord::testAccuracy)
        .containsExactlyElementsOf(
            strategy("block").stream()
                .map(r -> org.assertj.core.groups.Tuple.tuple(r.objective(), r.testAccuracy()))
                .toList());
  }

  @Test
  void aFailedRunInAJvmOfItsOwnSaysWhich() {
    assertThatThrownBy(
            () ->
                ConvergenceBenchmark.fork(
                    tiny(), new ConvergenceBenchmark.RunSpec("mars", "strategies", "none", 10)))
        .hasMessageStartingWith(
            "Cannot measure run mars:strategies:none:10: the JVM measuring it exited with"
                + " status 1");
  }

  @Test
  void everyStrategyAndBufferSizeIsPlanned() {
    assertThat(ConvergenceBenchmark.plan("higgs"))
        .extracting(ConvergenceBenchmark.RunSpec::arg)
        .containsExactly(
            "higgs:strategies:none:10",
            "higgs:strategies:window:10",
            "higgs:strategies:block:10",
            "higgs:strategies:corgipile:10",
            "higgs:strategies:shuffle-once:10",
            "higgs:strategies:full-shuffle:10",
            "higgs:strategies:mllib-lr:10",
            "higgs:strategies:mllib-svc:10",
            "higgs:buffer-sweep:corgipile:1",
            "higgs:buffer-sweep:corgipile:2",
            "higgs:buffer-sweep:corgipile:5",
            "higgs:buffer-sweep:corgipile:10",
            "higgs:buffer-sweep:corgipile:20");
    assertThat(ConvergenceBenchmark.plan("classes"))
        .extracting(ConvergenceBenchmark.RunSpec::arg)
        .as("LinearSVC is binary")
        .contains("classes:strategies:mllib-lr:10")
        .doesNotContain("classes:strategies:mllib-svc:10")
        .hasSize(12);
    assertThat(
            ConvergenceBenchmark.Settings.parse(
                    new String[] {"small", "--strategies", "corgipile,mllib-lr"})
                .plan("higgs"))
        .extracting(ConvergenceBenchmark.RunSpec::arg)
        .containsExactly("higgs:strategies:corgipile:10", "higgs:strategies:mllib-lr:10");
    assertThat(ConvergenceBenchmark.RunSpec.parse("flights:buffer-sweep:corgipile:2.5"))
        .isEqualTo(new ConvergenceBenchmark.RunSpec("flights", "buffer-sweep", "corgipile", 2.5));
  }

  @Test
  void aResumedRunKeepsWhatWasMeasuredAndMeasuresTheRest() throws Exception {
    Path resumed = dir.resolve("resumed");
    Files.createDirectories(resumed);
    // a stopped run: its strategies.csv lacks mllib-svc, and it wrote no buffer-sweep.csv
    List<String> lines = Files.readAllLines(out.resolve("strategies.csv"));
    Files.write(
        resumed.resolve("strategies.csv"),
        lines.stream().filter(l -> !l.contains(",mllib-svc,")).toList());

    List<EpochRecord> all =
        ConvergenceBenchmark.run(
            SharedSpark.get(),
            ConvergenceBenchmark.Settings.parse(
                new String[] {
                  "tiny",
                  "--out",
                  resumed.toString(),
                  "--data",
                  dir.resolve("data").toString(),
                  "--datasets",
                  "higgs",
                  "--resume"
                }));

    // the earlier runs as they were; mllib-svc and the sweep measured again, as deterministic as
    // before
    assertThat(all)
        .filteredOn(r -> !r.strategy().equals("mllib-svc") && r.experiment().equals("strategies"))
        .containsExactlyElementsOf(
            records.stream()
                .filter(
                    r -> !r.strategy().equals("mllib-svc") && r.experiment().equals("strategies"))
                .toList());
    assertThat(all)
        .filteredOn(r -> r.strategy().equals("mllib-svc"))
        .singleElement()
        .extracting(EpochRecord::testAccuracy)
        .isEqualTo(strategy("mllib-svc").get(0).testAccuracy());
    assertThat(all)
        .filteredOn(r -> r.experiment().equals("buffer-sweep"))
        .extracting(EpochRecord::bufferPercent)
        .containsOnly(1.0, 2.0, 5.0, 10.0, 20.0)
        .hasSize(10);
    assertThat(Files.readString(resumed.resolve("summary.md")))
        .contains("Resumed: 7 runs come from an earlier invocation");
  }

  private static ConvergenceBenchmark.Settings tiny() {
    return ConvergenceBenchmark.Settings.parse(
        new String[] {"tiny", "--data", dir.resolve("data").toString()});
  }

  @Test
  void badArgumentsSayWhatIsAllowed() {
    assertThatThrownBy(() -> ConvergenceBenchmark.Settings.parse(new String[] {"huge"}))
        .hasMessage("Cannot use size 'huge': expected tiny, small, full");
    assertThatThrownBy(() -> ConvergenceBenchmark.Settings.parse(new String[] {"small", "--size"}))
        .hasMessage(
            "Cannot use option --size: unknown; options are --out, --data, --datasets, --epochs,"
                + " --partitions, --strategies, --sgd-params, --in-process, --resume,"
                + " --memory-limit, --read-limit, --run, --records");
    assertThatThrownBy(
            () ->
                ConvergenceBenchmark.Settings.parse(new String[] {"small", "--read-limit", "100m"}))
        .hasMessage(
            "Cannot use --read-limit without --memory-limit: the data would be read from the page"
                + " cache");
    assertThatThrownBy(
            () ->
                ConvergenceBenchmark.Settings.parse(
                    new String[] {"small", "--memory-limit", "3g", "--read-limit", "fast"}))
        .hasMessageStartingWith("Cannot use --read-limit 'fast': expected bytes per second");
    assertThatThrownBy(
            () ->
                ConvergenceBenchmark.Settings.parse(new String[] {"small", "--memory-limit", "3"}))
        .hasMessageStartingWith(
            "Cannot use --memory-limit '3': expected a size in bytes with an optional unit");
    if (System.getenv("BENCH_CGROUP") == null) {
      assertThatThrownBy(
              () ->
                  ConvergenceBenchmark.Settings.parse(
                      new String[] {"small", "--memory-limit", "3g"}))
          .hasMessage(
              "Cannot run the benchmark with --memory-limit 3g: this JVM is in no memory cgroup;"
                  + " start it through scripts/bench, which sets one up (BENCH_CGROUP)");
    }
    assertThatThrownBy(
            () ->
                ConvergenceBenchmark.Settings.parse(
                    new String[] {"--run", "higgs:strategies:none:10"}))
        .hasMessage("Cannot run the benchmark: --run and --records go together");
    assertThatThrownBy(() -> ConvergenceBenchmark.RunSpec.parse("higgs:strategies:sorted:10"))
        .hasMessage(
            "Cannot run the benchmark: --run takes dataset:experiment:strategy:percent with a"
                + " strategy among [none, window, block, corgipile, shuffle-once, full-shuffle,"
                + " mllib-lr, mllib-svc], not 'higgs:strategies:sorted:10'");
    assertThatThrownBy(
            () -> ConvergenceBenchmark.Settings.parse(new String[] {"small", "--epochs", "0"}))
        .hasMessage("Cannot use --epochs '0': expected an integer >= 1 and <= 2147483647");
  }

  private static List<EpochRecord> strategy(String name) {
    return records.stream()
        .filter(r -> r.experiment().equals("strategies") && r.strategy().equals(name))
        .toList();
  }
}
