package io.corgipile.notebooks;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Jupyter kernel for Java: cells run in JShell inside this JVM, so a notebook's Spark session and
 * everything on this JVM's class path (this package, Spark, XChart) are the kernel's own. Cells may
 * hold several statements and declarations; what they print is shown, the value of a last expression
 * is the cell's result, {@code display(Object)} shows images, and a failure is a Jupyter error.
 *
 * <p>Started by Jupyter from the kernelspec that {@link KernelSpec} writes:
 * {@code java ... JShellKernel <connection file>}.
 */
public final class JShellKernel extends BaseKernel {
  /** Run before the first cell: what IJava, the common Java kernel, also offers its cells. */
  private static final String STARTUP = "import static io.corgipile.notebooks.Display.display;";

  private final CellRunner cells;
  private final LanguageInfo languageInfo = new LanguageInfo.Builder("Java")
      .version(Runtime.version().toString())
      .mimetype("text/x-java-source")
      .fileExtension(".java")
      .pygments("java")
      .codemirror("java")
      .build();

  JShellKernel(String classPath) throws CellException {
    this.cells = new CellRunner(classPath);
    cells.run(STARTUP);
  }

  @Override
  public DisplayData eval(String code) throws CellException {
    Object value = cells.run(code);
    return value == null ? null : getRenderer().render(value);
  }

  @Override
  public LanguageInfo getLanguageInfo() {
    return languageInfo;
  }

  @Override
  public List<String> formatError(Exception e) {
    return e instanceof CellException ? ((CellException) e).traceback() : super.formatError(e);
  }

  @Override
  public void onShutdown(boolean isRestarting) {
    cells.close();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      throw new IllegalArgumentException(
          "Cannot start the kernel: expected one argument, the connection file; got " + Arrays.toString(args));
    }
    // The kernel library logs every protocol step at INFO through java.util.logging (loggers of
    // several names), into the terminal that runs Jupyter; Spark logs through log4j instead.
    Logger.getLogger("").setLevel(Level.WARNING);
    JupyterConnection connection =
        new JupyterConnection(KernelConnectionProperties.parse(Files.readString(Path.of(args[0]))));
    JShellKernel kernel = new JShellKernel(System.getProperty("java.class.path"));
    Display.attach(kernel);
    kernel.becomeHandlerForConnection(connection);
    connection.connect();
    connection.waitUntilClose();
    // A notebook's Spark session leaves non-daemon threads that would keep the JVM alive.
    System.exit(0);
  }
}
