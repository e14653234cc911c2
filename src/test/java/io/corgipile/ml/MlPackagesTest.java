package io.corgipile.ml;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code io.corgipile.ml} holds the public API (estimators, models, params, summaries, exceptions);
 * the implementation lives in subpackages by subsystem, which depend one way: the lasso and the SGD
 * solver share only {@code common}, and one partition's SGD ({@code sgd}) knows nothing of the
 * driver's rounds ({@code sync}).
 */
class MlPackagesTest {
  private static final Path ML = Path.of("src", "main", "java", "io", "corgipile", "ml");
  private static final Pattern TOP_LEVEL_TYPE =
      Pattern.compile(
          "(?m)^(public )?(?:(?:final|abstract|sealed|non-sealed) )*(?:class|interface|record|enum)"
              + " (\\w+)");
  private static final Pattern IMPORT =
      Pattern.compile("(?m)^import io\\.corgipile\\.ml\\.([a-z]+)\\.");

  /** The subpackages each subpackage must not import. */
  private static final Map<String, List<String>> FORBIDDEN =
      Map.of(
          "common", List.of("sgd", "sync", "compress", "lasso", "param"),
          "compress", List.of("sgd", "sync", "lasso"),
          "sgd", List.of("sync", "lasso"),
          "sync", List.of("lasso"),
          "lasso", List.of("sgd", "sync", "compress"));

  @Test
  void theRootHoldsOnlyPublicTypes() throws IOException {
    List<String> hidden = new ArrayList<>();
    try (Stream<Path> files = Files.list(ML)) {
      for (Path file : files.filter(MlPackagesTest::isType).sorted().toList()) {
        Matcher m = TOP_LEVEL_TYPE.matcher(Files.readString(file));
        assertThat(m.find()).as("a type in %s", file).isTrue();
        if (m.group(1) == null) {
          hidden.add(m.group(2));
        }
      }
    }
    assertThat(hidden)
        .as("implementation types in io.corgipile.ml (move them into a subpackage)")
        .isEmpty();
  }

  @Test
  void subpackagesDependOneWay() throws IOException {
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, List<String>> rule : FORBIDDEN.entrySet()) {
      Path dir = ML.resolve(rule.getKey());
      assertThat(dir).isDirectory();
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
          Matcher m = IMPORT.matcher(Files.readString(file));
          while (m.find()) {
            if (rule.getValue().contains(m.group(1))) {
              found.add(file.getFileName() + " imports io.corgipile.ml." + m.group(1));
            }
          }
        }
      }
    }
    assertThat(found).isEmpty();
  }

  private static boolean isType(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".java") && !name.equals("package-info.java");
  }

  @Test
  void theChecksFindWhatTheyForbid() {
    Matcher type = TOP_LEVEL_TYPE.matcher("package io.corgipile.ml;\n\nfinal class Hidden {}\n");
    assertThat(type.find()).isTrue();
    assertThat(type.group(1)).isNull();
    Matcher imports = IMPORT.matcher("import io.corgipile.ml.lasso.GramCache;\n");
    assertThat(imports.find()).isTrue();
    assertThat(imports.group(1)).isEqualTo("lasso");
  }
}
