package io.corgipile.notebooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a Zeppelin note headless, as "Run all paragraphs" does in Zeppelin's Spark interpreter: the
 * {@code %spark} (Scala) paragraphs in order in one Scala REPL with {@code spark} and {@code sc}
 * bound to a local[2] session; {@code %md} paragraphs are skipped. Writes the note back with each
 * paragraph's results (text, {@code %table}, ...) as Zeppelin stores them, and stops at the first
 * paragraph that does not compile or throws, naming it and the REPL's error, with exit status 1.
 *
 * <p>Usage: {@code ZeppelinNoteRunner <note.zpln> <executed-note.zpln>}.
 */
public final class ZeppelinNoteRunner {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ZeppelinNoteRunner() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("Usage: ZeppelinNoteRunner <note.zpln> <executed-note.zpln>");
      System.exit(2);
    }
    ObjectNode note = (ObjectNode) JSON.readTree(Path.of(args[0]).toFile());
    Path classDir = Files.createTempDirectory("zeppelin-repl-classes");
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("zeppelin-note")
            .config("spark.ui.enabled", "false")
            .config("spark.repl.class.outputDir", classDir.toString())
            .getOrCreate();
    boolean succeeded;
    try (SparkScalaRepl repl = new SparkScalaRepl(spark, classDir)) {
      succeeded = runParagraphs(note, repl);
    } finally {
      JSON.writerWithDefaultPrettyPrinter().writeValue(Path.of(args[1]).toFile(), note);
      spark.stop();
    }
    System.exit(succeeded ? 0 : 1);
  }

  /** Runs the paragraphs in order until one fails; records each one's results in {@code note}. */
  static boolean runParagraphs(ObjectNode note, SparkScalaRepl repl) {
    String defaultInterpreter = note.path("defaultInterpreterGroup").asText("spark");
    JsonNode paragraphs = note.path("paragraphs");
    for (int i = 0; i < paragraphs.size(); i++) {
      ObjectNode json = (ObjectNode) paragraphs.get(i);
      NoteParagraph paragraph = NoteParagraph.of(i + 1, json, defaultInterpreter);
      if (paragraph.isSkipped()) {
        continue;
      }
      if (!paragraph.isScala()) {
        System.err.printf(
            "Cannot run %s: interpreter %%%s is not supported; only %%spark (Scala) paragraphs run"
                + " and %%md is skipped%n",
            paragraph, paragraph.interpreter());
        return false;
      }
      long start = System.nanoTime();
      SparkScalaRepl.Outcome outcome = repl.interpret(paragraph.code());
      System.out.printf(
          Locale.ROOT,
          "----- %s: %s in %.1f s%n%s%n",
          paragraph,
          outcome.succeeded() ? "FINISHED" : "ERROR",
          (System.nanoTime() - start) / 1e9,
          outcome.output());
      json.put("status", outcome.succeeded() ? "FINISHED" : "ERROR");
      ObjectNode results =
          json.putObject("results").put("code", outcome.succeeded() ? "SUCCESS" : "ERROR");
      results.set("msg", DisplayOutput.messages(outcome.output()));
      if (!outcome.succeeded()) {
        System.err.printf("Cannot run %s:%n%s%n", paragraph, outcome.output().stripTrailing());
        return false;
      }
    }
    return true;
  }
}
