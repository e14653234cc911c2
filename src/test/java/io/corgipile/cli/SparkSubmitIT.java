package io.corgipile.cli;

import static io.corgipile.cli.Processes.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.cli.Processes.Finished;
import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.ml.PipelineModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spark-submit in local mode, as users run it: {@code scripts/corgipile-submit} with the training
 * job and with an application of its own, and {@code --packages} resolving this package as {@code
 * mvn install} leaves it.
 */
class SparkSubmitIT {
  private static final String FEATURES = String.join(",", HiggsShapedData.featureNames());

  @TempDir static Path dir;
  private static Path train;
  private static Path test;

  @BeforeAll
  static void writeData() {
    train = dir.resolve("train");
    test = dir.resolve("test");
    Processes.writeHiggs(train, test);
  }

  private static Finished submit(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("scripts/corgipile-submit"));
    command.addAll(List.of(args));
    return Processes.run(Map.of(), 8, command);
  }

  @Test
  void theTrainingJobRunsThroughSparkSubmit() throws Exception {
    Path model = dir.resolve("local-model");
    Path metrics = dir.resolve("local-metrics.json");

    Finished r =
        submit(
            "--master",
            "local[2]",
            "--driver-memory",
            "1g",
            "--input",
            train.toString(),
            "--features",
            FEATURES,
            "--epochs",
            "3",
            "--test",
            test.toString(),
            "--model",
            model.toString(),
            "--metrics",
            metrics.toString());

    assertThat(r.status()).as(r.output()).isZero();
    JsonNode m = new ObjectMapper().readTree(metrics.toFile());
    assertThat(m.get("test").get("accuracy").asDouble()).isGreaterThan(0.6);
    // one stage: the classifier on the feature columns themselves (featuresCols)
    assertThat(PipelineModel.load(model.toString()).stages())
        .singleElement()
        .isInstanceOfSatisfying(
            SGDClassificationModel.class,
            sgd ->
                assertThat(sgd.getFeaturesCols()).containsExactly(HiggsShapedData.featureNames()));
    // the progress line per epoch, through conf/log4j2.properties, and the job's result line
    assertThat(r.output())
        .contains("SGDClassifier epoch 1/3: objective ", "Trained SGDClassifier on 20,000 rows");
  }

  @Test
  void exitStatusesSurviveSparkSubmit() throws Exception {
    Finished bad =
        submit(
            "--master",
            "local[1]",
            "--input",
            train.toString(),
            "--features",
            "f1",
            "--epochs",
            "0");
    assertThat(bad.status()).as(bad.output()).isEqualTo(2);
    assertThat(bad.output()).contains("Cannot use --epochs '0': expected an integer >= 1");

    Finished absent =
        submit(
            "--master",
            "local[1]",
            "--input",
            dir.resolve("absent").toString(),
            "--features",
            "f1");
    assertThat(absent.status()).as(absent.output()).isEqualTo(2);
    assertThat(absent.output())
        .contains("Cannot use --input " + dir.resolve("absent") + ": no such file or folder");

    // a real feature as the label of a classifier: training itself fails
    Finished failed =
        submit(
            "--master",
            "local[1]",
            "--input",
            train.toString(),
            "--features",
            "f1",
            "--label",
            "f2",
            "--epochs",
            "1");
    assertThat(failed.status()).as(failed.output()).isEqualTo(1);
    assertThat(failed.output())
        .contains("Cannot train: Cannot train SGDClassifier: a row has label ");

    Finished help = submit("--", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.output()).contains("Usage: io.corgipile.cli.Train");
  }

  @Test
  void anyApplicationGetsThePackage() throws Exception {
    Path app = Processes.appJar(dir);

    Finished r =
        submit(
            "--master",
            "local[2]",
            "--class",
            SqlViewApp.class.getName(),
            app.toString(),
            train.toString());

    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.output()).contains("rows=20000 distinct=20000 positives=");
  }

  @Test
  void packagesResolvesTheInstalledArtifact() throws Exception {
    // what `mvn install` lays out in ~/.m2, under a home of this test's own: the real one is not
    // touched
    Path jar = Processes.packageJar();
    String version =
        jar.getFileName().toString().replace("corgipile-spark_2.13-", "").replace(".jar", "");
    Path home = dir.resolve("home");
    Path artifact = home.resolve(".m2/repository/io/corgipile/corgipile-spark_2.13/" + version);
    Files.createDirectories(artifact);
    Files.copy(
        jar,
        artifact.resolve("corgipile-spark_2.13-" + version + ".jar"),
        StandardCopyOption.REPLACE_EXISTING);
    Files.copy(
        ROOT.resolve("pom.xml"),
        artifact.resolve("corgipile-spark_2.13-" + version + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
    Path app = Processes.appJar(dir);

    // plain spark-submit (SparkSubmit on Maven's Spark jars), without this package's jar
    Finished r =
        Processes.run(
            Map.of(),
            8,
            List.of(
                "bash",
                "-c",
                "source scripts/lib/env.sh && exec java $(java_flags) -Duser.home=\"$1\" -cp"
                    + " \"$(spark_classpath)\" org.apache.spark.deploy.SparkSubmit --master"
                    + " 'local[2]' --packages \"io.corgipile:corgipile-spark_2.13:$2\" --class"
                    + " \"$3\" \"$4\" \"$5\"",
                "submit",
                home.toString(),
                version,
                SqlViewApp.class.getName(),
                app.toString(),
                train.toString()));

    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.output())
        .contains(
            "io.corgipile#corgipile-spark_2.13;" + version + " in local-m2-cache",
            "rows=20000 distinct=20000 positives=");
  }
}
