package io.corgipile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The repository's top-level pages link into the repository by relative paths that the docs site's
 * strict build does not see (they are outside docs/); each must name a file or folder that exists.
 */
class ReadmeLinksTest {
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]+)(#[^)\\s]*)?\\)");

  @ParameterizedTest
  @ValueSource(strings = {"README.md", "CONTRIBUTING.md"})
  void relativeLinksNameExistingFiles(String page) throws IOException {
    Path file = Path.of(page);
    List<String> targets = relativeLinks(Files.readString(file));
    assertThat(targets).as("relative links in %s", page).isNotEmpty();
    for (String target : targets) {
      assertThat(file.resolveSibling(target)).as("the target of a link in %s", page).exists();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"[a](docs/missing.md)", "[a](docs/missing.md#anchor)"})
  void aLinkToAMissingFileIsFound(String text) {
    assertThat(relativeLinks(text))
        .singleElement()
        .satisfies(target -> assertThat(Path.of(target)).doesNotExist());
  }

  private static List<String> relativeLinks(String text) {
    List<String> targets = new ArrayList<>();
    Matcher m = LINK.matcher(text);
    while (m.find()) {
      if (!m.group(1).matches("[a-z]+:.*")) {
        targets.add(m.group(1));
      }
    }
    return targets;
  }
}
