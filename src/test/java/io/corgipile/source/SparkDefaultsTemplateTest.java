package io.corgipile.source;

import static io.corgipile.source.TestTables.spark;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.RuntimeConfig;
import org.junit.jupiter.api.Test;

/** conf/spark-defaults.conf: what it sets is what Spark and the source accept, and what it says. */
class SparkDefaultsTemplateTest {
  private static final Pattern SETTING = Pattern.compile("(#\\s*)?(spark\\.[\\w.]+)\\s+(\\S.*)");

  /** Its active settings, in order. */
  private static Map<String, String> active() throws IOException {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String line : Files.readAllLines(Path.of("conf/spark-defaults.conf"))) {
      Matcher m = SETTING.matcher(line.strip());
      if (m.matches() && m.group(1) == null) {
        settings.put(m.group(2), m.group(3).strip());
      } else {
        assertThat(line.isBlank() || line.startsWith("#"))
            .as("neither a setting nor a comment: %s", line)
            .isTrue();
      }
    }
    return settings;
  }

  @Test
  void theSourceDefaultsItSetsAreTheBuiltInOnes() throws IOException {
    Map<String, String> source = new LinkedHashMap<>();
    active()
        .forEach(
            (k, v) -> {
              if (k.startsWith(ReadOptions.SESSION_CONF_PREFIX)) {
                source.put(k.substring(ReadOptions.SESSION_CONF_PREFIX.length()), v);
              }
            });
    assertThat(source)
        .containsExactly(
            Map.entry(ReadOptions.SHUFFLE, ReadOptions.SHUFFLE_DEFAULT),
            Map.entry(ReadOptions.BUFFER_SIZE, ReadOptions.BUFFER_SIZE_DEFAULT),
            Map.entry(ReadOptions.SEED, Long.toString(ReadOptions.SEED_DEFAULT)),
            Map.entry(ReadOptions.PREFETCH, Boolean.toString(ReadOptions.PREFETCH_DEFAULT)),
            Map.entry(ReadOptions.BLOCK_ASSIGNMENT, ReadOptions.BLOCK_ASSIGNMENT_DEFAULT));
  }

  @Test
  void aSessionWithItsSettingsReadsAsWithout() throws IOException {
    String table = TestTables.labelSorted(TestTables.tempDir("defaults-template"), 1_000, 100);
    Object plain = TestTables.orderByPartition(TestTables.corgipile().load(table), "id");
    RuntimeConfig conf = spark().conf();
    Map<String, String> settings = active();
    List<String> source =
        settings.keySet().stream()
            .filter(k -> k.startsWith(ReadOptions.SESSION_CONF_PREFIX))
            .toList();
    try {
      source.forEach(k -> conf.set(k, settings.get(k))); // validated by the source when it reads
      assertThat(TestTables.orderByPartition(TestTables.corgipile().load(table), "id"))
          .isEqualTo(plain);
    } finally {
      source.forEach(conf::unset);
    }
    // the one other active setting: a Spark setting of the application, not of a session
    assertThat(settings.keySet()).containsAll(source).hasSize(source.size() + 1);
    assertThat(settings).containsEntry("spark.ui.showConsoleProgress", "false");
  }
}
