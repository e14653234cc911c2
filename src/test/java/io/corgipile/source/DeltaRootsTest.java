package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.table.TablePlanners;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paths of a read that are Delta tables, found by probing them for {@code _delta_log}, at a
 * cost that does not grow with the files of a folder.
 */
class DeltaRootsTest {
  /** The local file system under the scheme {@code probes}, counting probes and listings. */
  public static final class ProbeCounting extends RawLocalFileSystem {
    static final AtomicInteger PROBES = new AtomicInteger();
    static final AtomicInteger LISTINGS = new AtomicInteger();

    @Override
    public URI getUri() {
      return URI.create("probes:///");
    }

    @Override
    public String getScheme() {
      return "probes";
    }

    @Override
    public FileStatus getFileStatus(org.apache.hadoop.fs.Path f) throws IOException {
      if (f.getName().equals(TablePlanners.DELTA_LOG)) {
        PROBES.incrementAndGet();
      }
      return super.getFileStatus(f);
    }

    @Override
    public FileStatus[] listStatus(org.apache.hadoop.fs.Path f) throws IOException {
      LISTINGS.incrementAndGet();
      return super.listStatus(f);
    }
  }

  private static final Configuration CONF = new Configuration();

  static {
    CONF.set("fs.probes.impl", ProbeCounting.class.getName());
    CONF.setBoolean("fs.probes.impl.disable.cache", true);
  }

  @TempDir Path dir;

  @BeforeEach
  void resetCounts() {
    ProbeCounting.PROBES.set(0);
    ProbeCounting.LISTINGS.set(0);
  }

  private static String uri(Path p) {
    return "probes:" + p;
  }

  /** A Delta table's layout: a log folder, a partition folder and data files. */
  private Path table() throws IOException {
    Path table = dir.resolve("t");
    Files.createDirectories(table.resolve(TablePlanners.DELTA_LOG));
    Files.createDirectories(table.resolve("part=a"));
    Files.writeString(table.resolve("part=a").resolve("f0.parquet"), "data");
    Files.writeString(table.resolve("f1.parquet"), "data");
    return table;
  }

  @Test
  void manyFilesOfAFolderCostOneListing() throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    List<String> files = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      files.add(uri(Files.writeString(data.resolve("f" + i + ".parquet"), "data")));
    }
    assertThat(DeltaRoots.of(files, CONF)).isEmpty();
    assertThat(ProbeCounting.LISTINGS).hasValue(1);
    assertThat(ProbeCounting.PROBES).hasValue(0);
  }

  @Test
  void aSinglePathIsProbedWithoutListing() throws IOException {
    Path plain = Files.createDirectories(dir.resolve("plain"));
    assertThat(DeltaRoots.of(List.of(uri(plain)), CONF)).isEmpty();
    assertThat(ProbeCounting.LISTINGS).hasValue(0);
    assertThat(ProbeCounting.PROBES).hasValue(1);
  }

  @Test
  void foldersSharingAParentAreEachProbedAfterOneListing() throws IOException {
    Path table = table();
    List<String> paths =
        List.of(
            uri(Files.createDirectories(dir.resolve("a"))),
            uri(table),
            uri(Files.createDirectories(dir.resolve("b"))),
            uri(Files.writeString(dir.resolve("c.parquet"), "data")));
    assertThat(DeltaRoots.of(paths, CONF)).containsExactly(uri(table));
    assertThat(ProbeCounting.LISTINGS).hasValue(1);
    // the three folders; the file is not probed
    assertThat(ProbeCounting.PROBES).hasValue(3);
  }
}
