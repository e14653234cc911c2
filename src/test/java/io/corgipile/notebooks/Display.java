package io.corgipile.notebooks;

import io.github.spencerpark.jupyter.kernel.BaseKernel;

/**
 * {@code display(Object)} for notebook cells, as IJava has it: shows an object in the cell's output
 * the richest way the kernel's renderer knows ({@code image/png} for a {@code BufferedImage}, such as
 * an XChart chart from {@code BitmapEncoder.getBufferedImage(chart)}; else its text).
 */
public final class Display {
  private static volatile BaseKernel kernel;

  private Display() {}

  static void attach(BaseKernel running) {
    kernel = running;
  }

  public static void display(Object value) {
    BaseKernel running = kernel;
    if (running == null) {
      throw new IllegalStateException("Cannot display " + value + ": no Jupyter kernel runs in this JVM");
    }
    running.display(running.getRenderer().render(value));
  }
}
