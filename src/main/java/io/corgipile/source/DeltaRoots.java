package io.corgipile.source;

import io.corgipile.table.TablePlanners;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Finds which of the paths of a read are Delta tables: folders that hold a {@code _delta_log}
 * folder.
 *
 * <p>What it costs: one status call of {@code <path>/_delta_log} per path, except that the paths
 * sharing a parent folder cost one listing of it, then a status call only for those that are
 * folders (a file is no table). The listings run in parallel, then the status calls. So a load of
 * 10,000 files in one folder costs one listing, not one call per file.
 */
final class DeltaRoots {
  private static final String LOOKING = "looking for Delta tables";

  private DeltaRoots() {}

  /** The paths that are Delta tables, in the order of {@code paths}. */
  static List<String> of(List<String> paths, Configuration conf) {
    List<Path> given = paths.stream().map(s -> absolute(new Path(s), conf)).toList();
    Set<Path> probe = new LinkedHashSet<>();
    Map<Path, List<Path>> byParent = new LinkedHashMap<>();
    for (Path p : given) {
      byParent.computeIfAbsent(p.getParent(), k -> new ArrayList<>()).add(p);
    }
    List<Map.Entry<Path, List<Path>>> shared = new ArrayList<>();
    for (Map.Entry<Path, List<Path>> e : byParent.entrySet()) {
      if (e.getKey() != null && e.getValue().size() > 1) {
        shared.add(e);
      } else {
        probe.addAll(e.getValue());
      }
    }
    Parallel.map(
            shared.size(),
            LOOKING,
            i -> folders(shared.get(i).getKey(), shared.get(i).getValue(), conf))
        .forEach(probe::addAll);
    List<Path> probed = new ArrayList<>(probe);
    List<Boolean> isTable =
        Parallel.map(probed.size(), LOOKING, i -> TablePlanners.isDeltaTable(probed.get(i), conf));
    Set<Path> tables = new HashSet<>();
    for (int i = 0; i < probed.size(); i++) {
      if (isTable.get(i)) {
        tables.add(probed.get(i));
      }
    }
    List<String> found = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      if (tables.contains(given.get(i))) {
        found.add(paths.get(i));
      }
    }
    return found;
  }

  /**
   * Which of {@code children}, all in {@code parent}, are folders, from one listing of {@code
   * parent}; all of them when it cannot be listed (each one's own probe then says why, or no).
   */
  private static List<Path> folders(Path parent, List<Path> children, Configuration conf) {
    Set<String> folders = new HashSet<>();
    try {
      for (FileStatus status : parent.getFileSystem(conf).listStatus(parent)) {
        if (status.isDirectory()) {
          folders.add(status.getPath().getName());
        }
      }
    } catch (IOException e) {
      return children;
    }
    return children.stream().filter(c -> folders.contains(c.getName())).toList();
  }

  /**
   * {@code p}, resolved against the working folder when relative, as Spark's reader resolves it.
   */
  private static Path absolute(Path p, Configuration conf) {
    if (p.isAbsolute()) {
      return p;
    }
    try {
      return p.getFileSystem(conf).makeQualified(p);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot tell whether " + p + " is a Delta table: " + e.getMessage(), e);
    }
  }
}
