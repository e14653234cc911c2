package io.corgipile.cli;

import io.corgipile.spark.ParquetConversion;
import io.corgipile.table.TablePlanners;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.types.StructType;

/**
 * What {@link Train} checks before it starts Spark, which on a cluster takes from seconds to
 * minutes: the input and test data exist, the input has the label and feature columns the arguments
 * name, and the model and metrics may be written. The input's columns are those of its first data
 * file (the one Spark's schema inference reads) and of its {@code key=value} partition folders;
 * files and folders whose names start with {@code _} or {@code .} are skipped, as Spark skips them.
 * A table's (Delta, Iceberg) columns are not checked here: its files are not its columns (files
 * later versions removed, older schemas, physical names under column mapping). The job checks the
 * columns again on Spark's schema, which settles every case this cannot.
 */
final class Preflight {
  private Preflight() {}

  /**
   * @throws UsageException naming the argument that cannot be used
   * @throws IOException when a file system cannot be asked
   */
  static void check(TrainArguments args, Configuration conf) throws IOException {
    if (TablePlanners.formatOf(new Path(args.input()), conf) == null) {
      inputColumns(args.input(), conf).check(args.label(), args.features());
    }
    if (args.test() != null) {
      matches("test", args.test(), conf);
    }
    OutputPath.Outputs.of(args, conf).checkWritable();
  }

  private static InputColumns inputColumns(String input, Configuration conf) throws IOException {
    FileSystem fs = new Path(input).getFileSystem(conf);
    Optional<DataFile> first = firstDataFile(fs, matches("input", input, conf), List.of());
    if (first.isEmpty()) {
      throw new UsageException(
          "Cannot use --input "
              + input
              + ": it holds no data files (names that start with"
              + " '_' or '.' are skipped)");
    }
    Path file = first.get().status().getPath();
    StructType schema;
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromStatus(first.get().status(), conf))) {
      schema = ParquetConversion.sparkSchemaOf(file, reader.getFooter());
    } catch (RuntimeException | IOException e) {
      throw new UsageException(
          "Cannot use --input "
              + input
              + ": "
              + file
              + " is no Parquet file Spark can read ("
              + e.getMessage()
              + ")");
    }
    return InputColumns.of(input, schema, first.get().partitionColumns());
  }

  /** The files and folders {@code location} names, a glob pattern as Spark takes it. */
  private static List<FileStatus> matches(String argument, String location, Configuration conf)
      throws IOException {
    Path pattern = new Path(location);
    FileStatus[] matched = pattern.getFileSystem(conf).globStatus(pattern);
    if (matched == null || matched.length == 0) {
      throw new UsageException(
          "Cannot use --" + argument + " " + location + ": no such file or folder");
    }
    return sorted(matched);
  }

  private record DataFile(FileStatus status, List<String> partitionColumns) {}

  private static Optional<DataFile> firstDataFile(
      FileSystem fs, List<FileStatus> statuses, List<String> partitions) throws IOException {
    for (FileStatus status : statuses) {
      String name = status.getPath().getName();
      if (skipped(name)) {
        continue;
      }
      if (status.isFile()) {
        return Optional.of(new DataFile(status, partitions));
      }
      List<String> inside = new ArrayList<>(partitions);
      if (name.contains("=")) {
        inside.add(name.substring(0, name.indexOf('=')));
      }
      Optional<DataFile> found = firstDataFile(fs, sorted(fs.listStatus(status.getPath())), inside);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /**
   * Spark's rule for names that are no data: {@code _SUCCESS}, {@code .crc} files, but {@code _x=1}
   * folders count.
   */
  private static boolean skipped(String name) {
    return name.startsWith(".") || (name.startsWith("_") && !name.contains("="));
  }

  private static List<FileStatus> sorted(FileStatus[] statuses) {
    return Arrays.stream(statuses)
        .sorted(Comparator.comparing(s -> s.getPath().getName()))
        .toList();
  }
}
