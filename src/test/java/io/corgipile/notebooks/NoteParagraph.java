package io.corgipile.notebooks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One paragraph of a Zeppelin note: the interpreter its text names (or the note's default) and its
 * code.
 */
record NoteParagraph(int number, String id, String title, String interpreter, String code) {
  /**
   * {@code %name} or {@code %name(local=properties)} at the start of the text, as Zeppelin parses
   * it.
   */
  private static final Pattern INTERPRETER =
      Pattern.compile("^\\s*%([\\w.]+)(\\([^)]*\\))?(\\s|$)");

  private static final Set<String> SCALA = Set.of("spark", "spark.spark");
  private static final Set<String> MARKDOWN = Set.of("md", "markdown");

  /** {@code number} counts from 1, as Zeppelin shows paragraphs. */
  static NoteParagraph of(int number, JsonNode paragraph, String defaultInterpreter) {
    String text = paragraph.path("text").asText("");
    Matcher matcher = INTERPRETER.matcher(text);
    boolean named = matcher.find();
    return new NoteParagraph(
        number,
        paragraph.path("id").asText(),
        paragraph.path("title").asText(""),
        named ? matcher.group(1) : defaultInterpreter,
        named ? text.substring(matcher.end()) : text);
  }

  boolean isScala() {
    return SCALA.contains(interpreter);
  }

  /** Markdown and empty paragraphs have nothing to run. */
  boolean isSkipped() {
    return MARKDOWN.contains(interpreter) || code.isBlank();
  }

  /** How error messages name the paragraph: {@code paragraph 3 "Title" (paragraph_1_2)}. */
  @Override
  public String toString() {
    return "paragraph " + number + (title.isEmpty() ? "" : " \"" + title + "\"") + " (" + id + ")";
  }
}
