package io.corgipile.cli;

import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDParams;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.compress.DeltaCompression;
import io.corgipile.options.CommandLine;
import io.corgipile.options.CommandLine.Arguments;
import io.corgipile.options.CommandLine.Option;
import io.corgipile.options.EnumChoice;
import io.corgipile.options.OptionException;
import io.corgipile.shuffle.BufferSize;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.ReadOptions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.spark.ml.param.Param;

/**
 * The validated arguments of {@link Train}. Values are checked here, before Spark starts, by the
 * same code that checks them later (the estimators' params, {@link BufferSize}), so a bad value is
 * reported as a bad argument with the argument's name. Every default and allowed value in the help
 * and the messages comes from its one home: {@link ReadOptions}, {@link ShuffleMode}, the
 * estimators (for {@code --task lasso}, {@code ScheduledLassoParams}, through a {@link
 * ScheduledLasso}'s params: their defaults, docs and checks).
 *
 * <p>An option that belongs to some tasks only ({@link #ONLY_FOR}) is refused with the others,
 * rather than ignored.
 *
 * @param deltaCompression for the SGD tasks, the {@code deltaCompression} param when given; null
 *     for the estimator's default
 * @param lassoParams for {@code --task lasso}, the {@link ScheduledLasso} params the command line
 *     set, by param name, in the order of {@link #LASSO_OPTIONS}; empty for the other tasks
 */
record TrainArguments(
    String input,
    String label,
    List<String> features,
    Task task,
    String loss,
    int epochs,
    DeltaCompression deltaCompression,
    Map<String, Object> lassoParams,
    String buffer,
    ShuffleMode shuffle,
    Integer partitions,
    Long seed,
    String test,
    String model,
    String metrics,
    boolean overwrite) {

  /** What is learned, and the estimator that learns it. */
  enum Task {
    CLASSIFICATION(SGDClassifier.class, SGDClassifier.SUPPORTED_LOSSES),
    REGRESSION(SGDRegressor.class, SGDRegressor.SUPPORTED_LOSSES),
    /**
     * Least squares with an L1 (elastic net) penalty, by scheduled coordinate descent: no loss to
     * choose.
     */
    LASSO(ScheduledLasso.class, List.of());

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

    /** The estimator's class name, as the metrics and the result line name it. */
    String estimatorName() {
      return estimator.getSimpleName();
    }
  }

  /** The SGD estimators' tasks. */
  private static final Set<Task> SGD_TASKS =
      Collections.unmodifiableSet(EnumSet.of(Task.CLASSIFICATION, Task.REGRESSION));

  /**
   * How an option of {@code --task lasso} reads its value: the value is then checked by the {@link
   * ScheduledLasso} param it sets, so the option allows what the param allows.
   */
  private enum Kind {
    NUMBER("X"),
    INTEGER("N"),
    CHOICE("NAME"),
    BOOLEAN("BOOL");

    /** A decimal number, {@code 0.5}, {@code 1e-6}: not Java's NaN, Infinity, hex or {@code 1d}. */
    private static final Pattern DECIMAL =
        Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private final String placeholder;

    Kind(String placeholder) {
      this.placeholder = placeholder;
    }

    /** The value as the param takes it, or null when it is not one. */
    Object read(String value) {
      String v = value.trim();
      try {
        return switch (this) {
          case NUMBER -> {
            double d = DECIMAL.matcher(v).matches() ? Double.parseDouble(v) : Double.NaN;
            yield Double.isFinite(d) ? d : null;
          }
          case INTEGER -> Integer.parseInt(v);
          case CHOICE -> v.toLowerCase(Locale.ROOT);
          case BOOLEAN ->
              v.equalsIgnoreCase("true")
                  ? Boolean.TRUE
                  : v.equalsIgnoreCase("false") ? Boolean.FALSE : null;
        };
      } catch (NumberFormatException e) {
        return null;
      }
    }

    /**
     * A value no param of this kind allows, so its check says what the param allows; null if none.
     */
    Object refused() {
      return switch (this) {
        case NUMBER -> Double.NaN;
        case INTEGER -> Integer.MIN_VALUE;
        case CHOICE -> "";
        case BOOLEAN -> null;
      };
    }
  }

  /** An option of {@code --task lasso}: the {@link ScheduledLasso} param it sets, by name. */
  record LassoOption(String name, String param, Kind kind) {
    /** The option for the help and the parser: the param's own doc, with its default. */
    Option option() {
      Param<?> p = LASSO_DEFAULTS.getParam(param);
      String doc = p.doc();
      String allowedAndDefault =
          (kind == Kind.BOOLEAN ? "true or false; " : "")
              + "default "
              + text(LASSO_DEFAULTS.getDefault(p).get());
      // the checked params end their doc with what they allow, "(>= 1)": the default joins it
      String help =
          doc.endsWith(")") && kind != Kind.BOOLEAN
              ? doc.substring(0, doc.length() - 1) + "; " + allowedAndDefault + ")"
              : doc + " (" + allowedAndDefault + ")";
      return new Option(name, kind.placeholder, help);
    }
  }

  /** The defaults and docs of the lasso's params, for the help; never trained or changed. */
  private static final ScheduledLasso LASSO_DEFAULTS = new ScheduledLasso();

  /**
   * The options of {@code --task lasso}, one per param of {@code ScheduledLassoParams} but the seed
   * (--seed).
   */
  static final List<LassoOption> LASSO_OPTIONS =
      List.of(
          new LassoOption("reg-param", "regParam", Kind.NUMBER),
          new LassoOption("elastic-net-param", "elasticNetParam", Kind.NUMBER),
          new LassoOption("scheduler", "scheduler", Kind.CHOICE),
          new LassoOption("schedule-size", "scheduleSize", Kind.INTEGER),
          new LassoOption("candidate-factor", "candidateFactor", Kind.NUMBER),
          new LassoOption("correlation-threshold", "correlationThreshold", Kind.NUMBER),
          new LassoOption("priority-floor", "priorityFloor", Kind.NUMBER),
          new LassoOption("max-iter", "maxIter", Kind.INTEGER),
          new LassoOption("tol", "tol", Kind.NUMBER),
          new LassoOption("refresh-interval", "refreshInterval", Kind.INTEGER),
          new LassoOption("fit-intercept", "fitIntercept", Kind.BOOLEAN),
          new LassoOption("standardization", "standardization", Kind.BOOLEAN));

  /**
   * The options, in the order of the help text within its sections ({@link #usage}): those of every
   * task, of the SGD tasks ({@code loss}, {@code epochs}), of the lasso, then every task's again.
   */
  static final List<Option> OPTIONS = options();

  private static List<Option> options() {
    List<Option> options =
        new ArrayList<>(
            List.of(
                new Option(
                    "input",
                    "PATH",
                    "Parquet files or folders to train on, read through format(\"corgipile\")"
                        + " (required)"),
                new Option(
                    "label",
                    "COL",
                    "label column (default: label); for classification 0/1, or 0..K-1 for K classes"
                        + " (softmax)"),
                new Option(
                    "features",
                    "COLS",
                    "comma list of numeric feature columns, or one vector column (required)"),
                new Option(
                    "task",
                    "TASK",
                    EnumChoice.orList(
                        Arrays.stream(Task.values())
                            .map(
                                t ->
                                    t.optionValue()
                                        + " ("
                                        + t.estimatorName()
                                        + (t == Task.DEFAULT ? ", the default)" : ")"))
                            .toList())),
                new Option(
                    "loss",
                    "LOSS",
                    Arrays.stream(Task.values())
                        .filter(t -> !t.losses.isEmpty())
                        .map(
                            t ->
                                t.optionValue()
                                    + ": "
                                    + EnumChoice.withDefault(t.losses, t.losses.get(0)))
                        .collect(Collectors.joining("; "))),
                new Option(
                    "epochs",
                    "N",
                    "most epochs to train (default "
                        + SGDParams.DEFAULT_MAX_ITER
                        + "; training may stop earlier, see tol)"),
                new Option(
                    "delta-compression",
                    "NAME",
                    "how a partition's model change travels to the driver each round: "
                        + EnumChoice.withDefault(
                            SGDParams.DELTA_COMPRESSIONS, SGDParams.DEFAULT_DELTA_COMPRESSION)
                        + " (with error feedback)")));
    LASSO_OPTIONS.forEach(o -> options.add(o.option()));
    options.addAll(
        List.of(
            new Option(
                "buffer",
                "SIZE",
                "shuffle buffer per partition: "
                    + BufferSize.FORMAT
                    + " (default "
                    + ReadOptions.BUFFER_SIZE_DEFAULT
                    + ")"),
            new Option(
                "shuffle",
                "MODE",
                EnumChoice.withDefault(
                    EnumChoice.texts(ShuffleMode.values()), ReadOptions.SHUFFLE_DEFAULT)),
            new Option(
                "partitions",
                "N",
                "Spark partitions to train in (default: "
                    + ReadOptions.PARTITIONS_DEFAULT_DESCRIPTION
                    + ")"),
            new Option(
                "seed",
                "N",
                "seed of the shuffle order and, for lasso, of the scheduler's draws (default: the"
                    + " data source's, "
                    + ReadOptions.SEED_DEFAULT
                    + ")"),
            new Option("test", "PATH", "Parquet data to evaluate the model on (optional)"),
            new Option(
                "model",
                "PATH",
                "where to save the fitted PipelineModel (feature assembly + model)"),
            new Option("metrics", "PATH", "where to write the training and test metrics as JSON"),
            Option.flag("overwrite", "replace --model and --metrics when they exist"),
            Option.flag("help", "print this help and exit")));
    return List.copyOf(options);
  }

  /** The options that belong to some tasks only, by name; the others apply to every task. */
  static final Map<String, Set<Task>> ONLY_FOR = onlyFor();

  private static Map<String, Set<Task>> onlyFor() {
    Map<String, Set<Task>> only = new LinkedHashMap<>();
    only.put("loss", SGD_TASKS);
    only.put("epochs", SGD_TASKS);
    only.put("delta-compression", SGD_TASKS);
    LASSO_OPTIONS.forEach(o -> only.put(o.name(), Set.of(Task.LASSO)));
    return Collections.unmodifiableMap(only);
  }

  private static final CommandLine COMMAND_LINE = new CommandLine("train", OPTIONS, 0);

  /** The usage text of {@code --help}: the options of every task, then those of some tasks only. */
  static String usage() {
    return "Usage: "
        + Train.class.getName()
        + " --input PATH --features COLS [options]\n\n"
        + "Trains SGDClassifier, SGDRegressor or ScheduledLasso on Parquet data read in CorgiPile"
        + " order, evaluates\n"
        + "on --test, saves the PipelineModel and writes the metrics as JSON. The SGD tasks print"
        + " one progress line\n"
        + "per epoch.\n\n"
        + "Options:\n"
        + help(Set.of(Task.values()), 18)
        + "\nOptions of --task "
        + taskList(SGD_TASKS, " and ")
        + " only:\n"
        + help(SGD_TASKS, 18)
        + "\nOptions of --task lasso only ("
        + Task.LASSO.estimatorName()
        + "; its params' docs and defaults):\n"
        + help(Set.of(Task.LASSO), 0)
        + "\nExit status: 0 done, 1 training failed (the cause is printed), 2 bad arguments.\n";
  }

  /** The help lines of the options whose tasks are {@code tasks}; width 0: the longest synopsis. */
  private static String help(Set<Task> tasks, int width) {
    List<Option> options =
        OPTIONS.stream()
            .filter(o -> ONLY_FOR.getOrDefault(o.name(), Set.of(Task.values())).equals(tasks))
            .toList();
    int w =
        width > 0 ? width : options.stream().mapToInt(o -> o.synopsis().length()).max().orElse(1);
    return new CommandLine("train", options, 0).help(w);
  }

  /** The tasks' option values, in declaration order, joined as {@code a, b<last>c}. */
  private static String taskList(Set<Task> tasks, String last) {
    List<String> texts =
        Arrays.stream(Task.values()).filter(tasks::contains).map(Task::optionValue).toList();
    return texts.size() <= 1
        ? String.join("", texts)
        : String.join(", ", texts.subList(0, texts.size() - 1))
            + last
            + texts.get(texts.size() - 1);
  }

  /**
   * A default or given value as the help writes it: numbers without a trailing .0 or an exponent.
   */
  static String text(Object value) {
    return value instanceof Double d
        ? BigDecimal.valueOf(d).stripTrailingZeros().toPlainString()
        : String.valueOf(value);
  }

  /**
   * Whether {@code --help} (or {@code -h}) is among the arguments: then nothing else is checked.
   */
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
    for (Option option : OPTIONS) {
      Set<Task> tasks = ONLY_FOR.get(option.name());
      if (values.has(option.name()) && tasks != null && !tasks.contains(task)) {
        throw new UsageException(
            "Cannot use --"
                + option.name()
                + " with --task "
                + task.optionValue()
                + (values.has("task") ? "" : " (the default)")
                + ": it applies to --task "
                + taskList(tasks, " or "));
      }
    }
    ShuffleMode shuffle =
        values.choice(
            "shuffle",
            EnumChoice.find(ShuffleMode.values(), ReadOptions.SHUFFLE_DEFAULT).orElseThrow(),
            ShuffleMode.values());
    String buffer = values.string("buffer", ReadOptions.BUFFER_SIZE_DEFAULT);
    try {
      BufferSize.parse(buffer);
    } catch (IllegalArgumentException e) {
      throw Arguments.invalid("buffer", buffer, BufferSize.FORMAT);
    }
    int epochs = values.atLeast("epochs", SGDParams.DEFAULT_MAX_ITER, 1);
    DeltaCompression deltaCompression =
        values.choice("delta-compression", (DeltaCompression) null, DeltaCompression.values());
    String loss = values.optional("loss").orElse(null);
    if (loss != null && !task.losses.contains(loss)) {
      throw Arguments.invalid(
          "loss", loss, String.join(" or ", task.losses) + " for " + task.optionValue());
    }
    Map<String, Object> lassoParams = lassoParams(values);
    Integer partitions = values.has("partitions") ? values.atLeast("partitions", 0, 1) : null;
    Long seed =
        values.has("seed") ? values.integer("seed", 0, Long.MIN_VALUE, Long.MAX_VALUE) : null;
    return new TrainArguments(
        input,
        values.string("label", "label"),
        features,
        task,
        loss,
        epochs,
        deltaCompression,
        lassoParams,
        buffer,
        shuffle,
        partitions,
        seed,
        values.optional("test").orElse(null),
        values.optional("model").orElse(null),
        values.optional("metrics").orElse(null),
        values.flag("overwrite"));
  }

  /**
   * The lasso options given, each value checked by setting it on a {@link ScheduledLasso}: what the
   * param refuses is a bad argument, named with what the param allows.
   */
  private static Map<String, Object> lassoParams(Arguments values) {
    ScheduledLasso check = new ScheduledLasso();
    Map<String, Object> params = new LinkedHashMap<>();
    for (LassoOption option : LASSO_OPTIONS) {
      String given = values.optional(option.name()).orElse(null);
      if (given == null) {
        continue;
      }
      Param<Object> param = param(check, option.param());
      Object value = option.kind().read(given);
      String refusal =
          value == null
              ? refusal(check, param, option.kind().refused())
              : refusal(check, param, value);
      if (refusal != null) {
        throw Arguments.invalid(option.name(), given, refusal);
      }
      params.put(option.param(), value);
    }
    return Collections.unmodifiableMap(params);
  }

  /** The param of {@code lasso} named {@code name}, for values of any type. */
  @SuppressWarnings("unchecked")
  static Param<Object> param(ScheduledLasso lasso, String name) {
    return (Param<Object>) lasso.getParam(name);
  }

  private static final String ALLOWED = "allowed values are ";

  /**
   * Null when {@code param} takes {@code value}; else what it allows, as its own check words it
   * ("numbers >= 0" becomes "a number >= 0"): true or false for a boolean, which takes any.
   */
  private static String refusal(ScheduledLasso lasso, Param<Object> param, Object value) {
    if (value == null) {
      return "true or false";
    }
    try {
      lasso.set(param, value);
      return null;
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      int at = message.lastIndexOf(ALLOWED);
      String allowed = at < 0 ? message : message.substring(at + ALLOWED.length());
      return allowed.startsWith("numbers ")
          ? "a number " + allowed.substring("numbers ".length())
          : allowed.startsWith("integers ")
              ? "an integer " + allowed.substring("integers ".length())
              : allowed;
    }
  }
}
