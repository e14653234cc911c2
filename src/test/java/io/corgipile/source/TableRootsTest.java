package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.table.TableFormat;
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
 * The paths of a read that are tables or lie inside one, found by probing the paths and their
 * parents for {@code _delta_log} and Iceberg's {@code metadata}, at a cost that does not grow with
 * the files of a folder.
 */
class TableRootsTest {
  /**
   * The local file system under the scheme {@code probes}, counting probes for Delta's log, those
   * for Iceberg's metadata (a listing of it), and other listings.
   */
  public static final class ProbeCounting extends RawLocalFileSystem {
    static final AtomicInteger PROBES = new AtomicInteger();
    static final AtomicInteger ICEBERG_PROBES = new AtomicInteger();
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
      (f.getName().equals(TablePlanners.ICEBERG_METADATA) ? ICEBERG_PROBES : LISTINGS)
          .incrementAndGet();
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
    ProbeCounting.ICEBERG_PROBES.set(0);
    ProbeCounting.LISTINGS.set(0);
  }

  private static String uri(Path p) {
    return "probes:" + p;
  }

  /** Folders from {@code p} up to the file system's root, {@code p} included. */
  private static int levels(Path p) {
    int n = 0;
    for (org.apache.hadoop.fs.Path q = new org.apache.hadoop.fs.Path(uri(p));
        q != null;
        q = q.getParent()) {
      n++;
    }
    return n;
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
  void manyFilesOfAFolderCostOneListingAndAProbePerFolderAbove() throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    List<String> files = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      files.add(uri(Files.writeString(data.resolve("f" + i + ".parquet"), "data")));
    }
    assertThat(TableRoots.of(files, CONF)).isEmpty();
    assertThat(ProbeCounting.LISTINGS).hasValue(1);
    assertThat(ProbeCounting.PROBES).hasValue(levels(data));
    assertThat(ProbeCounting.ICEBERG_PROBES).hasValue(levels(data));
  }

  /**
   * An Iceberg table's root holds a {@code metadata} folder of metadata files (and a version hint
   * where Iceberg's Hadoop catalog wrote it); a folder named so without them is no table.
   */
  @Test
  void anIcebergTableIsFoundByItsMetadataFiles() throws IOException {
    Path hadoop = dir.resolve("hadoop");
    Files.createDirectories(hadoop.resolve("metadata"));
    Files.writeString(hadoop.resolve("metadata").resolve("version-hint.text"), "2");
    Files.createDirectories(hadoop.resolve("data"));
    Files.writeString(hadoop.resolve("data").resolve("f0.parquet"), "data");
    Path cataloged = dir.resolve("cataloged");
    Files.createDirectories(cataloged.resolve("metadata"));
    Path metadataFile =
        Files.writeString(cataloged.resolve("metadata").resolve("00001-a.metadata.json"), "{}");
    Path plain = dir.resolve("plain");
    Files.createDirectories(plain.resolve("metadata"));
    Files.writeString(plain.resolve("metadata").resolve("notes.json"), "{}");

    String inside = uri(hadoop.resolve("data").resolve("f0.parquet"));
    assertThat(
            TableRoots.of(
                List.of(uri(hadoop), uri(cataloged), uri(metadataFile), uri(plain), inside), CONF))
        .containsExactly(
            new TableRoots.Found(
                uri(hadoop), uri(hadoop), TableRoots.Meets.ROOT, TableFormat.ICEBERG),
            new TableRoots.Found(
                uri(cataloged), uri(cataloged), TableRoots.Meets.ROOT, TableFormat.ICEBERG),
            new TableRoots.Found(
                uri(metadataFile), uri(metadataFile), TableRoots.Meets.ROOT, TableFormat.ICEBERG),
            new TableRoots.Found(
                inside,
                new org.apache.hadoop.fs.Path(uri(hadoop)).toString(),
                TableRoots.Meets.INSIDE,
                TableFormat.ICEBERG));
  }

  @Test
  void aSinglePathIsProbedWithItsParentsWithoutListing() throws IOException {
    Path plain = Files.createDirectories(dir.resolve("plain"));
    assertThat(TableRoots.of(List.of(uri(plain)), CONF)).isEmpty();
    assertThat(ProbeCounting.LISTINGS).hasValue(0);
    assertThat(ProbeCounting.PROBES).hasValue(levels(plain));
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
    assertThat(TableRoots.of(paths, CONF))
        .containsExactly(
            new TableRoots.Found(uri(table), uri(table), TableRoots.Meets.ROOT, TableFormat.DELTA));
    assertThat(ProbeCounting.LISTINGS).hasValue(1);
    // the folders above and the three folders; the file is not probed
    assertThat(ProbeCounting.PROBES).hasValue(levels(dir) + 3);
  }

  @Test
  void aPathInsideATableNamesTheTablesRoot() throws IOException {
    Path table = table();
    String root = new org.apache.hadoop.fs.Path(uri(table)).toString();
    for (String inside :
        List.of(
            uri(table.resolve("part=a")),
            uri(table.resolve("part=a").resolve("f0.parquet")),
            uri(table.resolve("f1.parquet")),
            uri(table.resolve(TablePlanners.DELTA_LOG)),
            uri(table.resolve("part=*")),
            uri(table) + "/*/f0.parquet")) {
      assertThat(TableRoots.of(List.of(inside), CONF))
          .as(inside)
          .containsExactly(
              new TableRoots.Found(inside, root, TableRoots.Meets.INSIDE, TableFormat.DELTA));
    }
    // two paths in one folder of the table: found through its listing
    String f1 = uri(table.resolve("f1.parquet"));
    String part = uri(table.resolve("part=a"));
    assertThat(TableRoots.of(List.of(f1, part), CONF))
        .containsExactly(
            new TableRoots.Found(f1, root, TableRoots.Meets.INSIDE, TableFormat.DELTA),
            new TableRoots.Found(part, root, TableRoots.Meets.INSIDE, TableFormat.DELTA));
  }

  /**
   * A glob above tables matches their roots, or files inside them: found through its matches, each
   * probed with the folders between it and the glob's literal part.
   */
  @Test
  void aGlobMatchingATableOrFilesInsideOneNamesTheTable() throws IOException {
    Path table = table();
    Files.createDirectories(dir.resolve("plain"));
    String root = new org.apache.hadoop.fs.Path(uri(table)).toString();
    for (String glob :
        List.of(uri(dir) + "/*", uri(dir) + "/{t,plain}", uri(dir) + "/*/part=a/*.parquet")) {
      assertThat(TableRoots.of(List.of(glob), CONF))
          .as(glob)
          .containsExactly(
              new TableRoots.Found(glob, root, TableRoots.Meets.MATCHES, TableFormat.DELTA));
    }
    // a glob without a scheme, on the default file system: its matches come back qualified
    String plainGlob = dir + "/*";
    assertThat(TableRoots.of(List.of(plainGlob), CONF))
        .containsExactly(
            new TableRoots.Found(
                plainGlob, "file:" + table, TableRoots.Meets.MATCHES, TableFormat.DELTA));
    assertThat(TableRoots.of(List.of(uri(dir) + "/p*"), CONF)).isEmpty();
    assertThat(TableRoots.of(List.of(uri(dir) + "/nothing*"), CONF)).isEmpty();
  }

  @Test
  void aRelativePathIsResolvedAgainstTheWorkingFolder() throws IOException {
    Path table = table();
    Path relative = Path.of("").toAbsolutePath().relativize(table.resolve("part=a"));
    assertThat(TableRoots.of(List.of(relative.toString()), CONF))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.meets()).isEqualTo(TableRoots.Meets.INSIDE);
              assertThat(f.format()).isEqualTo(TableFormat.DELTA);
              assertThat(f.root()).isEqualTo("file:" + table);
            });
  }
}
