package io.corgipile.notebooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.common.Image;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** How the notebook kernel runs cells, without Jupyter: {@link JupyterNotebookIT} runs it under Jupyter. */
class JShellKernelTest {
  private static JShellKernel kernel;

  @BeforeAll
  static void startKernel() throws CellException {
    // surefire starts the test JVM through a manifest-only jar; this property is the real class path
    kernel = new JShellKernel(System.getProperty("surefire.test.class.path"));
  }

  @AfterAll
  static void stopKernel() {
    kernel.onShutdown(false);
  }

  @Test
  void aCellOfSeveralSnippetsGivesTheValueOfItsLastExpression() throws CellException {
    DisplayData result = kernel.eval("int a = 20;\nint twice(int x) { return 2 * x; }\n"
        + "// a comment between snippets\nint b = 1; twice(a) + b");
    assertThat(result.getData(MIMEType.TEXT_PLAIN)).isEqualTo("41");
  }

  @Test
  void declarationsLiveFromOneCellToTheNext() throws CellException {
    assertThat(kernel.eval("String greeting = \"hello\";")).isNull();
    assertThat(kernel.eval("greeting.length()").getData(MIMEType.TEXT_PLAIN)).isEqualTo("5");
  }

  @Test
  void aLastExpressionThatIsAnImageIsShownAsPng() throws CellException {
    DisplayData result = kernel.eval("new java.awt.image.BufferedImage(4, 3, java.awt.image.BufferedImage.TYPE_INT_RGB)");
    assertThat(result.hasDataForType(Image.PNG)).as("image/png output").isTrue();
  }

  @Test
  void anExceptionFailsTheCellNamingItsClassAndStopsTheCell() throws CellException {
    kernel.eval("int reached = 0;");
    assertThatThrownBy(() -> kernel.eval("reached = 1; if (reached > 0) throw new IllegalStateException(\"boom\"); reached = 2;"))
        .isInstanceOf(CellException.class)
        .hasMessage("java.lang.IllegalStateException: boom")
        .satisfies(e -> assertThat(kernel.formatError((CellException) e))
            .first().isEqualTo("java.lang.IllegalStateException: boom"));
    assertThat(kernel.eval("reached").getData(MIMEType.TEXT_PLAIN)).isEqualTo("1");
  }

  @Test
  void codeThatDoesNotCompileFailsTheCellWithTheCompilersMessage() {
    assertThatThrownBy(() -> kernel.eval("int n = noSuchVariable + 1;"))
        .isInstanceOf(CellException.class)
        .hasMessageStartingWith("Cannot compile: cannot find symbol")
        .satisfies(e -> assertThat(kernel.formatError((CellException) e)).contains("int n = noSuchVariable + 1;"));
  }

  @Test
  void incompleteCodeFailsTheCell() {
    assertThatThrownBy(() -> kernel.eval("if (true) {"))
        .isInstanceOf(CellException.class)
        .hasMessage("Cannot run cell: the code is incomplete");
  }

  @Test
  void displayIsAvailableInCells() {
    // no Jupyter connection here, so display itself fails; what matters is that the name resolves
    assertThatThrownBy(() -> kernel.eval("display(\"x\");"))
        .isInstanceOf(CellException.class)
        .hasMessageStartingWith("java.lang.IllegalStateException: Cannot display x: no Jupyter kernel runs");
  }
}
