package io.corgipile;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.build.PythonParamCatalog;
import io.corgipile.ml.SGDClassifier;
import io.corgipile.ml.SGDRegressor;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.ScheduledLassoParams;
import io.corgipile.shuffle.BlockAssignment;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.CorgiPileMetrics;
import io.corgipile.source.ReadOptions;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.junit.jupiter.api.Test;

/**
 * The documentation's option and param tables and its list of scan metrics against the code: every
 * name, every default and every allowed value the code has, so they cannot drift from their one
 * home. (The site's own links and anchors are checked by its strict build, scripts/build-docs.)
 */
class DocsTablesTest {
  private static final Pattern CODE = Pattern.compile("`([^`]*)`");
  private static final Path DATA_SOURCE = Path.of("docs/data-source.md");
  private static final Path TRAINING = Path.of("docs/training.md");
  private static final Path LASSO = Path.of("docs/lasso.md");

  /** The columns MLlib's Predictor and classifiers declare; the docs link MLlib for those. */
  private static final Set<String> MLLIB_COLUMN_PARAMS = PythonParamCatalog.PYSPARK_PARAMS;

  /** A table row: its names (the code spans of the first cell) and its other cells. */
  private record Row(List<String> names, String values, String defaults) {}

  @Test
  void optionTableHasEveryOptionOfReadOptionsWithItsDefault() throws Exception {
    List<Row> rows = table(DATA_SOURCE, "| option |");
    Map<String, String> descriptions = new TreeMap<>();
    Map<String, Object> options = readOptions(descriptions);
    assertThat(rows.stream().flatMap(r -> r.names().stream()).sorted())
        .as("options in the docs' table")
        .containsExactlyElementsOf(options.keySet());
    for (Map.Entry<String, Object> option : options.entrySet()) {
      Object defaultValue = option.getValue();
      if (defaultValue != null) {
        assertThat(codeSpans(row(rows, option.getKey()).defaults()))
            .as("documented default of option %s", option.getKey())
            .contains(String.valueOf(defaultValue));
      }
    }
    descriptions.forEach(
        (option, description) ->
            assertThat(row(rows, option).defaults().trim())
                .as("documented default of option %s", option)
                .isEqualTo(description));
    assertThat(descriptions).containsKey(ReadOptions.PARTITIONS);
    assertThat(codeSpans(row(rows, ReadOptions.SHUFFLE).values()))
        .containsAll(Arrays.stream(ShuffleMode.values()).map(ShuffleMode::optionValue).toList());
    assertThat(codeSpans(row(rows, ReadOptions.BLOCK_ASSIGNMENT).values()))
        .containsAll(
            Arrays.stream(BlockAssignment.values()).map(BlockAssignment::optionValue).toList());
  }

  @Test
  void paramTableHasEveryTrainingParamWithItsDefault() throws Exception {
    List<Row> rows = table(TRAINING, "| param |");
    List<String> documented = new ArrayList<>();
    for (Params estimator : List.of(new SGDClassifier(), new SGDRegressor())) {
      for (Param<?> param : estimator.params()) {
        if (MLLIB_COLUMN_PARAMS.contains(param.name())) {
          continue;
        }
        documented.add(param.name());
        Row row = row(rows, param.name());
        if (estimator.hasDefault(param)) {
          Object value = estimator.getDefault(param).get();
          assertThat(mentions(row.defaults(), value))
              .as(
                  "documented default of %s for %s is %s: %s",
                  param.name(), estimator.getClass().getSimpleName(), value, row.defaults())
              .isTrue();
        }
      }
    }
    assertThat(rows.stream().flatMap(r -> r.names().stream()))
        .as("params in the docs' table")
        .allMatch(documented::contains);
    assertThat(codeSpans(row(rows, "loss").values()))
        .containsAll(SGDClassifier.SUPPORTED_LOSSES)
        .containsAll(SGDRegressor.SUPPORTED_LOSSES);
  }

  @Test
  void lassoParamTableHasEveryParamWithItsDefault() throws Exception {
    List<Row> rows = table(LASSO, "| lasso param |");
    ScheduledLasso lasso = new ScheduledLasso();
    List<String> documented = new ArrayList<>();
    for (Param<?> param : lasso.params()) {
      if (MLLIB_COLUMN_PARAMS.contains(param.name())) {
        continue;
      }
      documented.add(param.name());
      Object value = lasso.getDefault(param).get();
      assertThat(mentions(row(rows, param.name()).defaults(), value))
          .as("documented default of %s for ScheduledLasso is %s", param.name(), value)
          .isTrue();
    }
    assertThat(rows.stream().flatMap(r -> r.names().stream()))
        .as("lasso params in the docs' table")
        .containsExactlyInAnyOrderElementsOf(documented);
    assertThat(codeSpans(row(rows, "scheduler").values()))
        .containsAll(ScheduledLassoParams.SCHEDULERS);
  }

  /**
   * The option names in {@link ReadOptions}, each with its {@code _DEFAULT} value or null; those
   * whose default is described in words instead go into {@code descriptions} too.
   */
  private static Map<String, Object> readOptions(Map<String, String> descriptions)
      throws IllegalAccessException {
    Map<String, Field> fields = new LinkedHashMap<>();
    for (Field f : ReadOptions.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        fields.put(f.getName(), f);
      }
    }
    Map<String, Object> options = new TreeMap<>();
    for (Field f : fields.values()) {
      String name = f.getName();
      if (f.getType() != String.class
          || name.endsWith("_DEFAULT")
          || name.endsWith("_DEFAULT_DESCRIPTION")
          || name.equals("SESSION_CONF_PREFIX")) {
        continue;
      }
      Field defaultField = fields.get(name + "_DEFAULT");
      options.put((String) f.get(null), defaultField == null ? null : defaultField.get(null));
      Field description = fields.get(name + "_DEFAULT_DESCRIPTION");
      if (description != null) {
        descriptions.put((String) f.get(null), (String) description.get(null));
      }
    }
    // the list the source checks options against names every option constant
    assertThat(ReadOptions.ALL).containsExactlyInAnyOrderElementsOf(options.keySet());
    return options;
  }

  @Test
  void metricsSectionNamesEveryScanMetric() throws Exception {
    List<String> names = new ArrayList<>();
    for (Field f : CorgiPileMetrics.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        names.add((String) f.get(null));
      }
    }
    assertThat(names).hasSizeGreaterThanOrEqualTo(5);
    assertThat(codeSpans(section(DATA_SOURCE, "## Metrics")))
        .as("metrics the docs name")
        .containsAll(names);
  }

  /** The text of {@code page} from the heading {@code heading} to the next heading. */
  private static String section(Path page, String heading) throws IOException {
    List<String> lines = Files.readAllLines(page);
    int start = lines.indexOf(heading);
    assertThat(start).as("%s heading '%s'", page, heading).isNotNegative();
    StringBuilder text = new StringBuilder();
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
      text.append(lines.get(i)).append('\n');
    }
    return text.toString();
  }

  /** Whether a default cell names {@code value}: numbers by value, the empty string as "empty". */
  private static boolean mentions(String cell, Object value) {
    if (value instanceof String s && s.isEmpty() || value instanceof String[] a && a.length == 0) {
      return cell.contains("empty");
    }
    for (String span : codeSpans(cell)) {
      if (value instanceof Number n) {
        try {
          if (Double.parseDouble(span) == n.doubleValue()) {
            return true;
          }
        } catch (NumberFormatException e) {
          // not a number: compared below as text
        }
      }
      if (span.equals(String.valueOf(value))) {
        return true;
      }
    }
    return false;
  }

  private static Row row(List<Row> rows, String name) {
    return rows.stream()
        .filter(r -> r.names().contains(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("the docs have no table row for " + name));
  }

  /** The rows of the table in {@code page} whose header line starts with {@code header}. */
  private static List<Row> table(Path page, String header) throws IOException {
    List<String> lines = Files.readAllLines(page);
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(header)) {
        start = i + 2; // past the header and its |---| line
        break;
      }
    }
    assertThat(start).as("%s table starting with '%s'", page, header).isPositive();
    List<Row> rows = new ArrayList<>();
    for (int i = start; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      String[] cells = lines.get(i).split("\\|", -1);
      rows.add(new Row(codeSpans(cells[1]), cells[2], cells[3]));
    }
    return rows;
  }

  private static List<String> codeSpans(String text) {
    List<String> spans = new ArrayList<>();
    Matcher m = CODE.matcher(text);
    while (m.find()) {
      spans.add(m.group(1));
    }
    return spans;
  }
}
