package io.corgipile.source;

import io.corgipile.spark.BlockDecoder;
import io.corgipile.spark.DataFile;
import io.corgipile.spark.ParquetConversion;
import io.corgipile.spark.ScanSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.UserDefinedType;

/**
 * Turns a table's files into blocks on the driver: reads every footer (in parallel), checks each
 * file's schema against the columns the scan reads, drops row groups whose statistics prove that no
 * row passes the pushed filters, and cuts row groups into parts where asked.
 */
final class BlockPlanner {
  /** "PAR1" opens every Parquet file: no column chunk starts before it. */
  private static final long MAGIC_BYTES = 4;

  private static final long[] NO_ROWS = new long[0];

  private BlockPlanner() {}

  /**
   * @param deletedRows the deleted rows' positions (ascending) of the files that have any, by path
   */
  static BlockPlan plan(
      ScanSettings settings,
      List<DataFile> files,
      Map<String, long[]> deletedRows,
      Filter[] filters) {
    Configuration conf = settings.hadoopConf();
    return new BlockPlan(
        files,
        perFile(
            files.size(),
            "footers",
            index ->
                blocksOf(
                    settings,
                    conf,
                    index,
                    files.get(index),
                    deletedRows.getOrDefault(files.get(index).path(), NO_ROWS),
                    filters)));
  }

  /**
   * Cuts the row groups of {@code plan} into parts of at least {@code minRows} consecutive rows,
   * where the pages allow, at the page boundaries of the first column read (from its offset index),
   * so a part reads its own pages only. A row group stays whole when it is too small, when Spark
   * reads the schema with Parquet's record reader, or when a column read has no sound offset index
   * (files written without one, as pyarrow does by default).
   */
  static BlockPlan cut(ScanSettings settings, BlockPlan plan, long minRows) {
    if (BlockDecoder.rowRangesUnsupported(settings).isPresent()) {
      return plan;
    }
    List<List<Block>> byFile = new ArrayList<>();
    for (int i = 0; i < plan.files().size(); i++) {
      byFile.add(new ArrayList<>());
    }
    for (Block b : plan.blocks()) {
      byFile.get(b.file()).add(b);
    }
    Configuration conf = settings.hadoopConf();
    return new BlockPlan(
        plan.files(),
        perFile(
            plan.files().size(),
            "pages",
            index -> partsOf(settings, conf, plan.files().get(index), byFile.get(index), minRows)));
  }

  private static List<Block> partsOf(
      ScanSettings settings, Configuration conf, DataFile file, List<Block> blocks, long minRows) {
    if (blocks.stream().noneMatch(b -> b.rows() > minRows)) {
      return blocks;
    }
    ParquetMetadata footer = footerOf(file, conf);
    StructType requested = settings.requestedFileSchema(footer.getFileMetaData().getSchema());
    List<Block> parts = new ArrayList<>();
    try (ParquetFileReader reader = new ParquetFileReader(conf, new Path(file.path()), footer)) {
      for (Block b : blocks) {
        parts.addAll(
            b.rows() <= minRows
                ? List.of(b)
                : cutAtPages(
                    b,
                    pagesOf(
                        reader,
                        footer.getBlocks().get(b.rowGroup()),
                        requested,
                        settings.caseSensitive()),
                    minRows));
      }
    } catch (IOException e) {
      // The file could not be opened here; the executors will say why when they read it whole.
      return blocks;
    }
    parts.removeIf(b -> b.liveRows() == 0);
    return parts;
  }

  /**
   * The offset index of the first column read, if every column read has one and it is sound; else
   * null, and the row group stays whole (its reader then reports any damage).
   */
  private static OffsetIndex pagesOf(
      ParquetFileReader reader, BlockMetaData group, StructType requested, boolean caseSensitive) {
    List<ColumnChunkMetaData> columns = new ArrayList<>();
    for (ColumnChunkMetaData c : group.getColumns()) {
      if (find(requested, c.getPath().toArray()[0], caseSensitive) != null) {
        columns.add(c);
      }
    }
    if (columns.isEmpty() || columns.stream().anyMatch(c -> c.getOffsetIndexReference() == null)) {
      return null;
    }
    try {
      OffsetIndex pages = reader.readOffsetIndex(columns.get(0));
      if (pages == null || pages.getPageCount() < 1 || pages.getFirstRowIndex(0) != 0) {
        return null;
      }
      for (int page = 1; page < pages.getPageCount(); page++) {
        long first = pages.getFirstRowIndex(page);
        if (first <= pages.getFirstRowIndex(page - 1) || first >= group.getRowCount()) {
          return null;
        }
      }
      return pages;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The parts of a row group cut at the first page boundary at least {@code minRows} past the last
   * cut, leaving at least half that to the last part; the whole row group without {@code pages}.
   */
  static List<Block> cutAtPages(Block group, OffsetIndex pages, long minRows) {
    if (pages == null) {
      return List.of(group);
    }
    List<Block> parts = new ArrayList<>();
    long start = 0;
    for (int page = 1; page < pages.getPageCount(); page++) {
      long boundary = pages.getFirstRowIndex(page);
      if (boundary - start >= minRows && group.rows() - boundary >= (minRows + 1) / 2) {
        parts.add(group.part(start, boundary));
        start = boundary;
      }
    }
    parts.add(start == 0 ? group : group.part(start, group.rows()));
    return parts;
  }

  /** Runs {@code work} for each file index in parallel; the blocks in file order. */
  private static List<Block> perFile(int files, String what, IntFunction<List<Block>> work) {
    List<Block> blocks = new ArrayList<>();
    Parallel.map(files, "reading Parquet " + what, work).forEach(blocks::addAll);
    return blocks;
  }

  /** Reads a file's footer, naming the file in any error. */
  static ParquetMetadata readFooter(HadoopInputFile input) {
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      return reader.getFooter();
    } catch (IOException | RuntimeException e) {
      throw footerError(input.getPath(), e);
    }
  }

  /**
   * Reads a file's footer to plan from, rejecting row groups that Spark's reader would skip without
   * a word. Planning alone checks: the readers hold each file to its planned length and time.
   */
  private static ParquetMetadata readPlannedFooter(HadoopInputFile input) {
    ParquetMetadata footer = readFooter(input);
    List<BlockMetaData> asSparkReads;
    try {
      asSparkReads = footer.getBlocks().isEmpty() ? List.of() : rowGroupsAsSparkReads(input);
    } catch (IOException | RuntimeException e) {
      throw footerError(input.getPath(), e);
    }
    checkSameRowGroups(input, footer, asSparkReads);
    return footer;
  }

  private static CorgiPileReadException footerError(Object path, Exception e) {
    return new CorgiPileReadException(
        "Cannot read Parquet footer of " + path + ": " + message(e), e);
  }

  /**
   * The row groups Spark's reader reads of the whole file: parquet-mr's filter of a split keeps
   * those whose midpoint, by the row group's own offset and total size in the footer, lies in the
   * split. A damaged offset or size drops the row group.
   */
  private static List<BlockMetaData> rowGroupsAsSparkReads(HadoopInputFile input)
      throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            input,
            HadoopReadOptions.builder(input.getConfiguration(), input.getPath())
                .withRange(0, input.getLength())
                .build())) {
      return reader.getFooter().getBlocks();
    }
  }

  /**
   * Rejects a footer whose row groups Spark's reader would not all read: for the first it skips, by
   * the reason {@link #checkRowGroupInFile} finds, else because its offset or total size in the
   * footer (fields apart from its column chunks') puts its midpoint outside the file.
   */
  private static void checkSameRowGroups(
      HadoopInputFile input, ParquetMetadata footer, List<BlockMetaData> kept) {
    List<BlockMetaData> all = footer.getBlocks();
    if (kept.size() == all.size()) {
      return;
    }
    Set<Long> keptStarts = new HashSet<>();
    kept.forEach(b -> keptStarts.add(b.getStartingPos()));
    int rg = 0;
    while (rg < all.size()
        && (all.get(rg).getRowCount() == 0 || keptStarts.contains(all.get(rg).getStartingPos()))) {
      rg++;
    }
    if (rg == all.size()) {
      return; // Spark skips only row groups without rows
    }
    String path = input.getPath().toString();
    BlockMetaData skipped = all.get(rg);
    checkRowGroupInFile(path, input.getLength(), footer.getFileMetaData().getSchema(), rg, skipped);
    throw rowGroupError(
        path,
        rg,
        "(offset "
            + skipped.getStartingPos()
            + ", "
            + skipped.getRowCount()
            + " rows) has a file offset or total size in the footer that places it outside the"
            + " file, so Spark's reader would skip it; the file is corrupt");
  }

  /** The file as it was listed: the version whose footer the plan is made from. */
  static FooterCache.Key footerKey(DataFile file) {
    return new FooterCache.Key(file.path(), file.length(), file.modificationTime());
  }

  /** The footer of the file as listed, from the cache or read. */
  private static ParquetMetadata footerOf(DataFile file, Configuration conf) {
    return FooterCache.JVM.footer(
        footerKey(file),
        () -> {
          try {
            return readPlannedFooter(HadoopInputFile.fromPath(new Path(file.path()), conf));
          } catch (IOException e) {
            throw footerError(file.path(), e);
          }
        });
  }

  /**
   * The row groups of a file that statistics leave and deletes leave rows in, each with its deleted
   * rows ({@code deleted}: positions in the file, counted over all its row groups).
   */
  private static List<Block> blocksOf(
      ScanSettings settings,
      Configuration conf,
      int index,
      DataFile file,
      long[] deleted,
      Filter[] filters) {
    ParquetMetadata footer = footerOf(file, conf);
    StructType fileSchema;
    try {
      fileSchema = ParquetConversion.sparkSchemaOf(settings, footer.getFileMetaData().getSchema());
    } catch (RuntimeException e) {
      throw new CorgiPileReadException(
          "Cannot read schema of Parquet file " + file.path() + ": " + message(e), e);
    }
    StructType requested;
    try {
      requested = settings.requestedFileSchema(footer.getFileMetaData().getSchema());
    } catch (IllegalArgumentException e) {
      throw new CorgiPileReadException(
          "Cannot read Parquet file " + file.path() + ": " + e.getMessage(), e);
    }
    checkCompatible(file.path(), settings, requested, fileSchema);

    List<BlockMetaData> all = footer.getBlocks();
    Set<BlockMetaData> kept = Collections.newSetFromMap(new IdentityHashMap<>());
    Optional<FilterPredicate> predicate =
        ParquetConversion.parquetPredicate(settings, footer.getFileMetaData(), requested, filters);
    kept.addAll(
        predicate.isPresent()
            ? RowGroupFilter.filterRowGroups(
                FilterCompat.get(predicate.get()), all, footer.getFileMetaData().getSchema())
            : all);
    List<Block> blocks = new ArrayList<>();
    long firstRow = 0;
    for (int rg = 0; rg < all.size(); rg++) {
      BlockMetaData b = all.get(rg);
      DeletedRows deletedHere = DeletedRows.in(deleted, firstRow, firstRow + b.getRowCount());
      firstRow += Math.max(0, b.getRowCount());
      checkRowGroupInFile(file.path(), file.length(), footer.getFileMetaData().getSchema(), rg, b);
      if (b.getRowCount() > deletedHere.count() && kept.contains(b)) {
        blocks.add(
            Block.rowGroup(
                index,
                rg,
                b.getStartingPos(),
                b.getCompressedSize(),
                b.getTotalByteSize(),
                b.getRowCount(),
                deletedHere));
      }
    }
    return blocks;
  }

  /**
   * Rejects a row group that extends past the end of the file or whose footer has a negative row
   * count (Spark's reader then returns no rows of the file at all), a row count other than a flat
   * column's value count, or puts a column chunk outside the file. Parquet's reader allocates a
   * chunk's footer length before reading it, so a damaged length would cost that much memory; a
   * negative one (which the row group's sum of lengths can hide) breaks it. A dictionary offset
   * before the file's first byte makes Spark's reader skip the row group silently, as its midpoint
   * then lies outside the file.
   */
  private static void checkRowGroupInFile(
      String path, long length, MessageType schema, int rg, BlockMetaData b) {
    if (b.getStartingPos() + b.getCompressedSize() > length) {
      // parquet-mr would silently skip such a row group (its midpoint lies outside the file).
      throw rowGroupError(
          path,
          rg,
          "(offset "
              + b.getStartingPos()
              + ", "
              + b.getCompressedSize()
              + " bytes, "
              + b.getRowCount()
              + " rows) extends past the end of the file ("
              + length
              + " bytes); the file is truncated "
              + "or corrupt");
    }
    if (b.getRowCount() < 0) {
      throw rowGroupError(
          path, rg, "has a negative row count (" + b.getRowCount() + "); the file is corrupt");
    }
    if (b.getRowCount() == 0) {
      return; // nothing is read from it: some writers leave its offsets at 0
    }
    for (ColumnChunkMetaData c : b.getColumns()) {
      if (schema.getColumnDescription(c.getPath().toArray()).getMaxRepetitionLevel() == 0
          && c.getValueCount() != b.getRowCount()) {
        // A column that repeats nothing holds one value (or null) per row: Spark's reader would
        // decode as many rows as the damaged count says, from whatever bytes follow.
        throw rowGroupError(
            path,
            rg,
            "has "
                + b.getRowCount()
                + " rows but column "
                + c.getPath().toDotString()
                + " has "
                + c.getValueCount()
                + " values; the file is corrupt");
      }
      long start = c.getStartingPos();
      long size = c.getTotalSize();
      long dictionary = c.getDictionaryPageOffset(); // 0 when the footer sets none
      if (start < MAGIC_BYTES
          || size < 0
          || start > length - size
          || dictionary != 0 && (dictionary < MAGIC_BYTES || dictionary >= length)) {
        throw new CorgiPileReadException(
            "Cannot read Parquet file "
                + path
                + ": column "
                + c.getPath().toDotString()
                + " of row group "
                + rg
                + " (offset "
                + start
                + ", dictionary offset "
                + dictionary
                + ", "
                + size
                + " bytes) lies outside the file ("
                + length
                + " bytes); the file is truncated or corrupt");
      }
    }
  }

  /** The error naming row group {@code rg} of the file at {@code path}, then {@code problem}. */
  private static CorgiPileReadException rowGroupError(String path, int rg, String problem) {
    return new CorgiPileReadException(
        "Cannot read Parquet file " + path + ": row group " + rg + " " + problem);
  }

  /**
   * Rejects a file whose columns, {@code stored} as the file names them, cannot be read as the
   * table's types. Types of one family (numbers, date-times) are left to Spark's reader, which
   * widens some and rejects others with its own message.
   */
  static void checkCompatible(
      String path, ScanSettings settings, StructType stored, StructType file) {
    StructType table = settings.requestedDataSchema();
    for (int i = 0; i < table.size(); i++) {
      StructField wanted = stored.fields()[i];
      StructField present = find(file, wanted.name(), settings.caseSensitive());
      if (present != null
          && !compatible(wanted.dataType(), present.dataType(), settings.caseSensitive())) {
        String column = table.fields()[i].name();
        throw new CorgiPileReadException(
            "Cannot read Parquet file "
                + path
                + ": column "
                + (column.equals(wanted.name()) ? column : column + " (" + wanted.name() + ")")
                + " is "
                + present.dataType().simpleString()
                + " in this file but "
                + table.fields()[i].dataType().simpleString()
                + " in the table schema"
                + " (files with conflicting schemas cannot be read together)");
      }
    }
  }

  /**
   * Whether a file's type can be left to Spark's reader for a table type: same shape, same
   * families.
   */
  private static boolean compatible(DataType table, DataType file, boolean caseSensitive) {
    if (table instanceof UserDefinedType) {
      return compatible(((UserDefinedType<?>) table).sqlType(), file, caseSensitive);
    }
    if (table instanceof StructType && file instanceof StructType) {
      for (StructField f : ((StructType) table).fields()) {
        StructField g = find((StructType) file, f.name(), caseSensitive);
        if (g != null && !compatible(f.dataType(), g.dataType(), caseSensitive)) {
          return false;
        }
      }
      return true;
    }
    if (table instanceof ArrayType && file instanceof ArrayType) {
      return compatible(
          ((ArrayType) table).elementType(), ((ArrayType) file).elementType(), caseSensitive);
    }
    if (table instanceof MapType && file instanceof MapType) {
      return compatible(((MapType) table).keyType(), ((MapType) file).keyType(), caseSensitive)
          && compatible(((MapType) table).valueType(), ((MapType) file).valueType(), caseSensitive);
    }
    return family(table).equals(family(file));
  }

  private static String family(DataType t) {
    if (t instanceof NumericType) {
      return "number";
    }
    if (t instanceof DateType || t instanceof TimestampType || t instanceof TimestampNTZType) {
      return "datetime";
    }
    if (t instanceof StringType || t instanceof BinaryType || t instanceof BooleanType) {
      return t.typeName();
    }
    return t.getClass().getName();
  }

  private static StructField find(StructType schema, String name, boolean caseSensitive) {
    for (StructField f : schema.fields()) {
      if (caseSensitive
          ? f.name().equals(name)
          : f.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    return null;
  }

  static String message(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getName() : m;
  }
}
