package io.corgipile.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Delta's classes are named only in {@code io.corgipile.table.delta}, so that Delta Kernel stays
 * optional: every other class loads without it.
 */
class DeltaBoundaryTest {
  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final Path DELTA = SOURCES.resolve(Path.of("io", "corgipile", "table", "delta"));

  @Test
  void onlyTheDeltaPackageNamesDeltasClasses() throws IOException {
    assertThat(DELTA).as("run from the project directory").isDirectory();
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        if (file.startsWith(DELTA)) {
          continue;
        }
        String[] lines = Files.readString(file).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          if (lines[i].matches("\\s*import (static )?io\\.delta\\..*")
              || lines[i].matches(".*\\bio\\.delta\\.[a-z]+\\.[A-Z].*")
                  && !lines[i].contains("\"")) {
            found.add(file + ":" + (i + 1) + ": " + lines[i].trim());
          }
        }
      }
    }
    assertThat(found).as("Delta classes outside %s", DELTA).isEmpty();
  }
}
