package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.ToolProvider;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The planner reads through Kernel internals: a Kernel of another version is refused by name. */
class KernelVersionTest {
  @Test
  void aKernelOfAnotherVersionIsRefusedNamingBoth(@TempDir Path dir) throws IOException {
    Path source = dir.resolve("src/io/delta/kernel/Meta.java");
    Files.createDirectories(source.getParent());
    Files.writeString(
        source,
        "package io.delta.kernel; public final class Meta {"
            + " public static final String KERNEL_VERSION = \"9.9.9\"; }");
    Path classes = Files.createDirectories(dir.resolve("classes"));
    int compiled =
        ToolProvider.getSystemJavaCompiler()
            .run(null, null, null, "-d", classes.toString(), source.toString());
    if (compiled != 0) {
      throw new IllegalStateException("Cannot compile the stand-in Meta class");
    }
    URL[] urls = {
      classes.toUri().toURL(), // found first: Kernel "9.9.9"
      jarOf("io.delta.kernel.Table"),
      jarOf("io.delta.kernel.defaults.engine.DefaultEngine")
    };
    try (URLClassLoader loader = new URLClassLoader(urls, null)) {
      assertThatThrownBy(() -> TablePlanners.delta(new Configuration(false), loader))
          .isInstanceOf(TableReadException.class)
          .hasMessage(
              "Delta Kernel 9.9.9 is on the class path, and this build reads through Delta Kernel"
                  + " 4.3.0 (delta-spark brings the Kernel of its own version): use spark-submit"
                  + " --packages "
                  + TablePlanners.DELTA_PACKAGES);
    }
  }

  private static URL jarOf(String className) {
    try {
      return Class.forName(className).getProtectionDomain().getCodeSource().getLocation();
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
