package io.corgipile.notebooks;

import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the kernelspec by which Jupyter starts {@link JShellKernel}: {@code
 * <data dir>/kernels/corgipile-java/kernel.json}, running this JVM's {@code java}.
 *
 * <p>Usage (scripts/jupyter-kernel): {@code KernelSpec <jupyter data dir> <kernel class path> [JVM
 * option ...]}.
 */
public final class KernelSpec {
  public static final String NAME = "corgipile-java";
  public static final String DISPLAY_NAME = "Java (corgipile-spark)";

  private KernelSpec() {}

  /**
   * Writes the kernelspec under {@code dataDir}; the kernel JVM gets {@code jvmOptions} (Spark's
   * module flags) and {@code classPath}, which must hold this class, the package, Spark and XChart.
   */
  public static Path write(Path dataDir, String classPath, List<String> jvmOptions) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    argv.addAll(jvmOptions);
    argv.add("-Djava.awt.headless=true"); // charts are drawn into images, never into windows
    argv.add("-cp");
    argv.add(classPath);
    argv.add(JShellKernel.class.getName());
    argv.add("{connection_file}");
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("argv", argv);
    spec.put("display_name", DISPLAY_NAME);
    spec.put("language", "java");
    spec.put("env", Map.of("SPARK_LOCAL_IP", "127.0.0.1"));
    Path file = dataDir.resolve("kernels").resolve(NAME).resolve("kernel.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(spec));
    return file;
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      throw new IllegalArgumentException("Cannot write the kernelspec: expected <jupyter data dir> <class path>"
          + " [JVM option ...]; got " + Arrays.toString(args));
    }
    Path file = write(Path.of(args[0]), args[1], Arrays.asList(args).subList(2, args.length));
    System.out.println("Wrote kernel '" + NAME + "' (" + DISPLAY_NAME + "): " + file);
  }
}
