package io.corgipile.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.corgipile.ListeningSockets;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executes notebooks/corgipile-walkthrough.ipynb headless with Jupyter's nbconvert, in the kernel
 * that scripts/jupyter-kernel installs, as a user's Jupyter would run it; a failing cell fails the
 * test with the cell's error. Needs Jupyter: scripts/install-jupyter.
 */
class JupyterNotebookIT {
  private static final Path NOTEBOOK = Path.of("notebooks", "corgipile-walkthrough.ipynb");
  private static final long TIMEOUT_MINUTES = 10;

  @Test
  void walkthroughRunsAndCorgipileBeatsStorageOrder(@TempDir Path tmp) throws Exception {
    requireNbconvert();
    Path jupyterData = tmp.resolve("jupyter");
    KernelSpec.write(jupyterData, testClassPath(), kernelJvmOptions());

    Path log = tmp.resolve("nbconvert.log");
    ProcessBuilder nbconvert = new ProcessBuilder("jupyter", "nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.timeout=" + TimeUnit.MINUTES.toSeconds(TIMEOUT_MINUTES),
        "--ExecutePreprocessor.kernel_name=" + KernelSpec.NAME,
        "--output-dir", tmp.toString(), "--output", "executed", withSocketCheck(tmp).toString())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    Map<String, String> env = nbconvert.environment();
    env.put("JUPYTER_PATH", jupyterData.toString());
    env.put("JUPYTER_RUNTIME_DIR", tmp.resolve("runtime").toString());
    env.put("CORGIPILE_NOTEBOOK_DIR", tmp.resolve("work").toString());
    Process process = nbconvert.start();
    if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("Cannot execute %s: not done after %d minutes; nbconvert said:%n%s", NOTEBOOK, TIMEOUT_MINUTES, tail(log));
    }
    assertThat(process.exitValue())
        .as("nbconvert's exit code executing %s; it said:%n%s", NOTEBOOK, failure(log))
        .isZero();

    Outputs outputs = Outputs.of(tmp.resolve("executed.ipynb"));
    assertThat(outputs.images).as("image/png outputs (the objective chart)").hasSize(1);
    assertThat(outputs.images.get(0)).as("a PNG, base64").startsWith("iVBORw0KGgo");
    double storageOrder = outputs.number("storage order \\(shuffle=none\\)\\s+accuracy ([0-9.]+)");
    double corgipile = outputs.number("corgipile \\(10% buffer\\)\\s+accuracy ([0-9.]+)");
    assertThat(corgipile).as("corgipile's test accuracy against storage order's (%s)", storageOrder)
        .isGreaterThan(storageOrder + 0.05);
    assertThat(outputs.text("first ids, corgipile epoch 1: (.+)"))
        .as("the stream's first ids in epoch 1 against epoch 0")
        .isNotEqualTo(outputs.text("first ids, corgipile epoch 0: (.+)"));
    assertThat(outputs.text("loaded back: (\\d+ of \\d+) test predictions differ")).isEqualTo("0 of 20000");
    // the kernel's five ZMQ sockets, the driver's RPC and block manager: all on loopback
    assertThat(outputs.number("kernel sockets: (\\d+) listening sockets")).isGreaterThanOrEqualTo(7);
    assertThat(outputs.text("kernel sockets: \\d+ listening sockets, not on loopback: (.*)")).isEqualTo("[]");
  }

  /**
   * A copy of the notebook with a last cell that prints the kernel's listening sockets (its Spark's
   * among them, still running after the notebook's last cell).
   */
  private static Path withSocketCheck(Path tmp) throws IOException {
    JsonObject notebook = JsonParser.parseString(Files.readString(NOTEBOOK)).getAsJsonObject();
    JsonObject cell = new JsonObject();
    cell.addProperty("cell_type", "code");
    cell.add("metadata", new JsonObject());
    cell.add("outputs", new JsonArray());
    cell.add("execution_count", JsonNull.INSTANCE);
    cell.addProperty("source", "System.out.println(\"kernel sockets: \" + "
        + ListeningSockets.class.getName() + ".describe(ProcessHandle.current()));");
    notebook.getAsJsonArray("cells").add(cell);
    Path copy = tmp.resolve("walkthrough-with-socket-check.ipynb");
    Files.writeString(copy, notebook.toString());
    return copy;
  }

  private static void requireNbconvert() throws InterruptedException {
    String missing = "Cannot execute " + NOTEBOOK + ": `jupyter nbconvert` is missing; install Jupyter with"
        + " scripts/install-jupyter";
    try {
      Process version = new ProcessBuilder("jupyter", "nbconvert", "--version").redirectErrorStream(true).start();
      String said = new String(version.getInputStream().readAllBytes());
      if (version.waitFor() != 0) {
        fail("%s (it said: %s)", missing, said.strip());
      }
    } catch (IOException e) {
      fail("%s (%s)", missing, e.getMessage());
    }
  }

  /** Failsafe starts this JVM through a manifest-only jar; this property is the real class path. */
  private static String testClassPath() {
    String classPath = System.getProperty("surefire.test.class.path");
    assertThat(classPath).as("system property surefire.test.class.path").isNotBlank();
    return classPath;
  }

  /** This JVM's flags (Spark's module flags, from failsafe's argLine), and the project's quiet logging. */
  private static List<String> kernelJvmOptions() {
    List<String> options = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
    options.add("-Dlog4j2.configurationFile=" + Path.of("conf", "log4j2.properties").toAbsolutePath());
    return options;
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
  }

  /**
   * For a failed cell: nbconvert's report of it (the cell's code between two lines of dashes, the
   * stack, the error last) without the middle of the stack; else the end of what nbconvert said.
   */
  private static String failure(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    int report = 0;
    while (report < lines.size() && !lines.get(report).contains("An error occurred while executing the following cell")) {
      report++;
    }
    if (report == lines.size()) {
      return tail(log);
    }
    int codeEnd = lines.subList(report + 2, lines.size()).indexOf("------------------") + report + 2;
    int stackEnd = Math.min(codeEnd + 12, lines.size());
    return String.join("\n", lines.subList(report, stackEnd)) + "\n...\n"
        + String.join("\n", lines.subList(Math.max(stackEnd, lines.size() - 3), lines.size()));
  }

  /** What the executed notebook's cells printed and displayed. */
  private static final class Outputs {
    private final StringBuilder printed = new StringBuilder();
    private final List<String> images = new ArrayList<>();

    static Outputs of(Path executedNotebook) throws IOException {
      Outputs outputs = new Outputs();
      JsonObject notebook = JsonParser.parseString(Files.readString(executedNotebook)).getAsJsonObject();
      for (JsonElement cell : notebook.getAsJsonArray("cells")) {
        JsonElement cellOutputs = cell.getAsJsonObject().get("outputs");
        for (JsonElement output : cellOutputs == null ? List.<JsonElement>of() : cellOutputs.getAsJsonArray()) {
          JsonObject o = output.getAsJsonObject();
          if (o.has("text")) {
            outputs.printed.append(joined(o.get("text")));
          }
          if (o.has("data") && o.getAsJsonObject("data").has("image/png")) {
            outputs.images.add(joined(o.getAsJsonObject("data").get("image/png")).strip());
          }
        }
      }
      return outputs;
    }

    /** nbformat stores text as a string or as a list of lines. */
    private static String joined(JsonElement text) {
      if (!text.isJsonArray()) {
        return text.getAsString();
      }
      StringBuilder joined = new StringBuilder();
      text.getAsJsonArray().forEach(line -> joined.append(line.getAsString()));
      return joined.toString();
    }

    String text(String regex) {
      Matcher m = Pattern.compile(regex).matcher(printed);
      assertThat(m.find()).as("the notebook printed a line matching /%s/; it printed:%n%s", regex, printed).isTrue();
      return m.group(1).strip();
    }

    double number(String regex) {
      return Double.parseDouble(text(regex));
    }
  }
}
