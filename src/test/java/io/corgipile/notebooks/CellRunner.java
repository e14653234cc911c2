package io.corgipile.notebooks;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import jdk.jshell.DeclarationSnippet;
import jdk.jshell.EvalException;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.CompletionInfo;
import jdk.jshell.UnresolvedReferenceException;

/**
 * Runs notebook cells of Java code with JShell, in this JVM: a cell is split into snippets
 * (statements, declarations, expressions) that run one after the other, and stops at the first that
 * fails.
 */
final class CellRunner implements AutoCloseable {
  private final ValueKeepingExecutionControl control;
  private final JShell shell;

  /** A JShell that compiles against {@code classPath}, which must be this JVM's own class path. */
  CellRunner(String classPath) {
    ValueKeepingExecutionControl.Provider provider = new ValueKeepingExecutionControl.Provider();
    this.control = provider.control();
    this.shell = JShell.builder().executionEngine(provider, null).build();
    shell.addToClasspath(classPath);
  }

  /**
   * Runs every snippet of {@code cell}; returns the value of the last one when it is an expression
   * (null otherwise). Output goes to {@code System.out} and {@code System.err}.
   */
  Object run(String cell) throws CellException {
    SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
    Object value = null;
    String remaining = cell;
    while (true) {
      CompletionInfo next = analysis.analyzeCompletion(remaining);
      switch (next.completeness()) {
        case EMPTY:
          return value;
        case DEFINITELY_INCOMPLETE:
        case CONSIDERED_INCOMPLETE:
          throw CellException.incomplete(remaining.strip());
        default: // complete, or unknown: JShell compiles it and reports what is wrong
          value = runSnippet(next.source());
          remaining = next.remaining();
      }
    }
  }

  private Object runSnippet(String source) throws CellException {
    Object value = null;
    for (SnippetEvent event : shell.eval(source)) {
      if (event.causeSnippet() != null) {
        continue; // another snippet updated because this one (re)defined something it uses
      }
      JShellException thrown = event.exception();
      if (thrown instanceof EvalException) {
        throw CellException.thrown((EvalException) thrown);
      }
      if (thrown instanceof UnresolvedReferenceException) {
        DeclarationSnippet declaration = ((UnresolvedReferenceException) thrown).getSnippet();
        throw CellException.undefined(source.strip(),
            shell.unresolvedDependencies(declaration).collect(Collectors.toList()));
      }
      if (event.status() == Snippet.Status.REJECTED) {
        throw CellException.notCompiled(source.strip(), diagnostics(event.snippet()));
      }
      value = isExpression(event.snippet()) ? control.lastValue() : null;
    }
    return value;
  }

  private List<String> diagnostics(Snippet snippet) {
    return shell.diagnostics(snippet).map(diag -> diag.getMessage(Locale.ROOT)).collect(Collectors.toList());
  }

  private static boolean isExpression(Snippet snippet) {
    return snippet.kind() == Snippet.Kind.EXPRESSION
        || snippet.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND;
  }

  @Override
  public void close() {
    shell.close();
  }
}
