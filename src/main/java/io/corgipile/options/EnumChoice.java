package io.corgipile.options;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The option text of enum constants: a constant's lower-case name, looked up ignoring case and
 * surrounding blanks, and the list of allowed values for messages and help.
 */
public final class EnumChoice {
  private EnumChoice() {}

  /** The text users write for {@code constant}: its lower-case name. */
  public static String text(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT);
  }

  /** The constant whose text is {@code value}, ignoring case and surrounding blanks. */
  public static <E extends Enum<E>> Optional<E> find(E[] values, String value) {
    String wanted = value.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values).filter(e -> text(e).equals(wanted)).findFirst();
  }

  /** The texts of {@code values}, in declaration order. */
  public static List<String> texts(Enum<?>[] values) {
    return Arrays.stream(values).map(EnumChoice::text).toList();
  }

  /** {@code a, b, c}. */
  public static String list(Enum<?>[] values) {
    return String.join(", ", texts(values));
  }

  /** {@code allowed values are a, b, c}. */
  public static String allowed(Enum<?>[] values) {
    return "allowed values are " + list(values);
  }

  /** {@code a, b or c}. */
  public static String orList(List<String> texts) {
    int last = texts.size() - 1;
    return last <= 0
        ? String.join("", texts)
        : String.join(", ", texts.subList(0, last)) + " or " + texts.get(last);
  }

  /** {@code a, b (default), c or d}: for help texts. */
  public static String withDefault(List<String> texts, String defaultText) {
    return orList(
        texts.stream()
            .map(t -> t.equals(defaultText) ? t + " (default)" : t)
            .collect(Collectors.toList()));
  }
}
