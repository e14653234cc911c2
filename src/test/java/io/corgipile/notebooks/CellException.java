package io.corgipile.notebooks;

import java.util.ArrayList;
import java.util.List;
import jdk.jshell.EvalException;

/**
 * A cell that could not run: it does not compile, is incomplete, uses something undefined, or threw.
 * The kernel reports it to Jupyter as the cell's error, with {@link #traceback()} as the lines shown
 * in the notebook. Its own stack trace, which Jupyter's execute reply carries (and nbconvert prints
 * when a cell fails), is that of the cell's code, not the kernel's.
 */
final class CellException extends Exception {
  private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];

  private final List<String> traceback;

  private CellException(String message, List<String> traceback, StackTraceElement[] frames) {
    super(message);
    this.traceback = List.copyOf(traceback);
    setStackTrace(frames);
  }

  /** The lines Jupyter shows under the error. */
  List<String> traceback() {
    return traceback;
  }

  static CellException incomplete(String source) {
    return new CellException("Cannot run cell: the code is incomplete", List.of("Incomplete code:", source), NO_FRAMES);
  }

  static CellException notCompiled(String source, List<String> diagnostics) {
    List<String> lines = new ArrayList<>(diagnostics);
    lines.add("in:");
    lines.add(source);
    return new CellException("Cannot compile: " + String.join("; ", diagnostics), lines, NO_FRAMES);
  }

  static CellException undefined(String source, List<String> undefined) {
    String message = "Cannot run cell: it uses " + String.join(", ", undefined) + ", which is not defined";
    return new CellException(message, List.of(message, "in:", source), NO_FRAMES);
  }

  /** The snippet threw; names the exception's own class and keeps its causes and stack frames. */
  static CellException thrown(EvalException thrown) {
    List<String> lines = new ArrayList<>();
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      String name = t instanceof EvalException ? ((EvalException) t).getExceptionClassName() : t.getClass().getName();
      lines.add((t == thrown ? "" : "Caused by: ") + name + (t.getMessage() == null ? "" : ": " + t.getMessage()));
      for (StackTraceElement frame : t.getStackTrace()) {
        lines.add("\tat " + frame);
      }
    }
    return new CellException(lines.get(0), lines, thrown.getStackTrace());
  }
}
