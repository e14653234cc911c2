package io.corgipile.source;

import io.corgipile.table.TableFormat;
import io.corgipile.table.TablePlanners;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Finds the tables (Delta, Iceberg: {@link TablePlanners#formatOf}) that the paths of a read are,
 * or lie inside: the path itself or the nearest of its parents that is a table's root, as
 * delta-spark's {@code DeltaTableUtils.findDeltaTableRoot} walks up. A path inside a table (a
 * partition folder, a data file) read as plain Parquet would bring back removed files and deleted
 * rows.
 *
 * <p>What it costs: a status call of {@code <folder>/_delta_log} and a listing of {@code
 * <folder>/metadata} (a call that fails where there is none) per distinct folder above the paths,
 * up to the file system's root, shared by all the paths under it; and one per path, except that the
 * paths sharing a parent folder cost one listing of it, then a status call only for those that are
 * folders. A glob is expanded (the listings Spark's reader makes for it later), and each folder it
 * matches is probed, with the folders between it and the glob's literal part. The listings run in
 * parallel, then the status calls. So a load of 10,000 files in one folder costs one listing and
 * one call per level above its files, not one per file.
 */
final class TableRoots {
  /** The characters that make a path a glob, as Spark's {@code SparkHadoopUtil.isGlobPath}. */
  private static final Pattern GLOB = Pattern.compile("[{}\\[\\]*?\\\\]");

  private static final String LOOKING = "looking for Delta and Iceberg tables";

  /** How a path of the read meets the table at {@code root}. */
  enum Meets {
    /** The path is the table's root. */
    ROOT,
    /** The path lies inside the table. */
    INSIDE,
    /** The path is a glob, and some of its matches are the table's root or lie inside it. */
    MATCHES
  }

  /** A path of the read that is a table's root, lies inside one, or is a glob matching one. */
  record Found(String path, String root, Meets meets, TableFormat format) {}

  private TableRoots() {}

  /** The paths that are or lie inside tables, in the order of {@code paths}. */
  static List<Found> of(List<String> paths, Configuration conf) {
    List<Walk> walks = paths.stream().map(s -> Walk.of(s, conf)).toList();
    Set<Path> probe = new LinkedHashSet<>();
    Map<Path, List<Path>> byParent = new LinkedHashMap<>();
    for (Walk w : walks) {
      for (Path q = w.above(); q != null; q = q.getParent()) {
        probe.add(q);
      }
      if (w.root() != null) {
        byParent.computeIfAbsent(w.above(), k -> new ArrayList<>()).add(w.root());
      }
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
    List<List<Path>> matched =
        Parallel.map(walks.size(), LOOKING, i -> walks.get(i).matchedFolders(conf));
    matched.forEach(probe::addAll);
    List<Path> probed = new ArrayList<>(probe);
    List<TableFormat> formats =
        Parallel.map(probed.size(), LOOKING, i -> TablePlanners.formatOf(probed.get(i), conf));
    Map<Path, TableFormat> tables = new HashMap<>();
    for (int i = 0; i < probed.size(); i++) {
      if (formats.get(i) != null) {
        tables.put(probed.get(i), formats.get(i));
      }
    }

    List<Found> found = new ArrayList<>();
    for (int i = 0; i < paths.size(); i++) {
      Walk w = walks.get(i);
      if (w.root() != null && tables.containsKey(w.root())) {
        found.add(new Found(paths.get(i), paths.get(i), Meets.ROOT, tables.get(w.root())));
        continue;
      }
      Path inside = firstTable(w.above(), tables);
      if (inside != null) {
        found.add(new Found(paths.get(i), inside.toString(), Meets.INSIDE, tables.get(inside)));
        continue;
      }
      // each match's folders up to the glob's literal part are listed: one of them is the table
      for (Path folder : matched.get(i)) {
        if (tables.containsKey(folder)) {
          found.add(new Found(paths.get(i), folder.toString(), Meets.MATCHES, tables.get(folder)));
          break;
        }
      }
    }
    return found;
  }

  /** The first of {@code from} and its parents that is a table, or null. */
  private static Path firstTable(Path from, Map<Path, TableFormat> tables) {
    for (Path q = from; q != null; q = q.getParent()) {
      if (tables.containsKey(q)) {
        return q;
      }
    }
    return null;
  }

  /**
   * A path's walk up: {@code root} the path itself, which may be a table's root (null for a glob);
   * {@code above} the folder the walk starts from, its parent or the folder above a glob's first
   * component with a wildcard; {@code glob} the glob, or null.
   */
  private record Walk(Path root, Path above, Path glob) {
    static Walk of(String path, Configuration conf) {
      Path p = absolute(new Path(path), conf);
      Path literal = p;
      for (Path q = p; q != null; q = q.getParent()) {
        if (GLOB.matcher(q.getName()).find()) {
          literal = q.getParent();
        }
      }
      return literal == p ? new Walk(p, p.getParent(), null) : new Walk(null, literal, p);
    }

    /**
     * The folders a glob matches, and the folders between each match and {@link #above}: where a
     * table's root may be. Empty for a path that is no glob, or a glob the file system cannot
     * expand (Spark's reader then says why).
     */
    List<Path> matchedFolders(Configuration conf) {
      if (glob == null) {
        return List.of();
      }
      FileStatus[] matches;
      Path stop;
      try {
        FileSystem fs = glob.getFileSystem(conf);
        matches = fs.globStatus(glob);
        stop = fs.makeQualified(above); // as the matches are named
      } catch (IOException e) {
        return List.of();
      }
      Set<Path> folders = new LinkedHashSet<>();
      for (FileStatus m : matches == null ? new FileStatus[0] : matches) {
        Path first = m.isDirectory() ? m.getPath() : m.getPath().getParent();
        for (Path q = first; q != null && !q.equals(stop); q = q.getParent()) {
          folders.add(q);
        }
      }
      return new ArrayList<>(folders);
    }
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
          "Cannot tell whether " + p + " is a table: " + e.getMessage(), e);
    }
  }
}
