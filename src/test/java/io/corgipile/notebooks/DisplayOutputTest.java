package io.corgipile.notebooks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DisplayOutputTest {
  @Test
  void textBeforeATableAndTheEchoAfterItAsZeppelinSplitsThem() {
    assertThat(DisplayOutput.messages("working\n%table a\tb\n1\t2\nx: Int = 1\n").toString())
        .isEqualTo(
            "[{\"type\":\"TEXT\",\"data\":\"working\\n"
                + "\"},{\"type\":\"TABLE\",\"data\":\"a\\tb\\n"
                + "1\\t2\\n"
                + "x: Int = 1\\n"
                + "\"}]");
  }

  @Test
  void percentSignsInsideALineAndBlankTextAreNotResults() {
    assertThat(DisplayOutput.messages("100% done\n").toString())
        .isEqualTo("[{\"type\":\"TEXT\",\"data\":\"100% done\\n\"}]");
    assertThat(DisplayOutput.messages("\n%html <b>x</b>").toString())
        .isEqualTo("[{\"type\":\"HTML\",\"data\":\"<b>x</b>\"}]");
    assertThat(DisplayOutput.messages("").size()).isZero();
  }
}
