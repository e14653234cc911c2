package io.corgipile.notebooks;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;

/**
 * One run of {@link ZeppelinNoteRunner} in a JVM of its own (its own SparkSession, apart from other
 * tests), with the test JVM's class path and flags (Spark's module options), and the note as it
 * came back with each paragraph's results.
 */
record NoteRun(int exitCode, String log, JsonNode executedNote) {
  private static final long TIMEOUT_MINUTES = 15;

  /**
   * Runs {@code note} with {@code CORGIPILE_NOTEBOOK_DIR} set to {@code workDir}; files go to
   * {@code dir}.
   */
  static NoteRun of(Path note, Path dir, Path workDir) throws IOException, InterruptedException {
    Path executed = dir.resolve("executed.zpln");
    Path log = dir.resolve("runner.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            ZeppelinNoteRunner.class.getName(),
            note.toString(),
            executed.toString()));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("CORGIPILE_NOTEBOOK_DIR", workDir.toString());
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(
          "Cannot run "
              + note
              + ": the runner did not finish in "
              + TIMEOUT_MINUTES
              + " minutes; its output so far:\n"
              + Files.readString(log, UTF_8));
    }
    JsonNode executedNote =
        Files.exists(executed) ? new ObjectMapper().readTree(executed.toFile()) : null;
    return new NoteRun(process.exitValue(), Files.readString(log, UTF_8), executedNote);
  }

  /** The executed paragraph with this title. */
  JsonNode paragraph(String title) {
    if (executedNote == null) {
      throw new AssertionError(
          "Cannot find paragraph '" + title + "': the runner wrote no note; its output:\n" + log);
    }
    return StreamSupport.stream(executedNote.path("paragraphs").spliterator(), false)
        .filter(p -> p.path("title").asText().equals(title))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("Cannot find paragraph '" + title + "' in the executed note"));
  }

  /** The results of that paragraph of one display type, e.g. TEXT or TABLE, joined. */
  String output(String title, String type) {
    StringBuilder data = new StringBuilder();
    for (JsonNode message : paragraph(title).path("results").path("msg")) {
      if (message.path("type").asText().equals(type)) {
        data.append(message.path("data").asText());
      }
    }
    return data.toString();
  }

  /** The {@code %table} that paragraph showed: the header first, then the rows, split at tabs. */
  List<List<String>> table(String title) {
    String table = output(title, "TABLE");
    if (table.isEmpty()) {
      throw new AssertionError(
          "Cannot find a %table in paragraph '" + title + "': " + paragraph(title));
    }
    return table.strip().lines().map(line -> Arrays.asList(line.split("\t", -1))).toList();
  }
}
