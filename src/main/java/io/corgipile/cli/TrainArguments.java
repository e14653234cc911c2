package io.corgipile.cli;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.ShuffleMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The validated arguments of {@link Train}. Values are checked here, before Spark starts, by the
 * same code that checks them later (the estimators' params, {@link BufferSize}), so a bad value
 * is reported as a bad argument with the argument's name.
 */
record TrainArguments(String input, String label, List<String> features, Task task, String loss, int epochs,
    String buffer, ShuffleMode shuffle, Integer partitions, Long seed, String test, String model, String metrics,
    boolean overwrite) {

  /** What is learned, and the estimator that learns it. */
  enum Task {
    CLASSIFICATION, REGRESSION;

    String optionValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One option: its name, its value's placeholder (null for a flag) and what it does, for --help. */
  record Option(String name, String value, String help) {}

  static final List<Option> OPTIONS = List.of(
      new Option("input", "PATH", "Parquet files or folders to train on, read through format(\"corgipile\") (required)"),
      new Option("label", "COL", "label column (default: label); 0/1 for classification"),
      new Option("features", "COLS", "comma list of numeric feature columns, or one vector column (required)"),
      new Option("task", "TASK", "classification (SGDClassifier, the default) or regression (SGDRegressor)"),
      new Option("loss", "LOSS", "classification: logistic (default) or hinge; regression: squared (default) or"
          + " huber"),
      new Option("epochs", "N", "most epochs to train (default 10; training may stop earlier, see tol)"),
      new Option("buffer", "SIZE", "shuffle buffer per partition: " + BufferSize.FORMAT + " (default 10%)"),
      new Option("shuffle", "MODE", "corgipile (default), block, window or none"),
      new Option("partitions", "N", "Spark partitions to train in (default: one per 128 MB of input, as Spark"
          + " splits files)"),
      new Option("seed", "N", "seed of the shuffle order (default: the data source's, 0)"),
      new Option("test", "PATH", "Parquet data to evaluate the model on (optional)"),
      new Option("model", "PATH", "where to save the fitted PipelineModel (feature assembly + model)"),
      new Option("metrics", "PATH", "where to write the training and test metrics as JSON"),
      new Option("overwrite", null, "replace --model and --metrics when they exist"),
      new Option("help", null, "print this help and exit"));

  /** The usage text of {@code --help}. */
  static String usage() {
    StringBuilder s = new StringBuilder("Usage: io.corgipile.cli.Train --input PATH --features COLS [options]\n\n"
        + "Trains SGDClassifier or SGDRegressor on Parquet data read in CorgiPile order, prints one progress line\n"
        + "per epoch, evaluates on --test, saves the PipelineModel and writes the metrics as JSON.\n\nOptions:\n");
    for (Option o : OPTIONS) {
      String left = "--" + o.name() + (o.value() == null ? "" : " " + o.value());
      s.append(String.format(Locale.ROOT, "  %-18s %s%n", left, o.help()));
    }
    return s.append("\nExit status: 0 done, 1 training failed (the cause is printed), 2 bad arguments.\n")
        .toString();
  }

  /** Whether {@code --help} (or {@code -h}) is among the arguments: then nothing else is checked. */
  static boolean wantsHelp(String[] args) {
    return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
  }

  /**
   * Parses {@code --name value}, {@code --name=value} and flags.
   *
   * @throws UsageException naming the argument and what it allows
   */
  static TrainArguments parse(String[] args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new UsageException("Cannot use argument '" + arg + "': expected an option such as --input");
      }
      int eq = arg.indexOf('=');
      String name = arg.substring(2, eq < 0 ? arg.length() : eq);
      Option option = OPTIONS.stream().filter(o -> o.name().equals(name)).findFirst()
          .orElseThrow(() -> new UsageException("Cannot use option --" + name + ": unknown; options are "
              + OPTIONS.stream().map(o -> "--" + o.name()).collect(Collectors.joining(", "))));
      String value;
      if (option.value() == null) {
        if (eq >= 0) {
          throw new UsageException("Cannot use option --" + name + ": it takes no value");
        }
        value = "true";
      } else if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException("Cannot use option --" + name + ": it needs a value (" + option.value() + ")");
      }
      if (values.put(name, value) != null) {
        throw new UsageException("Cannot use option --" + name + " twice");
      }
    }
    return new Parsed(values).arguments();
  }

  /** Checks each value in turn. */
  private record Parsed(Map<String, String> values) {
    TrainArguments arguments() {
      String input = required("input");
      List<String> features = Arrays.stream(required("features").split(",")).map(String::trim).toList();
      if (features.stream().anyMatch(String::isEmpty)) {
        throw invalid("features", values.get("features"), "a comma list of column names");
      }
      Task task = choice("task", Task.CLASSIFICATION, Task.values(), Task::optionValue);
      ShuffleMode shuffle = choice("shuffle", ShuffleMode.CORGIPILE, ShuffleMode.values(),
          ShuffleMode::optionValue);
      String buffer = values.getOrDefault("buffer", "10%");
      try {
        BufferSize.parse(buffer);
      } catch (IllegalArgumentException e) {
        throw invalid("buffer", buffer, BufferSize.FORMAT);
      }
      int epochs = (int) integer("epochs", 10, 1, Integer.MAX_VALUE);
      String loss = values.get("loss");
      if (loss != null) {
        List<String> allowed = task == Task.CLASSIFICATION ? SGDClassifier.SUPPORTED_LOSSES : SGDRegressor.SUPPORTED_LOSSES;
        if (!allowed.contains(loss)) {
          throw invalid("loss", loss, String.join(" or ", allowed) + " for " + task.optionValue());
        }
      }
      Integer partitions = values.containsKey("partitions")
          ? (int) integer("partitions", 0, 1, Integer.MAX_VALUE) : null;
      Long seed = values.containsKey("seed") ? integer("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE) : null;
      return new TrainArguments(input, values.getOrDefault("label", "label"), features, task, loss, epochs, buffer,
          shuffle, partitions, seed, values.get("test"), values.get("model"), values.get("metrics"),
          values.containsKey("overwrite"));
    }

    private String required(String name) {
      String value = values.get(name);
      if (value == null || value.isBlank()) {
        throw new UsageException("Cannot train: --" + name + " is required");
      }
      return value;
    }

    private <T> T choice(String name, T fallback, T[] choices, Function<T, String> text) {
      String value = values.get(name);
      if (value == null) {
        return fallback;
      }
      return Arrays.stream(choices).filter(c -> text.apply(c).equalsIgnoreCase(value.trim())).findFirst()
          .orElseThrow(() -> invalid(name, value,
              Arrays.stream(choices).map(text).collect(Collectors.joining(", "))));
    }

    private long integer(String name, long fallback, long min, long max) {
      String value = values.get(name);
      if (value == null) {
        return fallback;
      }
      List<String> bounds = new ArrayList<>();
      if (min != Long.MIN_VALUE) {
        bounds.add(">= " + min);
      }
      if (max != Long.MAX_VALUE) {
        bounds.add("<= " + max);
      }
      String allowed = bounds.isEmpty() ? "an integer" : "an integer " + String.join(" and ", bounds);
      try {
        long n = Long.parseLong(value.trim());
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(name, value, allowed);
    }

    private static UsageException invalid(String name, String value, String allowed) {
      return new UsageException("Cannot use --" + name + " '" + value + "': expected " + allowed);
    }
  }
}
