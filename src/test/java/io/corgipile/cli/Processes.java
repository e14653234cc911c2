package io.corgipile.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.SharedSpark;
import io.corgipile.examples.HiggsShapedData;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** What the integration tests of the scripts share: running a command, and their data and jars. */
final class Processes {
  /** The repository: failsafe runs in the project's folder. */
  static final Path ROOT = Path.of("").toAbsolutePath();

  private Processes() {}

  /** What a finished command printed, both streams in one. */
  record Finished(int status, String output) {}

  /**
   * Runs {@code command} in the repository with {@code env} added; fails the test after {@code
   * minutes}.
   */
  static Finished run(Map<String, String> env, int minutes, List<String> command) throws Exception {
    Path log = Files.createTempFile("corgipile-it-", ".log");
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(ROOT.toFile())
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().putAll(env);
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      builder.environment().remove("SPARK_HOME"); // the scripts' fallback: Spark jars from Maven
      Process p = builder.start();
      if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError(
            "timed out after " + minutes + " min: " + command + "\n" + Files.readString(log));
      }
      return new Finished(p.exitValue(), Files.readString(log));
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /**
   * 20,000 HIGGS-shaped rows sorted by label (as the data CorgiPile is for) in row groups of 250,
   * so a 10% buffer holds several; and 5,000 other rows to test on.
   */
  static void writeHiggs(Path train, Path test) {
    HiggsShapedData.generate(SharedSpark.get(), 20_000, 1, 2)
        .orderBy("label", "id")
        .coalesce(1)
        .write()
        .option("parquet.block.row.count.limit", 250)
        .parquet(train.toString());
    HiggsShapedData.generate(SharedSpark.get(), 5_000, 2, 2).write().parquet(test.toString());
  }

  /** A jar of {@link SqlViewApp} alone: an application that does not carry this package. */
  static Path appJar(Path dir) throws IOException {
    Path jar = dir.resolve("app.jar");
    String entry = SqlViewApp.class.getName().replace('.', '/') + ".class";
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      out.putNextEntry(new JarEntry(entry));
      try (var in = SqlViewApp.class.getClassLoader().getResourceAsStream(entry)) {
        assertThat(in).as(entry).isNotNull();
        in.transferTo(out);
      }
      out.closeEntry();
    }
    return jar;
  }

  /** The jar {@code mvn package} made for this build. */
  static Path packageJar() throws IOException {
    try (var files = Files.list(ROOT.resolve("target"))) {
      return files
          .filter(
              p ->
                  p.getFileName().toString().matches("corgipile-spark_2\\.13-.*\\.jar")
                      && !p.getFileName().toString().endsWith("-tests.jar"))
          .findFirst()
          .orElseThrow(
              () ->
                  new AssertionError("no package jar in target/: run these tests with mvn verify"));
    }
  }

  static String text(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
