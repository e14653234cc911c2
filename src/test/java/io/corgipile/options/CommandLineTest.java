package io.corgipile.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared parser: every form of argument, every getter, and what each error says. */
class CommandLineTest {
  enum Mode {
    FAST,
    SLOW_START
  }

  private static final CommandLine LINE =
      new CommandLine(
          "test",
          List.of(
              new Option("name", "TEXT", "a name"),
              new Option("n", "N", "a number"),
              new Option("mode", "MODE", "a mode"),
              new Option("rows", "N", "a count"),
              new Option("out", "DIR", "a folder"),
              new Option("option", "K=V", "repeatable", true),
              Option.flag("dry", "a flag")),
          1);

  @Test
  void readsEveryFormOfArgument() {
    Arguments a =
        LINE.parse(
            new String[] {
              "first",
              "--name",
              "x",
              "--n=7",
              "--dry",
              "--option",
              "a=1",
              "--option=b=2",
              "--mode",
              " Slow_Start ",
              "--rows",
              "1_500k",
              "--out",
              "o"
            });

    assertThat(a.positional()).containsExactly("first");
    assertThat(a.required("name")).isEqualTo("x");
    assertThat(a.integer("n", 0, 1, 10)).isEqualTo(7);
    assertThat(a.flag("dry")).isTrue();
    assertThat(a.all("option")).containsExactly("a=1", "b=2");
    assertThat(a.choice("mode", Mode.FAST, Mode.values())).isEqualTo(Mode.SLOW_START);
    assertThat(a.count("rows", 0, 1)).isEqualTo(1_500_000);
    assertThat(a.path("out", null)).isEqualTo(Path.of("o"));
  }

  @Test
  void absentOptionsGiveTheFallbacks() {
    Arguments a = LINE.parse(new String[0]);

    assertThat(a.positional()).isEmpty();
    assertThat(a.string("name", "d")).isEqualTo("d");
    assertThat(a.atLeast("n", 3, 1)).isEqualTo(3);
    assertThat(a.flag("dry")).isFalse();
    assertThat(a.all("option")).isEmpty();
    assertThat(a.choice("mode", Mode.FAST, Mode.values())).isEqualTo(Mode.FAST);
    assertThat(a.count("rows", 5, 1)).isEqualTo(5);
  }

  @Test
  void errorsNameTheArgumentAndWhatItAllows() {
    assertThatThrownBy(() -> LINE.parse(new String[] {"a", "b"}))
        .isInstanceOf(OptionException.class)
        .hasMessage("Cannot use argument 'b': expected an option such as --name");
    assertThatThrownBy(() -> LINE.parse(new String[] {"--nam"}))
        .hasMessage(
            "Cannot use option --nam: unknown;"
                + " options are --name, --n, --mode, --rows, --out, --option, --dry");
    assertThatThrownBy(() -> LINE.parse(new String[] {"--dry=1"}))
        .hasMessage("Cannot use option --dry: it takes no value");
    assertThatThrownBy(() -> LINE.parse(new String[] {"--n"}))
        .hasMessage("Cannot use option --n: it needs a value (N)");
    assertThatThrownBy(() -> LINE.parse(new String[] {"--n=1", "--n=2"}))
        .hasMessage("Cannot use option --n twice");
    Arguments a = LINE.parse(new String[] {"--n=0", "--mode=medium", "--rows=lots", "--name= "});
    assertThatThrownBy(() -> a.required("name")).hasMessage("Cannot test: --name is required");
    assertThatThrownBy(() -> a.integer("n", 0, 1, 10))
        .hasMessage("Cannot use --n '0': expected an integer >= 1 and <= 10");
    assertThatThrownBy(() -> a.integer("mode", 0, Long.MIN_VALUE, Long.MAX_VALUE))
        .hasMessage("Cannot use --mode 'medium': expected a 64-bit integer");
    assertThatThrownBy(() -> a.choice("mode", Mode.FAST, Mode.values()))
        .hasMessage("Cannot use --mode 'medium': expected fast, slow_start");
    assertThatThrownBy(() -> a.count("rows", 0, 1))
        .hasMessage("Cannot use --rows 'lots': expected a count (10000000, 10m, 500k) >= 1");
  }

  @Test
  void helpIsAskedForByEitherSpelling() {
    assertThat(CommandLine.wantsHelp(new String[] {"--n", "1", "-h"})).isTrue();
    assertThat(CommandLine.wantsHelp(new String[] {"--help"})).isTrue();
    assertThat(CommandLine.wantsHelp(new String[] {"--n", "1"})).isFalse();
    assertThat(LINE.help(12))
        .startsWith("  --name TEXT  a name" + System.lineSeparator())
        .contains("  --dry" + " ".repeat(8) + "a flag");
  }

  @Test
  void enumChoicesAreLowerCaseNamesFoundIgnoringCase() {
    assertThat(EnumChoice.text(Mode.SLOW_START)).isEqualTo("slow_start");
    assertThat(EnumChoice.find(Mode.values(), " FAST")).contains(Mode.FAST);
    assertThat(EnumChoice.find(Mode.values(), "medium")).isEmpty();
    assertThat(EnumChoice.allowed(Mode.values())).isEqualTo("allowed values are fast, slow_start");
    assertThat(EnumChoice.withDefault(List.of("a", "b", "c"), "b"))
        .isEqualTo("a, b (default) or c");
    assertThat(EnumChoice.orList(List.of("a"))).isEqualTo("a");
  }

  @Test
  void countsTakeSeparatorsAndSuffixes() {
    assertThat(Counts.parse("10000000")).isEqualTo(10_000_000);
    assertThat(Counts.parse("10_000,000")).isEqualTo(10_000_000);
    assertThat(Counts.parse("10M")).isEqualTo(10_000_000);
    assertThat(Counts.parse("500k")).isEqualTo(500_000);
    assertThatThrownBy(() -> Counts.parse("1g")).isInstanceOf(NumberFormatException.class);
    assertThatThrownBy(() -> Counts.parse("99999999999999m"))
        .isInstanceOf(NumberFormatException.class);
  }
}
