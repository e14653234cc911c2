package io.corgipile.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where {@link TrainingJob} writes the model or the metrics, on any Hadoop file system: checked
 * before training, and written whole or not at all (into a hidden sibling, then renamed into
 * place), so a failed or killed job leaves no half-written model where the old one was.
 */
final class OutputPath {
  /** Writes into the path it is given. */
  interface Writer {
    void write(String path) throws IOException;
  }

  private final String what;
  private final Path target;
  private final FileSystem fs;
  private final boolean overwrite;

  OutputPath(Configuration conf, String what, String location, boolean overwrite) {
    this.what = what;
    this.target = new Path(location);
    this.overwrite = overwrite;
    try {
      FileSystem fs = target.getFileSystem(conf);
      // no .crc files beside a local metrics file: they are Hadoop's, not the user's
      this.fs = fs instanceof LocalFileSystem local ? local.getRawFileSystem() : fs;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the " + what + " to " + location + ": " + e.getMessage(), e);
    }
  }

  /**
   * Where the arguments ask for the model and the metrics to be written, each null unless asked
   * for.
   */
  record Outputs(OutputPath model, OutputPath metrics) {
    static Outputs of(TrainArguments args, Configuration conf) {
      return new Outputs(
          args.model() == null
              ? null
              : new OutputPath(conf, "model", args.model(), args.overwrite()),
          args.metrics() == null
              ? null
              : new OutputPath(conf, "metrics", args.metrics(), args.overwrite()));
    }

    /**
     * @throws UsageException when one exists and may not be replaced
     */
    void checkWritable() throws IOException {
      for (OutputPath output : new OutputPath[] {model, metrics}) {
        if (output != null) {
          output.checkWritable();
        }
      }
    }
  }

  /**
   * @throws UsageException when the target exists and may not be replaced
   */
  void checkWritable() throws IOException {
    if (!overwrite && fs.exists(target)) {
      throw new UsageException(
          "Cannot write the "
              + what
              + " to "
              + target
              + ": it exists; pass --overwrite to"
              + " replace it");
    }
  }

  void write(Writer writer) throws IOException {
    Path temporary = sibling("tmp");
    try {
      writer.write(temporary.toString());
      replaceTargetWith(temporary);
    } finally {
      fs.delete(temporary, true); // false, and harmless, once it was renamed
    }
  }

  void writeText(String text) throws IOException {
    write(
        path -> {
          try (OutputStream out = fs.create(new Path(path), false)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
          }
        });
  }

  private void replaceTargetWith(Path temporary) throws IOException {
    checkWritable(); // it may have appeared while training
    Path previous = fs.exists(target) ? sibling("previous") : null;
    if (previous != null) {
      rename(target, previous);
    }
    try {
      rename(temporary, target);
    } catch (IOException e) {
      if (previous != null) {
        fs.rename(previous, target);
      }
      throw e;
    }
    if (previous != null) {
      fs.delete(previous, true);
    }
  }

  private void rename(Path from, Path to) throws IOException {
    if (!fs.rename(from, to)) {
      throw new IOException(
          "Cannot write the "
              + what
              + " to "
              + target
              + ": renaming "
              + from
              + " to "
              + to
              + " failed");
    }
  }

  private Path sibling(String role) {
    return new Path(
        target.getParent(), "." + target.getName() + "." + role + "-" + UUID.randomUUID());
  }
}
