package io.corgipile.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A cap on the bytes per second the benchmark's processes read from each disk, for {@code
 * --read-limit} beside {@code --memory-limit}. Out of the page cache, this machine's disk still
 * delivers a table faster than two cores decode it, so an epoch stays bound by the CPU; a cap makes
 * it bound by storage, as on a slower volume or an object store, where a shuffle's cost is the
 * bytes it reads. The kernel throttles the cgroup's reads, readahead included: cgroup v1 {@code
 * blkio.throttle.read_bps_device} in a cgroup of the blkio hierarchy, v2 {@code io.max}'s {@code
 * rbps} in the memory cgroup itself. Every whole disk of the machine gets the cap (the table,
 * Spark's spill files and the JVM's jars may be on any of them).
 */
final class ReadLimit {
  static final String RATE_FORMAT =
      "bytes per second per disk with an optional unit k, m or g (100m, 1g), at " + "least 1m";
  static final long MIN_RATE = 1L << 20;

  private ReadLimit() {}

  /** Parses {@code --read-limit}; the message names the option and the accepted values. */
  static long parseRate(String value) {
    return MemoryCgroup.parseBytes("read-limit", value, MIN_RATE, RATE_FORMAT);
  }

  /**
   * The {@code MAJOR:MINOR} of every disk {@link Disks} lists: the throttle takes only whole disks.
   */
  static List<String> disks(Path sysBlock) throws IOException {
    List<String> disks = Disks.list(sysBlock).stream().map(Disks.Disk::dev).toList();
    if (disks.isEmpty()) {
      throw new IllegalStateException("Cannot run with --read-limit: no disk under " + sysBlock);
    }
    return disks;
  }

  /**
   * Caps the reads of the processes in {@code memory} at {@code bytesPerSecond} per disk. Returns
   * the directory of the blkio cgroup {@code name} (v1), which they must join too; empty on v2,
   * where the cap is in {@code memory}'s own directory. {@code procMounts}: {@code /proc/mounts}'
   * text.
   */
  static Optional<Path> apply(
      MemoryCgroup memory, String name, long bytesPerSecond, List<String> disks, String procMounts)
      throws IOException {
    if (memory.hierarchy.version() == MemoryCgroup.Version.V2) {
      Path root = memory.hierarchy.mount();
      MemoryCgroup.write(root.resolve("cgroup.subtree_control"), "+io");
      for (String disk : disks) {
        MemoryCgroup.write(
            memory.dir.resolve("io.max"), disk + " rbps=" + bytesPerSecond); // a line a write
      }
      return Optional.empty();
    }
    Path blkio = blkioMount(procMounts);
    Path dir = blkio.resolve(name);
    Files.createDirectories(dir);
    for (String disk : disks) {
      MemoryCgroup.write(
          dir.resolve("blkio.throttle.read_bps_device"), disk + " " + bytesPerSecond);
    }
    return Optional.of(dir);
  }

  /** Where the cgroup v1 blkio hierarchy is mounted, from {@code /proc/mounts}' text. */
  static Path blkioMount(String procMounts) {
    for (String line : procMounts.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[2].equals("cgroup") && List.of(f[3].split(",")).contains("blkio")) {
        return Path.of(f[1].replace("\\040", " "));
      }
    }
    throw new IllegalStateException(
        "Cannot run with --read-limit: the memory cgroup is v1 but /proc/mounts has no "
            + "cgroup v1 hierarchy with the blkio controller");
  }

  /** The cap as the reports say it. */
  static String describe(String rate) {
    return String.format(
        Locale.ROOT,
        "storage reads capped at %.0f MiB/s per disk (--read-limit %s)",
        parseRate(rate) / (double) (1L << 20),
        rate);
  }
}
