package io.corgipile.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class NoteParagraphTest {
  private static NoteParagraph parse(String text) {
    ObjectNode json =
        new ObjectMapper()
            .createObjectNode()
            .put("id", "paragraph_1")
            .put("title", "T")
            .put("text", text);
    return NoteParagraph.of(2, json, "spark");
  }

  @Test
  void interpreterNameWithLocalPropertiesIsSplitFromTheCode() {
    NoteParagraph paragraph = parse("%spark(printREPLOutput=false)\nval x = 1");
    assertThat(paragraph.interpreter()).isEqualTo("spark");
    assertThat(paragraph.code()).isEqualTo("val x = 1");
    assertThat(paragraph.isScala()).isTrue();
    assertThat(paragraph).hasToString("paragraph 2 \"T\" (paragraph_1)");
  }

  @Test
  void textWithoutAnInterpreterRunsInTheNotesDefault() {
    NoteParagraph paragraph = parse("println(1)");
    assertThat(paragraph.isScala()).isTrue();
    assertThat(paragraph.code()).isEqualTo("println(1)");
  }

  @Test
  void markdownAndEmptyParagraphsAreSkippedAndOtherInterpretersAreNotScala() {
    assertThat(parse("%md\n# Title").isSkipped()).isTrue();
    assertThat(parse("%spark\n").isSkipped()).isTrue();
    assertThat(parse("%md").isSkipped()).isTrue();
    assertThat(parse("%spark.sql select 1").isScala()).isFalse();
    assertThat(parse("%spark.sql select 1").interpreter()).isEqualTo("spark.sql");
  }
}
