package io.corgipile.notebooks;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import scala.Console;
import scala.jdk.javaapi.CollectionConverters;
import scala.tools.nsc.Settings;
import scala.tools.nsc.interpreter.IMain;
import scala.tools.nsc.interpreter.Results;
import scala.tools.nsc.interpreter.shell.ReplReporterImpl;

/**
 * One Scala 2.13 REPL set up as Zeppelin's Spark interpreter sets up its own: class-based (so Spark
 * can serialize what a paragraph defines), its class files written where Spark's executors load
 * them ({@code spark.repl.class.outputDir}), {@code spark}, {@code sc} and {@code sqlContext}
 * bound, and the same default imports.
 */
final class SparkScalaRepl implements AutoCloseable {
  /** What Zeppelin's SparkScala213Interpreter runs after binding the session. */
  private static final List<String> ZEPPELIN_IMPORTS =
      List.of(
          "import org.apache.spark.SparkContext._",
          "import spark.implicits._",
          "import spark.sql",
          "import org.apache.spark.sql.functions._");

  /** Everything a paragraph prints: its own output, the REPL's echo of definitions, and errors. */
  private final ByteArrayOutputStream output = new ByteArrayOutputStream();

  private final PrintStream console = new PrintStream(output, true, UTF_8);
  private final IMain intp;

  /** The outcome of one paragraph: whether it compiled and ran, and what it printed. */
  record Outcome(boolean succeeded, String output) {}

  /** {@code classOutputDir} must be the session's {@code spark.repl.class.outputDir}. */
  SparkScalaRepl(SparkSession spark, Path classOutputDir) {
    Settings settings = new Settings();
    settings.processArguments(
        CollectionConverters.asScala(
                List.of(
                    "-Yrepl-class-based", "-Yrepl-outdir", classOutputDir.toString(), "-usejavacp"))
            .toList(),
        true);
    intp = new IMain(settings, new ReplReporterImpl(settings, new PrintWriter(console, true)));
    if (!intp.initializeCompiler()) {
      throw new IllegalStateException("Cannot start the Scala REPL: " + output.toString(UTF_8));
    }
    // Spark deserializes results of paragraph-defined classes with the context class loader
    Thread.currentThread().setContextClassLoader(intp.classLoader());
    bind("spark", spark.getClass().getCanonicalName(), spark);
    bind("sc", "org.apache.spark.SparkContext", spark.sparkContext());
    bind("sqlContext", "org.apache.spark.sql.SQLContext", spark.sqlContext());
    for (String line : ZEPPELIN_IMPORTS) {
      Outcome outcome = interpret(line);
      if (!outcome.succeeded()) {
        throw new IllegalStateException(
            "Cannot run '" + line + "' in the Scala REPL: " + outcome.output());
      }
    }
  }

  /** Compiles and runs {@code code} as one paragraph. */
  Outcome interpret(String code) {
    output.reset();
    PrintStream systemOut = System.out;
    System.setOut(console); // Java code called from the paragraph prints into the paragraph too
    Results.Result result;
    try {
      result = Console.withOut(console, () -> intp.interpret(code));
    } finally {
      System.setOut(systemOut);
    }
    // the REPL reports these two failures without a message
    if (result == Results.Incomplete$.MODULE$) {
      console.println("error: incomplete code: an unclosed bracket, string or comment");
    } else if (result != Results.Success$.MODULE$ && output.size() == 0) {
      console.println(
          "error: the Scala REPL rejected the code without a message, as it does code of comments"
              + " only");
    }
    return new Outcome(result == Results.Success$.MODULE$, output.toString(UTF_8));
  }

  private void bind(String name, String type, Object value) {
    Results.Result result =
        intp.bind(name, type, value, CollectionConverters.asScala(List.of("@transient")).toList());
    if (result != Results.Success$.MODULE$) {
      throw new IllegalStateException(
          "Cannot bind " + name + " in the Scala REPL: " + output.toString(UTF_8));
    }
  }

  @Override
  public void close() {
    intp.close();
  }
}
