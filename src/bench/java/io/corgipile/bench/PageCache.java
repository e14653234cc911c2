package io.corgipile.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The operating system's page cache: dropped for --cold, a table's files evicted for
 * --memory-limit.
 */
final class PageCache {
  private PageCache() {}

  /**
   * Drops the operating system's page cache, so the next scan reads from disk as it would for a
   * table larger than memory. Needs root on Linux.
   */
  static void drop() {
    try {
      run(List.of("sync"));
      Files.write(Paths.get("/proc/sys/vm/drop_caches"), "1\n".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot drop the page cache for --cold (it needs root on Linux): " + e, e);
    }
  }

  /**
   * Evicts the cached pages of the regular files under {@code roots} (their dirty pages written
   * first), whichever cgroup they are charged to: {@code dd iflag=nocache count=0} asks the kernel
   * to drop a whole file's pages (posix_fadvise DONTNEED). Only these files: other processes' cache
   * stays.
   */
  static void evict(List<Path> roots) {
    List<Path> files = files(roots);
    if (files.isEmpty()) {
      return;
    }
    run(List.of("sync"));
    for (Path f : files) {
      run(List.of("dd", "if=" + f, "iflag=nocache", "count=0", "status=none"));
    }
  }

  /**
   * The bytes of the files under {@code roots} now in the page cache (util-linux fincore), or -1
   * without it.
   */
  static long residentBytes(List<Path> roots) {
    List<Path> files = files(roots);
    if (files.isEmpty()) {
      return 0;
    }
    List<String> cmd =
        new ArrayList<>(List.of("fincore", "--bytes", "--noheadings", "--raw", "--output", "RES"));
    files.forEach(f -> cmd.add(f.toString()));
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      if (p.waitFor() != 0) {
        return -1;
      }
      return out.lines()
          .map(String::trim)
          .filter(s -> s.matches("\\d+"))
          .mapToLong(Long::parseLong)
          .sum();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  static List<Path> files(List<Path> roots) {
    List<Path> files = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.exists(root)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(root)) {
        walk.filter(Files::isRegularFile).sorted().forEach(files::add);
      } catch (IOException e) {
        throw new IllegalStateException(
            "Cannot list the files of " + root + " to evict them from the page cache", e);
      }
    }
    return files;
  }

  private static void run(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).inheritIO().start();
      if (p.waitFor() != 0) {
        throw new IllegalStateException(
            "Cannot evict from the page cache: " + String.join(" ", command) + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "Cannot evict from the page cache: " + String.join(" ", command) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot evict from the page cache: interrupted", e);
    }
  }
}
