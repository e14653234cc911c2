package io.corgipile.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A process's I/O counters from {@code /proc/PID/io} (Linux): {@code rchar} counts every byte read
 * by system calls, page cache hits included; {@code read_bytes} only the bytes the process made the
 * kernel fetch from storage (readahead included, page cache hits not, memory-mapped reads that
 * fault included). A process's counters include its threads and its children that have exited and
 * were waited for; {@link #ofTree} adds the children still running.
 */
record ProcIo(long rchar, long readBytes, long writeBytes) {

  static final ProcIo ZERO = new ProcIo(0, 0, 0);

  /** Parses the text of {@code /proc/PID/io}; {@code source} names it in errors. */
  static ProcIo parse(String text, String source) {
    long rchar = -1;
    long readBytes = -1;
    long writeBytes = -1;
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String key = line.substring(0, colon).trim();
      String value = line.substring(colon + 1).trim();
      try {
        switch (key) {
          case "rchar" -> rchar = Long.parseLong(value);
          case "read_bytes" -> readBytes = Long.parseLong(value);
          case "write_bytes" -> writeBytes = Long.parseLong(value);
          default -> {}
        }
      } catch (NumberFormatException e) {
        throw new IllegalStateException(
            "Cannot read I/O counters from "
                + source
                + ": "
                + key
                + " is '"
                + value
                + "', not a number",
            e);
      }
    }
    if (rchar < 0 || readBytes < 0 || writeBytes < 0) {
      throw new IllegalStateException(
          "Cannot read I/O counters from "
              + source
              + ": expected lines rchar, "
              + "read_bytes and write_bytes (a kernel without task I/O accounting has none), got: "
              + text.strip().replace('\n', ' '));
    }
    return new ProcIo(rchar, readBytes, writeBytes);
  }

  /** Reads the counters of one process. */
  @FunctionalInterface
  interface Reader {
    ProcIo read(long pid) throws IOException;
  }

  /** The counters of one process, from {@code /proc/PID/io}. */
  static ProcIo read(long pid) throws IOException {
    Path file = file(pid);
    return parse(Files.readString(file, StandardCharsets.US_ASCII), file.toString());
  }

  private static Path file(long pid) {
    return Path.of("/proc", Long.toString(pid), "io");
  }

  /**
   * This JVM's counters plus those of its running descendants (exited ones are already in this
   * JVM's once waited for). In local mode Spark's driver and executors are this JVM.
   */
  static ProcIo ofTree() {
    return ofTree(
        ProcessHandle.current().pid(),
        ProcessHandle.current().descendants().map(ProcessHandle::pid).toList(),
        ProcIo::read);
  }

  /**
   * {@code self}'s counters plus those of {@code descendants}. A descendant can end between the
   * listing and the read: its file is then gone ({@code ENOENT}) or refuses the read while the
   * process exits ({@code ESRCH}, "No such process"). Either way its counters go to its parent once
   * it is waited for, so it is left out, whatever the error; only {@code self} must be readable.
   *
   * @throws UncheckedIOException when {@code self}'s counters cannot be read
   */
  static ProcIo ofTree(long self, List<Long> descendants, Reader reader) {
    ProcIo sum;
    try {
      sum = reader.read(self);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot read I/O counters from "
              + file(self)
              + " (Linux only, and the "
              + "process must be yours or you root)",
          e);
    }
    for (long child : descendants) {
      try {
        sum = sum.plus(reader.read(child));
      } catch (IOException e) {
        // it ended between listing and reading
      }
    }
    return sum;
  }

  ProcIo plus(ProcIo o) {
    return new ProcIo(rchar + o.rchar, readBytes + o.readBytes, writeBytes + o.writeBytes);
  }

  ProcIo minus(ProcIo o) {
    return new ProcIo(rchar - o.rchar, readBytes - o.readBytes, writeBytes - o.writeBytes);
  }
}
