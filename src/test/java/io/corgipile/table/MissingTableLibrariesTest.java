package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.launcher.JavaModuleOptions;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Delta table read without Delta Kernel on the class path, or an Iceberg table without Iceberg's
 * jars, fails, saying what to add.
 */
class MissingTableLibrariesTest {
  /** A class loader that has no Delta classes, as a Spark without Delta Kernel. */
  private static final ClassLoader WITHOUT_DELTA = without("io.delta.");

  /** A class loader that has none of Iceberg's classes. */
  private static final ClassLoader WITHOUT_ICEBERG = without("org.apache.iceberg.");

  private static ClassLoader without(String prefix) {
    return new ClassLoader(MissingTableLibrariesTest.class.getClassLoader()) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(prefix)) {
          throw new ClassNotFoundException(name);
        }
        return super.loadClass(name, resolve);
      }
    };
  }

  @Test
  void theErrorSaysWhatToAdd() {
    assertThatThrownBy(() -> TablePlanners.delta(new Configuration(), WITHOUT_DELTA))
        .isInstanceOf(TableReadException.class)
        .hasMessageContaining("Delta Lake table")
        .hasMessageContaining("_delta_log")
        .hasMessageContaining(
            "--packages io.delta:delta-kernel-api:4.3.0,io.delta:delta-kernel-defaults:4.3.0")
        .hasMessageContaining("io.delta.kernel.Table is missing");
  }

  @Test
  void theIcebergErrorSaysWhatToAdd() {
    assertThatThrownBy(() -> TablePlanners.iceberg(new Configuration(), WITHOUT_ICEBERG))
        .isInstanceOf(TableReadException.class)
        .hasMessage(
            "this is an Apache Iceberg table (it has a metadata folder of Iceberg metadata files,"
                + " or its catalog is Iceberg's), and reading one needs Iceberg's Java API 1.12.0,"
                + " which is not on the class path (org.apache.iceberg.hadoop.HadoopTables is"
                + " missing): add spark-submit --packages org.apache.iceberg:iceberg-core:1.12.0,"
                + "org.apache.iceberg:iceberg-data:1.12.0,org.apache.iceberg:iceberg-parquet:1.12.0"
                + " (or set spark.jars.packages to it); its files are not read as plain Parquet, as"
                + " that would return removed files and deleted rows");
  }

  /** The build fills the pom's versions in (libraries.properties): the packages name them. */
  @Test
  void thePackagesAreThePomsVersions() throws IOException {
    String pom = Files.readString(Path.of("pom.xml"));
    assertThat(pom).contains("<delta.version>4.3.0</delta.version>");
    assertThat(pom).contains("<iceberg.version>1.12.0</iceberg.version>");
    assertThat(TablePlanners.DELTA_PACKAGES.split(","))
        .containsExactly("io.delta:delta-kernel-api:4.3.0", "io.delta:delta-kernel-defaults:4.3.0");
    assertThat(TablePlanners.ICEBERG_PACKAGES.split(","))
        .containsExactly(
            "org.apache.iceberg:iceberg-core:1.12.0",
            "org.apache.iceberg:iceberg-data:1.12.0",
            "org.apache.iceberg:iceberg-parquet:1.12.0");
  }

  /**
   * Main of the JVM without Delta's and Iceberg's jars: reads each table of {@code args} through
   * the source and prints the error it gets.
   */
  public static void main(String[] args) {
    SparkSession spark =
        SparkSession.builder()
            .master("local[1]")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
    try {
      for (String table : args) {
        try {
          spark.read().format("corgipile").load(table);
          System.out.println("LOADED");
        } catch (Exception e) {
          System.out.println("ERROR " + e.getMessage());
        }
      }
    } finally {
      spark.stop();
    }
  }

  /**
   * The source, not only the planner, gives the error: the folder is not read as Parquet (which
   * would say that it has no Parquet files).
   */
  @Test
  void aJvmWithoutTheFormatsJarsGetsTheErrorsFromTheSource(@TempDir Path dir) throws Exception {
    List<String> classPath = new ArrayList<>();
    for (String entry : classPath()) {
      String path = entry.replace(File.separatorChar, '/');
      if (!path.contains("/io/delta/") && !path.contains("/org/apache/iceberg/")) {
        classPath.add(entry);
      }
    }
    assertThat(classPath).anyMatch(e -> e.contains("hadoop-client-api"));
    Path table = Files.createDirectories(dir.resolve("table").resolve(TablePlanners.DELTA_LOG));
    Path iceberg = Files.createDirectories(dir.resolve("iceberg").resolve("metadata"));
    Files.writeString(iceberg.resolve("version-hint.text"), "1");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:+IgnoreUnrecognizedVMOptions");
    command.addAll(List.of(JavaModuleOptions.defaultModuleOptions().split(" ")));
    command.addAll(
        List.of(
            "-cp",
            String.join(File.pathSeparator, classPath),
            MissingTableLibrariesTest.class.getName(),
            table.getParent().toString(),
            iceberg.getParent().toString()));
    Path out = dir.resolve("out.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    Process p = builder.start();
    assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(Files.readString(out))
        .contains(
            "ERROR Cannot read Delta table "
                + table.getParent()
                + ": this is a Delta Lake table (it has a _delta_log folder), and reading one needs"
                + " Delta Kernel")
        .contains("--packages io.delta:delta-kernel-api:4.3.0,io.delta:delta-kernel-defaults:4.3.0")
        .contains(
            "ERROR Cannot read Iceberg table "
                + iceberg.getParent()
                + ": this is an Apache Iceberg table")
        .contains("--packages " + TablePlanners.ICEBERG_PACKAGES);
  }

  /** This JVM's class path, read through surefire's manifest-only jar if it uses one. */
  static List<String> classPath() throws IOException {
    String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
    if (entries.length == 1 && entries[0].contains("surefirebooter")) {
      List<String> found = new ArrayList<>();
      try (JarFile jar = new JarFile(entries[0])) {
        for (String url : jar.getManifest().getMainAttributes().getValue("Class-Path").split(" ")) {
          if (!url.isBlank()) {
            found.add(Path.of(URI.create(url)).toString());
          }
        }
      }
      return found;
    }
    return List.of(entries);
  }
}
