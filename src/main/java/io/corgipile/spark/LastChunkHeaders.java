package io.corgipile.spark;

import java.io.IOException;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;

/**
 * Checks the page headers of the last column chunk Parquet is about to read of a row group against
 * the file's length. For that chunk only, Parquet's reader allocates whatever a page header claims
 * beyond the chunk's end before it reads it from the file (a workaround for old writers that
 * understated the chunk's size by a page header): a damaged header there asked for up to 2 GiB of a
 * file of a few KB, and exhausted the heap of Parquet's and Spark's readers alike. The other
 * chunks' pages are sliced out of bytes already read, so a damaged size fails there without
 * allocating.
 *
 * <p>It reads only the headers (a few dozen bytes each), at the pages' offsets where the chunk has
 * an offset index, and then also checks each header's size against the index's; walking the chunk
 * from page to page where it has none, as Parquet does.
 */
final class LastChunkHeaders {
  private LastChunkHeaders() {}

  /**
   * Fails naming the column if a page header of row group {@code rowGroup}'s last requested chunk
   * reaches past the file.
   */
  static void check(
      ParquetFileReader file,
      SeekableInputStream stream,
      long fileLength,
      int rowGroup,
      MessageType requested)
      throws IOException {
    BlockMetaData block = file.getRowGroups().get(rowGroup);
    Set<ColumnPath> paths =
        requested.getColumns().stream()
            .map(ColumnDescriptor::getPath)
            .map(ColumnPath::get)
            .collect(Collectors.toSet());
    ColumnChunkMetaData last = null;
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      if (paths.contains(chunk.getPath())) {
        last = chunk;
      }
    }
    if (last == null) {
      return;
    }
    OffsetIndex index = offsetIndex(file, rowGroup, last.getPath());
    long start = last.getStartingPos();
    if (index == null) {
      long end = start + last.getTotalSize();
      for (long at = start; at < end; ) {
        at = checkPage(stream, fileLength, last, at);
      }
      return;
    }
    if (last.hasDictionaryPage()) {
      checkPage(stream, fileLength, last, start);
    }
    for (int page = 0; page < index.getPageCount(); page++) {
      long at = index.getOffset(page);
      long end = checkPage(stream, fileLength, last, at);
      // The offset index gives each page's size with its header; Parquet's reader takes the
      // header's word for it, and for this chunk alone reads on past the page.
      if (end - at != index.getCompressedPageSize(page)) {
        throw new IOException(
            cannot(last)
                + "its page at offset "
                + at
                + " takes "
                + (end - at)
                + " bytes by its header, "
                + index.getCompressedPageSize(page)
                + " by the offset index");
      }
    }
  }

  /** Checks the page whose header starts at {@code at}; returns where the page ends. */
  private static long checkPage(
      SeekableInputStream stream, long fileLength, ColumnChunkMetaData chunk, long at)
      throws IOException {
    if (at < 0 || at >= fileLength) {
      throw new IOException(
          cannot(chunk)
              + "a page starts at offset "
              + at
              + ", outside the file of "
              + fileLength
              + " bytes");
    }
    stream.seek(at);
    PageHeader header = Util.readPageHeader(stream);
    long end = stream.getPos() + header.getCompressed_page_size();
    if (header.getCompressed_page_size() < 0
        || header.getUncompressed_page_size() < 0
        || end > fileLength) {
      throw new IOException(
          cannot(chunk)
              + "the header of its page at offset "
              + at
              + " claims "
              + header.getCompressed_page_size()
              + " bytes, past the end of the file of "
              + fileLength
              + " bytes");
    }
    return end;
  }

  private static OffsetIndex offsetIndex(ParquetFileReader file, int rowGroup, ColumnPath path) {
    try {
      return file.getColumnIndexStore(rowGroup).getOffsetIndex(path);
    } catch (RuntimeException missing) { // Parquet reads the whole chunk page after page then
      return null;
    }
  }

  private static String cannot(ColumnChunkMetaData chunk) {
    return "Cannot read column " + chunk.getPath().toDotString() + ": ";
  }
}
