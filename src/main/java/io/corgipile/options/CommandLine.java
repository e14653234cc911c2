package io.corgipile.options;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The options a program accepts, and their parser: {@code --name value}, {@code --name=value},
 * flags ({@code --name}), repeatable options and, if allowed, positional arguments. Every error is
 * an {@link OptionException} that names the argument and what it allows.
 */
public final class CommandLine {
  /**
   * One option: its name (without {@code --}), its value's placeholder ({@code null} for a flag),
   * what it does (for help), and whether it may be given more than once.
   */
  public record Option(String name, String value, String help, boolean repeatable) {
    /** An option given at most once. */
    public Option(String name, String value, String help) {
      this(name, value, help, false);
    }

    /** A flag: an option without a value. */
    public static Option flag(String name, String help) {
      return new Option(name, null, help, false);
    }

    public boolean isFlag() {
      return value == null;
    }

    /** {@code --name VALUE}, as help lists it. */
    public String synopsis() {
      return "--" + name + (isFlag() ? "" : " " + value);
    }
  }

  private final String action;
  private final List<Option> options;
  private final int positionals;

  /**
   * @param action what the program does, as in "Cannot {@code action}: --input is required"
   * @param positionals how many positional arguments it takes
   */
  public CommandLine(String action, List<Option> options, int positionals) {
    this.action = action;
    this.options = List.copyOf(options);
    this.positionals = positionals;
  }

  public List<Option> options() {
    return options;
  }

  /** Whether {@code --help} or {@code -h} is among the arguments: then nothing else is checked. */
  public static boolean wantsHelp(String[] args) {
    return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
  }

  /** One line per option, {@code " --name VALUE help"}, the synopsis padded to {@code width}. */
  public String help(int width) {
    StringBuilder s = new StringBuilder();
    for (Option o : options) {
      s.append(String.format(Locale.ROOT, "  %-" + width + "s %s%n", o.synopsis(), o.help()));
    }
    return s.toString();
  }

  /**
   * Splits the arguments into options and positional arguments; the values are checked by the
   * getters of the result.
   *
   * @throws OptionException for an unknown option, a missing or unwanted value, an option given
   *     twice that is not repeatable, or a positional argument too many
   */
  public Arguments parse(String[] args) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        if (positional.size() >= positionals) {
          throw new OptionException(
              "Cannot use argument '"
                  + arg
                  + "': expected an option such as --"
                  + options.get(0).name());
        }
        positional.add(arg);
        continue;
      }
      int eq = arg.indexOf('=');
      String name = arg.substring(2, eq < 0 ? arg.length() : eq);
      Option option =
          options.stream()
              .filter(o -> o.name().equals(name))
              .findFirst()
              .orElseThrow(
                  () ->
                      new OptionException(
                          "Cannot use option --"
                              + name
                              + ": unknown; options are "
                              + options.stream()
                                  .map(o -> "--" + o.name())
                                  .collect(Collectors.joining(", "))));
      String value;
      if (option.isFlag()) {
        if (eq >= 0) {
          throw new OptionException("Cannot use option --" + name + ": it takes no value");
        }
        value = "true";
      } else if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new OptionException(
            "Cannot use option --" + name + ": it needs a value (" + option.value() + ")");
      }
      List<String> given = values.computeIfAbsent(name, n -> new ArrayList<>());
      if (!given.isEmpty() && !option.repeatable()) {
        throw new OptionException("Cannot use option --" + name + " twice");
      }
      given.add(value);
    }
    return new Arguments(action, values, positional);
  }

  /** A parsed command line, with typed getters that check each value. */
  public static final class Arguments {
    private final String action;
    private final Map<String, List<String>> values;
    private final List<String> positional;

    private Arguments(String action, Map<String, List<String>> values, List<String> positional) {
      this.action = action;
      this.values = values;
      this.positional = List.copyOf(positional);
    }

    /** The positional arguments, in order. */
    public List<String> positional() {
      return positional;
    }

    public boolean has(String name) {
      return values.containsKey(name);
    }

    /** Whether the flag was given. */
    public boolean flag(String name) {
      return has(name);
    }

    /** The option's value (its last, if repeated). */
    public Optional<String> optional(String name) {
      List<String> given = values.get(name);
      return given == null ? Optional.empty() : Optional.of(given.get(given.size() - 1));
    }

    public String string(String name, String fallback) {
      return optional(name).orElse(fallback);
    }

    /** Every value of a repeatable option, in order. */
    public List<String> all(String name) {
      return List.copyOf(values.getOrDefault(name, List.of()));
    }

    /**
     * @throws OptionException "Cannot <action>: --name is required" when absent or blank
     */
    public String required(String name) {
      String value = optional(name).orElse(null);
      if (value == null || value.isBlank()) {
        throw new OptionException("Cannot " + action + ": --" + name + " is required");
      }
      return value;
    }

    public java.nio.file.Path path(String name, java.nio.file.Path fallback) {
      return optional(name).map(java.nio.file.Path::of).orElse(fallback);
    }

    /**
     * An integer within {@code [min, max]}; the message says what {@link Integers#describe} says.
     */
    public long integer(String name, long fallback, long min, long max) {
      String value = optional(name).orElse(null);
      if (value == null) {
        return fallback;
      }
      try {
        return Integers.parse(value, min, max);
      } catch (IllegalArgumentException e) {
        throw invalid(name, value, Integers.describe(min, max));
      }
    }

    /** An {@code int} of at least {@code min}. */
    public int atLeast(String name, int fallback, int min) {
      return (int) integer(name, fallback, min, Integer.MAX_VALUE);
    }

    /** A {@link Counts count} of at least {@code min}. */
    public long count(String name, long fallback, long min) {
      String value = optional(name).orElse(null);
      if (value == null) {
        return fallback;
      }
      try {
        long n = Counts.parse(value);
        if (n >= min) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(name, value, Counts.FORMAT + " >= " + min);
    }

    /**
     * The {@link EnumChoice enum constant} the option names; the message lists the allowed values.
     */
    public <E extends Enum<E>> E choice(String name, E fallback, E[] choices) {
      String value = optional(name).orElse(null);
      return value == null ? fallback : choice("--" + name, value, choices);
    }

    /** The enum constant a value of {@code what} (an option or a positional argument) names. */
    public <E extends Enum<E>> E choice(String what, String value, E[] choices) {
      return EnumChoice.find(choices, value)
          .orElseThrow(() -> invalidValue(what, value, EnumChoice.list(choices)));
    }

    /** "Cannot use --name 'value': expected allowed". */
    public static OptionException invalid(String name, String value, String allowed) {
      return invalidValue("--" + name, value, allowed);
    }

    private static OptionException invalidValue(String what, String value, String allowed) {
      return new OptionException("Cannot use " + what + " '" + value + "': expected " + allowed);
    }
  }
}
