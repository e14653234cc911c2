package io.corgipile.notebooks;

import java.lang.reflect.Method;
import java.util.Map;
import jdk.jshell.execution.DirectExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * Runs snippets in the kernel's own JVM and thread, and keeps the object a snippet returned (JShell
 * itself only keeps its string form), so a cell's last value can be rendered, an image as an image.
 * The calling thread also makes Spark's thread-local job properties live from one cell to the next,
 * as in a plain Java program.
 */
final class ValueKeepingExecutionControl extends DirectExecutionControl {
  private Object lastValue;

  /** What the last snippet run returned: the value of an expression, null for other snippets. */
  Object lastValue() {
    return lastValue;
  }

  @Override
  protected String invoke(Method doitMethod) throws Exception {
    lastValue = null;
    // Spark and other libraries load user classes (a lambda in a Spark closure) through the context
    // class loader; snippet classes are only visible from the loader that defined them.
    Thread.currentThread().setContextClassLoader(doitMethod.getDeclaringClass().getClassLoader());
    lastValue = doitMethod.invoke(null);
    return valueString(lastValue);
  }

  /** Gives JShell this control and lets the kernel read values from it. */
  static final class Provider implements ExecutionControlProvider {
    private final ValueKeepingExecutionControl control = new ValueKeepingExecutionControl();

    ValueKeepingExecutionControl control() {
      return control;
    }

    @Override
    public String name() {
      return "value-keeping-local";
    }

    @Override
    public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
      return control;
    }
  }
}
