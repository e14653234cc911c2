package io.corgipile.cli;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import io.corgipile.options.EnumChoice;
import io.corgipile.options.OptionException;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.ReadOptions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The validated arguments of {@link Train}. Values are checked here, before Spark starts, by the
 * same code that checks them later (the estimators' params, {@link BufferSize}), so a bad value
 * is reported as a bad argument with the argument's name. Every default and allowed value in the
 * help and the messages comes from its one home: {@link ReadOptions}, {@link ShuffleMode}, the
 * estimators.
 */
record TrainArguments(String input, String label, List<String> features, Task task, String loss, int epochs,
    String buffer, ShuffleMode shuffle, Integer partitions, Long seed, String test, String model, String metrics,
    boolean overwrite) {

  /** What is learned, and the estimator that learns it. */
  enum Task {
    CLASSIFICATION(SGDClassifier.class, SGDClassifier.SUPPORTED_LOSSES),
    REGRESSION(SGDRegressor.class, SGDRegressor.SUPPORTED_LOSSES);

    /** The task when {@code --task} is not given. */
    static final Task DEFAULT = CLASSIFICATION;

    private final Class<?> estimator;
    /** The estimator's losses, its default first. */
    private final List<String> losses;

    Task(Class<?> estimator, List<String> losses) {
      this.estimator = estimator;
      this.losses = losses;
    }

    String optionValue() {
      return EnumChoice.text(this);
    }
  }

  /** The options, in the order of the help text. */
  static final List<Option> OPTIONS = List.of(
      new Option("input", "PATH", "Parquet files or folders to train on, read through format(\"corgipile\") (required)"),
      new Option("label", "COL", "label column (default: label); for classification 0/1, or 0..K-1 for K classes"
          + " (softmax)"),
      new Option("features", "COLS", "comma list of numeric feature columns, or one vector column (required)"),
      new Option("task", "TASK", EnumChoice.orList(Arrays.stream(Task.values())
          .map(t -> t.optionValue() + " (" + t.estimator.getSimpleName() + (t == Task.DEFAULT ? ", the default)" : ")"))
          .toList())),
      new Option("loss", "LOSS", Arrays.stream(Task.values())
          .map(t -> t.optionValue() + ": " + EnumChoice.withDefault(t.losses, t.losses.get(0)))
          .collect(Collectors.joining("; "))),
      new Option("epochs", "N", "most epochs to train (default " + SGDParams.DEFAULT_MAX_ITER
          + "; training may stop earlier, see tol)"),
      new Option("buffer", "SIZE", "shuffle buffer per partition: " + BufferSize.FORMAT + " (default "
          + ReadOptions.BUFFER_SIZE_DEFAULT + ")"),
      new Option("shuffle", "MODE", EnumChoice.withDefault(EnumChoice.texts(ShuffleMode.values()),
          ReadOptions.SHUFFLE_DEFAULT)),
      new Option("partitions", "N", "Spark partitions to train in (default: "
          + ReadOptions.PARTITIONS_DEFAULT_DESCRIPTION + ")"),
      new Option("seed", "N", "seed of the shuffle order (default: the data source's, " + ReadOptions.SEED_DEFAULT
          + ")"),
      new Option("test", "PATH", "Parquet data to evaluate the model on (optional)"),
      new Option("model", "PATH", "where to save the fitted PipelineModel (feature assembly + model)"),
      new Option("metrics", "PATH", "where to write the training and test metrics as JSON"),
      Option.flag("overwrite", "replace --model and --metrics when they exist"),
      Option.flag("help", "print this help and exit"));

  private static final CommandLine COMMAND_LINE = new CommandLine("train", OPTIONS, 0);

  /** The usage text of {@code --help}. */
  static String usage() {
    return "Usage: " + Train.class.getName() + " --input PATH --features COLS [options]\n\n"
        + "Trains SGDClassifier or SGDRegressor on Parquet data read in CorgiPile order, prints one progress line\n"
        + "per epoch, evaluates on --test, saves the PipelineModel and writes the metrics as JSON.\n\nOptions:\n"
        + COMMAND_LINE.help(18)
        + "\nExit status: 0 done, 1 training failed (the cause is printed), 2 bad arguments.\n";
  }

  /** Whether {@code --help} (or {@code -h}) is among the arguments: then nothing else is checked. */
  static boolean wantsHelp(String[] args) {
    return CommandLine.wantsHelp(args);
  }

  /**
   * Parses {@code --name value}, {@code --name=value} and flags.
   *
   * @throws UsageException naming the argument and what it allows
   */
  static TrainArguments parse(String[] args) {
    try {
      return arguments(COMMAND_LINE.parse(args));
    } catch (OptionException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** Checks each value in turn. */
  private static TrainArguments arguments(Arguments values) {
    String input = values.required("input");
    String featureList = values.required("features");
    List<String> features = Arrays.stream(featureList.split(",")).map(String::trim).toList();
    if (features.stream().anyMatch(String::isEmpty)) {
      throw Arguments.invalid("features", featureList, "a comma list of column names");
    }
    Task task = values.choice("task", Task.DEFAULT, Task.values());
    ShuffleMode shuffle = values.choice("shuffle",
        EnumChoice.find(ShuffleMode.values(), ReadOptions.SHUFFLE_DEFAULT).orElseThrow(), ShuffleMode.values());
    String buffer = values.string("buffer", ReadOptions.BUFFER_SIZE_DEFAULT);
    try {
      BufferSize.parse(buffer);
    } catch (IllegalArgumentException e) {
      throw Arguments.invalid("buffer", buffer, BufferSize.FORMAT);
    }
    int epochs = values.atLeast("epochs", SGDParams.DEFAULT_MAX_ITER, 1);
    String loss = values.optional("loss").orElse(null);
    if (loss != null && !task.losses.contains(loss)) {
      throw Arguments.invalid("loss", loss, String.join(" or ", task.losses) + " for " + task.optionValue());
    }
    Integer partitions = values.has("partitions") ? values.atLeast("partitions", 0, 1) : null;
    Long seed = values.has("seed") ? values.integer("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE) : null;
    return new TrainArguments(input, values.string("label", "label"), features, task, loss, epochs, buffer,
        shuffle, partitions, seed, values.optional("test").orElse(null), values.optional("model").orElse(null),
        values.optional("metrics").orElse(null), values.flag("overwrite"));
  }
}
