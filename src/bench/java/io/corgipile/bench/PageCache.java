package io.corgipile.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/** Drops the operating system's page cache, for scans that read from disk (--cold). */
final class PageCache {
  private PageCache() {}

  /**
   * Drops the operating system's page cache, so the next scan reads from disk as it would for a
   * table larger than memory. Needs root on Linux.
   */
  static void drop() {
    try {
      if (new ProcessBuilder("sync").inheritIO().start().waitFor() != 0) {
        throw new IllegalStateException("sync failed");
      }
      Files.write(Paths.get("/proc/sys/vm/drop_caches"), "1\n".getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new IllegalStateException("Cannot drop the page cache for --cold (it needs root on Linux): " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Cannot drop the page cache: interrupted", e);
    }
  }
}
