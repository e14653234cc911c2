package io.corgipile.notebooks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits what a paragraph printed into results as Zeppelin's display system does: a line starting
 * with {@code %table}, {@code %html} ... starts a result of that type, which runs to the next such
 * line; anything before the first is text.
 */
final class DisplayOutput {
  private static final Pattern TYPE =
      Pattern.compile("(?m)^%(text|table|html|angular|img|svg|network)(?: |\\n|$)");

  private DisplayOutput() {}

  /**
   * {@code [{"type": "TABLE", "data": "a\tb\n1\t2\n"}, ...]}, as a note stores a paragraph's
   * results.
   */
  static ArrayNode messages(String output) {
    ArrayNode messages = JsonNodeFactory.instance.arrayNode();
    Matcher matcher = TYPE.matcher(output);
    String type = "TEXT";
    int start = 0;
    while (matcher.find()) {
      add(messages, type, output.substring(start, matcher.start()));
      type = matcher.group(1).toUpperCase(Locale.ROOT);
      start = matcher.end();
    }
    add(messages, type, output.substring(start));
    return messages;
  }

  private static void add(ArrayNode messages, String type, String data) {
    if (!type.equals("TEXT") || !data.isBlank()) {
      messages.addObject().put("type", type).put("data", data);
    }
  }
}
