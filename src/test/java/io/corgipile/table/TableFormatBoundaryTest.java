package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A table format's classes are named only in its own package ({@code io.corgipile.table.delta},
 * {@code io.corgipile.table.iceberg}), so that its library stays optional: every other class loads
 * without it.
 */
class TableFormatBoundaryTest {
  private static final Path SOURCES = Path.of("src", "main", "java");

  @ParameterizedTest
  @CsvSource({"delta, io.delta", "iceberg, org.apache.iceberg"})
  void onlyTheFormatsPackageNamesItsClasses(String subpackage, String library) throws IOException {
    Path own = SOURCES.resolve(Path.of("io", "corgipile", "table", subpackage));
    assertThat(own).as("run from the project directory").isDirectory();
    String prefix = library.replace(".", "\\.") + "\\.";
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        if (file.startsWith(own)) {
          continue;
        }
        String[] lines = Files.readString(file).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          if (lines[i].matches("\\s*import (static )?" + prefix + ".*")
              || lines[i].matches(".*\\b" + prefix + "([a-z]+\\.)*[A-Z].*")
                  && !lines[i].contains("\"")) {
            found.add(file + ":" + (i + 1) + ": " + lines[i].trim());
          }
        }
      }
    }
    assertThat(found).as("%s classes outside %s", library, own).isEmpty();
  }
}
