package io.corgipile.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Zeppelin note runs headless, every {@code %spark} paragraph through the Scala 2.13 REPL as
 * Zeppelin's Spark interpreter runs it, and shows what its text says; and the runner fails on a
 * paragraph that fails.
 */
class ZeppelinNoteIT {
  private static final Path NOTE = Path.of("notebooks", "corgipile-walkthrough.zpln");

  @Test
  void walkThroughRunsAndShowsWhatItSays(@TempDir Path dir) throws Exception {
    Path workDir = dir.resolve("work");
    NoteRun run = NoteRun.of(NOTE, dir, workDir);
    assertThat(run.exitCode()).as("runner exit status; its output:%n%s", run.log()).isZero();

    List<List<String>> shares = run.table("Share of label 1 in each 10,000 rows read");
    assertRectangular(shares);
    assertThat(shares.get(0))
        .containsExactly("chunk", "none", "corgipile epoch 0", "corgipile epoch 1");
    assertThat(shares).hasSize(11);
    List<Double> none = column(shares, 1);
    assertThat(none.get(0)).as("storage order starts with label 0 only").isZero();
    assertThat(none.get(9)).as("storage order ends with label 1 only").isEqualTo(1.0);
    assertThat(meanDistanceFromHalf(none))
        .as("storage order: shares far from the mix")
        .isGreaterThan(0.4);
    for (int epochColumn : new int[] {2, 3}) {
      assertThat(meanDistanceFromHalf(column(shares, epochColumn)))
          .as("corgipile, %s: shares near the mix", shares.get(0).get(epochColumn))
          .isLessThan(0.3);
    }

    Map<String, String> firstIds =
        run.table("First ids read").stream()
            .skip(1)
            .collect(Collectors.toMap(row -> row.get(0), row -> row.get(1)));
    assertThat(firstIds.get("corgipile epoch 0")).isNotEqualTo(firstIds.get("corgipile epoch 1"));

    List<List<String>> scores = run.table("Evaluate on the test rows");
    assertRectangular(scores);
    Map<String, Double> accuracy =
        scores.stream()
            .skip(1)
            .collect(Collectors.toMap(row -> row.get(0), row -> Double.parseDouble(row.get(1))));
    assertThat(accuracy.keySet()).containsExactlyInAnyOrder("storage order", "corgipile");
    assertThat(accuracy.get("corgipile"))
        .as("corgipile accuracy, against storage order's %s", accuracy)
        .isGreaterThan(accuracy.get("storage order") + 0.05);

    List<List<String>> objective = run.table("Objective per epoch");
    assertRectangular(objective);
    assertThat(objective.get(0)).containsExactly("epoch", "training input", "objective");
    for (String input : List.of("storage order", "corgipile")) {
      List<List<String>> rows = objective.stream().filter(row -> row.get(1).equals(input)).toList();
      assertThat(rows).as("epochs of %s", input).hasSizeBetween(1, 10);
      assertThat(rows.stream().map(row -> row.get(0)).toList())
          .as("epochs of %s", input)
          .isEqualTo(IntStream.rangeClosed(1, rows.size()).mapToObj(Integer::toString).toList());
      assertThat(rows)
          .allSatisfy(row -> assertThat(Double.parseDouble(row.get(2))).isPositive().isFinite());
    }
    assertThat(run.paragraph("Objective per epoch").at("/config/results/0/graph/mode").asText())
        .isEqualTo("lineChart");

    assertThat(run.output("Save, load back, predict the same", "TEXT"))
        .contains("the same prediction on all 20000 test rows");
    assertThat(workDir.resolve("model")).as("model saved in CORGIPILE_NOTEBOOK_DIR").isDirectory();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "val answer: Int = \"forty-two\"           | type mismatch",
        "throw new IllegalStateException(\"boom\") | java.lang.IllegalStateException: boom"
      })
  void runnerStopsAtAFailingParagraphAndNamesIt(String code, String error, @TempDir Path dir)
      throws Exception {
    Path note = dir.resolve("failing.zpln");
    new ObjectMapper()
        .writeValue(
            note.toFile(),
            note(
                "Intro", "%md\n# Not run",
                "Ships a closure",
                    "%spark\nval doubled = sc.parallelize(1 to 4).map(_ * 2).collect().sum",
                "Fails", "%spark\n" + code,
                "Never runs", "%spark\nprintln(\"after\")"));

    NoteRun run = NoteRun.of(note, dir, dir.resolve("work"));

    assertThat(run.exitCode()).as("runner exit status; its output:%n%s", run.log()).isEqualTo(1);
    assertThat(run.log()).contains("Cannot run paragraph 3 \"Fails\" (").contains(error);
    assertThat(run.paragraph("Ships a closure").path("status").asText()).isEqualTo("FINISHED");
    assertThat(run.output("Ships a closure", "TEXT")).contains("doubled: Int = 20");
    assertThat(run.paragraph("Fails").path("status").asText()).isEqualTo("ERROR");
    assertThat(run.paragraph("Never runs").has("results")).isFalse();
  }

  /** A note of {@code title, text} pairs, in the fields a Zeppelin note has. */
  private static ObjectNode note(String... titlesAndTexts) {
    ObjectNode note =
        new ObjectMapper()
            .createObjectNode()
            .put("name", "failing")
            .put("id", "2FAILING1")
            .put("defaultInterpreterGroup", "spark");
    ArrayNode paragraphs = note.putArray("paragraphs");
    for (int i = 0; i < titlesAndTexts.length; i += 2) {
      paragraphs
          .addObject()
          .put("id", "paragraph_" + i)
          .put("title", titlesAndTexts[i])
          .put("text", titlesAndTexts[i + 1])
          .put("status", "READY");
    }
    return note;
  }

  /**
   * Every row has as many cells as the header: nothing the REPL echoed after a table ran into it.
   */
  private static void assertRectangular(List<List<String>> table) {
    assertThat(table).allSatisfy(row -> assertThat(row).hasSameSizeAs(table.get(0)));
  }

  private static List<Double> column(List<List<String>> table, int column) {
    return table.stream().skip(1).map(row -> Double.parseDouble(row.get(column))).toList();
  }

  /** The mean distance of the shares of label 1 from 0.5: 0.5 when unmixed, small when mixed. */
  private static double meanDistanceFromHalf(List<Double> shares) {
    return shares.stream().mapToDouble(share -> Math.abs(share - 0.5)).average().orElseThrow();
  }
}
