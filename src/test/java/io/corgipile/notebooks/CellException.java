package io.corgipile.notebooks;

import java.util.ArrayList;
import java.util.List;
import jdk.jshell.EvalException;

/**
 * A cell that could not run: it does not compile, is incomplete, uses something undefined, or threw.
 * The kernel reports it to Jupyter as the cell's error, with {@link #traceback()} as the lines shown.
 */
final class CellException extends Exception {
  private final List<String> traceback;

  private CellException(String message, List<String> traceback) {
    super(message);
    this.traceback = List.copyOf(traceback);
  }

  /** The lines Jupyter shows under the error. */
  List<String> traceback() {
    return traceback;
  }

  static CellException incomplete(String source) {
    return new CellException("Cannot run cell: the code is incomplete", List.of("Incomplete code:", source));
  }

  static CellException notCompiled(String source, List<String> diagnostics) {
    List<String> lines = new ArrayList<>(diagnostics);
    lines.add("in:");
    lines.add(source);
    return new CellException("Cannot compile: " + String.join("; ", diagnostics), lines);
  }

  static CellException undefined(String source, List<String> undefined) {
    String message = "Cannot run cell: it uses " + String.join(", ", undefined) + ", which is not defined";
    return new CellException(message, List.of(message, "in:", source));
  }

  /** The snippet threw; names the exception's own class and keeps its causes and stack frames. */
  static CellException thrown(EvalException thrown) {
    List<String> lines = new ArrayList<>();
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      String name = t instanceof EvalException ? ((EvalException) t).getExceptionClassName() : t.getClass().getName();
      lines.add((t == thrown ? "" : "Caused by: ") + name + ": " + t.getMessage());
      for (StackTraceElement frame : t.getStackTrace()) {
        lines.add("\tat " + frame);
      }
    }
    return new CellException(lines.get(0), lines);
  }
}
