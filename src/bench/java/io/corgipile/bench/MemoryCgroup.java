package io.corgipile.bench;

import io.corgipile.options.CommandLine.Arguments;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A memory cgroup for {@code --memory-limit}: the benchmark's JVM runs in it from its start, so the
 * limit covers its heap, its native memory and the page cache of every file it reads or writes (the
 * table, Spark's shuffle and spill files in {@code spark.local.dir}): a kernel charges a page of
 * page cache to the cgroup of the process that brought it in, and reclaims it under the limit. Both
 * cgroup versions are supported: v1 (a hierarchy mounted with the {@code memory} controller; {@code
 * memory.limit_in_bytes}) and v2 (a {@code cgroup2} mount whose {@code cgroup.controllers} lists
 * {@code memory}; {@code memory.max}). Creating one needs root.
 *
 * <p>{@code scripts/lib/env.sh} calls {@code main}: {@code create LIMIT NAME} makes the cgroup and
 * prints its directory; the script then starts the JVM in it and removes it afterwards. The driver
 * reads the cgroup's counters through {@link #current()}.
 */
final class MemoryCgroup {
  enum Version {
    V1,
    V2
  }

  /** Where a memory cgroup hierarchy is mounted. */
  record Hierarchy(Version version, Path mount) {}

  static final String LIMIT_FORMAT =
      "a size in bytes with an optional unit k, m or g (768m, 1g, 1.5g), at least 64m";
  private static final Pattern SIZE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmg]?)(?:i?b)?", Pattern.CASE_INSENSITIVE);
  static final long MIN_LIMIT = 64L << 20;

  final Hierarchy hierarchy;
  final Path dir;

  MemoryCgroup(Hierarchy hierarchy, Path dir) {
    this.hierarchy = hierarchy;
    this.dir = dir;
  }

  /** Parses {@code --memory-limit}; the message names the option and the accepted values. */
  static long parseLimit(String value) {
    return parseBytes("memory-limit", value, MIN_LIMIT, LIMIT_FORMAT);
  }

  /**
   * A count of bytes with an optional binary unit (768m, 1.5g), at least {@code min}, as {@code
   * --memory-limit} and {@code --read-limit} take it; else an error naming the option and {@code
   * format}.
   */
  static long parseBytes(String option, String value, long min, String format) {
    Matcher m = SIZE.matcher(value.trim());
    if (m.matches()) {
      double n = Double.parseDouble(m.group(1));
      long unit =
          switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 1L << 10;
            case "m" -> 1L << 20;
            case "g" -> 1L << 30;
            default -> 1L;
          };
      double bytes = n * unit;
      if (bytes >= min && bytes < Long.MAX_VALUE / 2) {
        return (long) bytes;
      }
    }
    throw Arguments.invalid(option, value, format);
  }

  /**
   * The memory hierarchy among the mounts ({@code /proc/mounts}' text); {@code controllers} reads a
   * v2 mount's {@code cgroup.controllers}. A v1 memory hierarchy wins: where it is mounted, the v2
   * hierarchy cannot have the memory controller.
   */
  static Hierarchy detect(
      String procMounts, java.util.function.Function<Path, String> controllers) {
    List<Path> v2 = new ArrayList<>();
    for (String line : procMounts.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 4) {
        continue;
      }
      Path mount = Path.of(f[1].replace("\\040", " "));
      if (f[2].equals("cgroup") && List.of(f[3].split(",")).contains("memory")) {
        return new Hierarchy(Version.V1, mount);
      }
      if (f[2].equals("cgroup2")) {
        v2.add(mount);
      }
    }
    for (Path mount : v2) {
      String c = controllers.apply(mount.resolve("cgroup.controllers"));
      if (c != null && List.of(c.trim().split("\\s+")).contains("memory")) {
        return new Hierarchy(Version.V2, mount);
      }
    }
    throw new IllegalStateException(
        "Cannot run with --memory-limit: no memory cgroup on this machine (/proc/mounts has neither"
            + " a cgroup v1 hierarchy with the memory controller nor a cgroup2 mount whose"
            + " cgroup.controllers lists memory"
            + (v2.isEmpty() ? "" : "; cgroup2 at " + v2 + " does not")
            + ")");
  }

  static Hierarchy detect() {
    return detect(read(Path.of("/proc/mounts")).orElse(""), p -> read(p).orElse(null));
  }

  /** Makes cgroup {@code name} under the hierarchy's root with the limit, without swap. */
  static MemoryCgroup create(Hierarchy h, String name, long limit) throws IOException {
    if (!name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException(
          "Cannot create memory cgroup '"
              + name
              + "': expected a name of letters, "
              + "digits, '.', '_' and '-'");
    }
    if (!Files.isWritable(h.mount())) {
      throw new IllegalStateException(
          "Cannot run with --memory-limit: "
              + h.mount()
              + " (cgroup "
              + h.version().name().toLowerCase(Locale.ROOT)
              + ") is not writable; it needs root");
    }
    Path dir = h.mount().resolve(name);
    if (h.version() == Version.V2) {
      // the root's children get the memory controller only when the root's subtree_control enables
      // it
      write(h.mount().resolve("cgroup.subtree_control"), "+memory");
    }
    Files.createDirectories(dir);
    if (h.version() == Version.V1) {
      write(dir.resolve("memory.limit_in_bytes"), Long.toString(limit));
      writeIfPresent(
          dir.resolve("memory.memsw.limit_in_bytes"),
          Long.toString(limit)); // no swapping around it
      writeIfPresent(dir.resolve("memory.swappiness"), "0");
    } else {
      write(dir.resolve("memory.max"), Long.toString(limit));
      writeIfPresent(dir.resolve("memory.swap.max"), "0");
    }
    return new MemoryCgroup(h, dir);
  }

  /**
   * The memory cgroup this JVM runs in, when the script started it in one ({@code BENCH_CGROUP} is
   * its directory); checked against {@code /proc/self/cgroup}.
   */
  static Optional<MemoryCgroup> current() {
    String dir = System.getenv("BENCH_CGROUP");
    if (dir == null || dir.isBlank()) {
      return Optional.empty();
    }
    Hierarchy h = detect();
    Path path = Path.of(dir);
    String self = read(Path.of("/proc/self/cgroup")).orElse("");
    String relative = "/" + h.mount().relativize(path);
    if (!memberOf(self, h.version(), relative)) {
      throw new IllegalStateException(
          "Cannot measure under --memory-limit: BENCH_CGROUP is "
              + dir
              + " but /proc/self/cgroup says this JVM is elsewhere: "
              + self.strip().replace('\n', ' '));
    }
    return Optional.of(new MemoryCgroup(h, path));
  }

  /**
   * Whether {@code /proc/self/cgroup}'s text puts the process in {@code relative} of the memory
   * hierarchy.
   */
  static boolean memberOf(String procSelfCgroup, Version version, String relative) {
    for (String line : procSelfCgroup.split("\n")) {
      String[] f = line.trim().split(":", 3);
      if (f.length < 3) {
        continue;
      }
      boolean memoryLine =
          version == Version.V1 ? List.of(f[1].split(",")).contains("memory") : f[0].equals("0");
      if (memoryLine && f[2].equals(relative)) {
        return true;
      }
    }
    return false;
  }

  long limit() {
    return readLong(hierarchy.version() == Version.V1 ? "memory.limit_in_bytes" : "memory.max");
  }

  /**
   * The most memory (page cache included) the cgroup held since {@link #resetPeak()}; -1 if
   * unknown.
   */
  long peakUsage() {
    return readLong(
        hierarchy.version() == Version.V1 ? "memory.max_usage_in_bytes" : "memory.peak");
  }

  /** Times the cgroup hit its limit (v1 {@code memory.failcnt}, v2 the {@code max} events). */
  long limitHits() {
    if (hierarchy.version() == Version.V1) {
      return readLong("memory.failcnt");
    }
    return read(dir.resolve("memory.events")).map(MemoryCgroup::maxEvents).orElse(-1L);
  }

  static long maxEvents(String memoryEvents) {
    for (String line : memoryEvents.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 2 && f[0].equals("max")) {
        return Long.parseLong(f[1]);
      }
    }
    return -1;
  }

  /**
   * Best effort: v1 resets its peak and hit counter when 0 is written; v2 (kernel 6.12+) resets
   * memory.peak.
   */
  void resetPeak() {
    try {
      if (hierarchy.version() == Version.V1) {
        write(dir.resolve("memory.max_usage_in_bytes"), "0");
        write(dir.resolve("memory.failcnt"), "0");
      } else {
        writeIfPresent(dir.resolve("memory.peak"), "reset");
      }
    } catch (IOException e) {
      // the peak then covers the whole run, which the report says
    }
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "cgroup %s %s, memory limit %.0f MiB",
        hierarchy.version().name().toLowerCase(Locale.ROOT),
        dir,
        limit() / (double) (1L << 20));
  }

  private long readLong(String file) {
    return read(dir.resolve(file))
        .map(String::trim)
        .filter(s -> s.matches("\\d+"))
        .map(Long::parseLong)
        .orElse(-1L);
  }

  static Optional<String> read(Path p) {
    try {
      return Optional.of(Files.readString(p, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static void write(Path p, String value) throws IOException {
    Files.writeString(p, value, StandardCharsets.US_ASCII);
  }

  private static void writeIfPresent(Path p, String value) throws IOException {
    if (Files.exists(p)) {
      try {
        write(p, value);
      } catch (IOException e) {
        // optional knobs (swap, swappiness) that some kernels refuse
      }
    }
  }

  /**
   * {@code create LIMIT NAME [READ_RATE]}: prints the new cgroup's directory and, with a read rate,
   * the directory of the {@link ReadLimit} cgroup to join as well where it is another (cgroup v1),
   * one a line; exit 2 with the reason otherwise.
   */
  public static void main(String[] argv) {
    try {
      if (argv.length < 3 || argv.length > 4 || !argv[0].equals("create")) {
        throw new IllegalArgumentException(
            "Cannot run MemoryCgroup: expected arguments 'create LIMIT NAME " + "[READ_RATE]'");
      }
      long limit = parseLimit(argv[1]);
      long readRate = argv.length == 4 ? ReadLimit.parseRate(argv[3]) : 0;
      MemoryCgroup c = create(detect(), argv[2], limit);
      System.out.println(c.dir);
      if (readRate > 0) {
        try {
          ReadLimit.apply(
                  c,
                  argv[2],
                  readRate,
                  ReadLimit.disks(Disks.SYS_BLOCK),
                  read(Path.of("/proc/mounts")).orElse(""))
              .ifPresent(System.out::println);
        } catch (IllegalStateException | IOException e) {
          Files.deleteIfExists(c.dir); // the script removes only cgroups it was told of
          throw e;
        }
      }
    } catch (IllegalArgumentException | IllegalStateException | IOException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }
}
