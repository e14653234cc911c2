package io.corgipile.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The machine's whole disks as {@code /sys/block} lists them (partitions are not there), without
 * loop, RAM and empty devices: what {@link ReadLimit} caps, and whose readahead the reports name,
 * since a random block order reads what the readahead brings in past each block again later.
 */
final class Disks {
  static final Path SYS_BLOCK = Path.of("/sys/block");

  /**
   * One disk.
   *
   * @param dev its {@code MAJOR:MINOR}
   * @param readAheadKb {@code queue/read_ahead_kb}, or -1 if unknown
   */
  record Disk(String name, String dev, long readAheadKb) {}

  private Disks() {}

  static List<Disk> list(Path sysBlock) throws IOException {
    List<Disk> disks = new ArrayList<>();
    try (Stream<Path> devices = Files.list(sysBlock)) {
      for (Path d : devices.sorted().toList()) {
        String name = d.getFileName().toString();
        if (name.startsWith("loop") || name.startsWith("ram") || name.startsWith("zram")) {
          continue;
        }
        Optional<String> dev = MemoryCgroup.read(d.resolve("dev")).map(String::trim);
        Optional<String> size = MemoryCgroup.read(d.resolve("size")).map(String::trim);
        if (dev.isPresent()
            && dev.get().matches("\\d+:\\d+")
            && size.isPresent()
            && !size.get().equals("0")) {
          long readAhead =
              MemoryCgroup.read(d.resolve("queue/read_ahead_kb"))
                  .map(String::trim)
                  .filter(s -> s.matches("\\d+"))
                  .map(Long::parseLong)
                  .orElse(-1L);
          disks.add(new Disk(name, dev.get(), readAhead));
        }
      }
    }
    return disks;
  }

  /** "vda read_ahead_kb 128", for the reports; "disks unknown" where /sys/block cannot be read. */
  static String describeReadAhead(Path sysBlock) {
    try {
      List<Disk> disks = list(sysBlock);
      return disks.isEmpty()
          ? "disks unknown"
          : disks.stream()
              .map(
                  d ->
                      d.name()
                          + " read_ahead_kb "
                          + (d.readAheadKb() < 0 ? "unknown" : d.readAheadKb()))
              .collect(Collectors.joining(", "));
    } catch (IOException e) {
      return "disks unknown";
    }
  }
}
