package io.corgipile.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * The pages of a row group, checked before Spark's vectorized decoder reads them, so that a damaged
 * page fails its read instead of hanging or exhausting the heap. Spark's decoder of run-length
 * encoded levels loops forever when a page's levels end before its values (it ignores that no run
 * is left, and interrupts), and it allocates a bit-packed run's values before it finds the run's
 * bytes missing, as it allocates a dictionary's entries from the count its page header claims.
 *
 * <p>Every page is checked for sizes the footer allows: a page no larger uncompressed than its
 * whole column chunk, a dictionary no longer than its bytes can hold; and a page of a flat column
 * for a value per row its offset index gives it (its header is not covered by its checksum). The
 * levels and run-encoded values of a page are walked (run headers only, as Spark's decoder reads
 * them) where the page carries no checksum that Parquet verified: a checksum failure already stops
 * a damaged page, and an intact page has nothing to walk for.
 */
final class CheckedPages implements PageReadStore {
  private final PageReadStore pages;
  private final Map<ColumnPath, ColumnChunkMetaData> chunks;
  private final boolean checksumsVerified;

  /**
   * @param pages the pages Parquet read of a row group
   * @param block the row group's footer entry
   * @param checksumsVerified whether Parquet verified the checksums of the pages that carry one
   */
  CheckedPages(PageReadStore pages, BlockMetaData block, boolean checksumsVerified) {
    this.pages = pages;
    this.chunks =
        block.getColumns().stream()
            .collect(
                Collectors.toMap(ColumnChunkMetaData::getPath, Function.identity(), (a, b) -> a));
    this.checksumsVerified = checksumsVerified;
  }

  @Override
  public PageReader getPageReader(ColumnDescriptor descriptor) {
    ColumnChunkMetaData chunk = chunks.get(ColumnPath.get(descriptor.getPath()));
    PageReader reader = pages.getPageReader(descriptor);
    return chunk == null
        ? reader
        : new CheckedReader(reader, descriptor, chunk.getTotalUncompressedSize());
  }

  @Override
  public long getRowCount() {
    return pages.getRowCount();
  }

  @Override
  public Optional<Long> getRowIndexOffset() {
    return pages.getRowIndexOffset();
  }

  @Override
  public Optional<PrimitiveIterator.OfLong> getRowIndexes() {
    return pages.getRowIndexes();
  }

  @Override
  public void close() {
    pages.close();
  }

  /** One column's pages, checked as they are read. */
  private final class CheckedReader implements PageReader {
    private final PageReader reader;
    private final ColumnDescriptor column;
    private final long chunkBytes;
    private int pageIndex;

    CheckedReader(PageReader reader, ColumnDescriptor column, long chunkBytes) {
      this.reader = reader;
      this.column = column;
      this.chunkBytes = chunkBytes;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
      DictionaryPage page = reader.readDictionaryPage();
      if (page != null) {
        checkSize("its dictionary page", page.getUncompressedSize());
        long least = (long) page.getDictionarySize() * leastEntryBytes();
        if (page.getDictionarySize() < 0 || least > page.getUncompressedSize()) {
          throw damaged(
              "its dictionary page claims "
                  + page.getDictionarySize()
                  + " entries, which "
                  + page.getUncompressedSize()
                  + " bytes cannot hold");
        }
      }
      return page;
    }

    @Override
    public long getTotalValueCount() {
      return reader.getTotalValueCount();
    }

    @Override
    public DataPage readPage() {
      DataPage page = reader.readPage();
      if (page == null) {
        return null;
      }
      String name = "its data page " + pageIndex++;
      checkSize(name, page.getUncompressedSize());
      if (page.getValueCount() < 0) {
        throw damaged(name + " claims " + page.getValueCount() + " values");
      }
      // A flat column has a value per row; where a page holds fewer than its offset index gives it
      // rows, Spark's reader leaves the rest of its batch as the previous batch left it.
      Optional<Integer> rows = page.getIndexRowCount();
      if (column.getMaxRepetitionLevel() == 0
          && rows.isPresent()
          && page.getValueCount() != rows.get()) {
        throw damaged(
            name
                + " holds "
                + page.getValueCount()
                + " values for the "
                + rows.get()
                + " rows its offset index gives it");
      }
      if (checksumsVerified && page.getCrc().isPresent()) {
        return page;
      }
      try {
        return page instanceof DataPageV1 v1
            ? walked(name, v1)
            : page instanceof DataPageV2 v2 ? walked(name, v2) : page;
      } catch (IOException e) {
        throw damaged(name + " ends within its levels or values (" + e + ")");
      }
    }

    /**
     * Walks a v1 page (levels and values in one compressed byte stream), returned over its bytes,
     * read once.
     */
    private DataPage walked(String name, DataPageV1 page) throws IOException {
      ByteBuffer bytes = page.getBytes().toByteBuffer();
      ByteBufferInputStream in = ByteBufferInputStream.wrap(bytes.duplicate());
      int values = page.getValueCount();
      walkLevels(
          name,
          "repetition",
          lengthPrefixed(in, column.getMaxRepetitionLevel()),
          column.getMaxRepetitionLevel(),
          values);
      walkLevels(
          name,
          "definition",
          lengthPrefixed(in, column.getMaxDefinitionLevel()),
          column.getMaxDefinitionLevel(),
          values);
      walkValues(name, page.getValueEncoding(), in, values);
      DataPageV1 read =
          page.getFirstRowIndex().isPresent()
              ? new DataPageV1(
                  BytesInput.from(bytes),
                  values,
                  page.getUncompressedSize(),
                  page.getFirstRowIndex().get(),
                  page.getIndexRowCount().orElseThrow(),
                  page.getStatistics(),
                  page.getRlEncoding(),
                  page.getDlEncoding(),
                  page.getValueEncoding())
              : new DataPageV1(
                  BytesInput.from(bytes),
                  values,
                  page.getUncompressedSize(),
                  page.getStatistics(),
                  page.getRlEncoding(),
                  page.getDlEncoding(),
                  page.getValueEncoding());
      page.getCrc().ifPresent(read::setCrc);
      return read;
    }

    /**
     * Walks a v2 page (levels stored apart and never compressed), returned over its values' bytes,
     * read once.
     */
    private DataPage walked(String name, DataPageV2 page) throws IOException {
      int values = page.getValueCount();
      walkLevels(
          name,
          "repetition",
          ByteBufferInputStream.wrap(page.getRepetitionLevels().toByteBuffer()),
          column.getMaxRepetitionLevel(),
          values);
      walkLevels(
          name,
          "definition",
          ByteBufferInputStream.wrap(page.getDefinitionLevels().toByteBuffer()),
          column.getMaxDefinitionLevel(),
          values);
      if (!runEncoded(page.getDataEncoding())) {
        return page;
      }
      ByteBuffer data = page.getData().toByteBuffer();
      walkValues(
          name, page.getDataEncoding(), ByteBufferInputStream.wrap(data.duplicate()), values);
      DataPageV2 read =
          page.getFirstRowIndex().isPresent()
              ? DataPageV2.uncompressed(
                  page.getRowCount(),
                  page.getNullCount(),
                  values,
                  page.getFirstRowIndex().get(),
                  page.getRepetitionLevels(),
                  page.getDefinitionLevels(),
                  page.getDataEncoding(),
                  BytesInput.from(data),
                  page.getStatistics())
              : DataPageV2.uncompressed(
                  page.getRowCount(),
                  page.getNullCount(),
                  values,
                  page.getRepetitionLevels(),
                  page.getDefinitionLevels(),
                  page.getDataEncoding(),
                  BytesInput.from(data),
                  page.getStatistics());
      page.getCrc().ifPresent(read::setCrc);
      return read;
    }

    /** The levels of a v1 page, which a 4-byte length precedes where the column has any. */
    private ByteBufferInputStream lengthPrefixed(ByteBufferInputStream in, int maxLevel)
        throws IOException {
      return maxLevel == 0 ? in : in.sliceStream(BytesUtils.readIntLittleEndian(in));
    }

    /**
     * Levels must last for every value of the page: Spark's decoder loops forever where they do
     * not.
     */
    private void walkLevels(
        String name, String kind, ByteBufferInputStream in, int maxLevel, int values)
        throws IOException {
      if (maxLevel == 0) {
        return;
      }
      long read = walkRuns(name, in, BytesUtils.getWidthFromMaxInt(maxLevel), values, values);
      if (read < values) {
        throw damaged(
            name + "'s " + kind + " levels end after " + read + " of its " + values + " values");
      }
    }

    /**
     * Dictionary indexes and booleans are runs too; their packed runs must not claim more than the
     * page.
     */
    private void walkValues(String name, Encoding encoding, ByteBufferInputStream in, int values)
        throws IOException {
      if (encoding.usesDictionary()) {
        int bitWidth = in.available() > 0 ? in.read() : 0;
        if (bitWidth <= 32) { // wider, and Spark's decoder refuses the page itself
          walkRuns(name, in, bitWidth, -1, values);
        }
      } else if (encoding == Encoding.RLE) {
        walkRuns(name, in.sliceStream(BytesUtils.readIntLittleEndian(in)), 1, -1, values);
      }
    }

    /**
     * Reads the run headers of the RLE / bit-packing hybrid encoding as Spark's decoder does, until
     * {@code wanted} values (or the stream's end where negative), and returns how many the runs
     * hold. A packed run holds at most the page's values rounded up to a group of 8, in bytes that
     * are there: Spark's decoder allocates the run's values from its header.
     */
    private long walkRuns(
        String name, ByteBufferInputStream in, int bitWidth, long wanted, int pageValues)
        throws IOException {
      int runValueBytes = BytesUtils.paddedByteCountFromBits(bitWidth);
      long read = 0;
      while (in.available() > 0 && (wanted < 0 || read < wanted)) {
        int header = BytesUtils.readUnsignedVarInt(in);
        if ((header & 1) == 0) {
          read += header >>> 1;
          in.skipFully(Math.min(runValueBytes, in.available()));
        } else {
          long groups = header >>> 1;
          if (groups > (pageValues + 7L) / 8 || groups * bitWidth > in.available()) {
            throw damaged(
                name
                    + " has a bit-packed run of "
                    + groups * 8
                    + " values in "
                    + in.available()
                    + " bytes of a page of "
                    + pageValues
                    + " values");
          }
          read += groups * 8;
          in.skipFully(groups * bitWidth);
        }
      }
      return read;
    }

    private void checkSize(String name, int uncompressedBytes) {
      if (uncompressedBytes < 0 || uncompressedBytes > chunkBytes) {
        throw damaged(
            name
                + " claims "
                + uncompressedBytes
                + " bytes uncompressed, its whole column chunk "
                + chunkBytes);
      }
    }

    private int leastEntryBytes() {
      return switch (column.getPrimitiveType().getPrimitiveTypeName()) {
        case INT64, DOUBLE -> 8;
        case INT96 -> 12;
        case FIXED_LEN_BYTE_ARRAY -> Math.max(1, column.getPrimitiveType().getTypeLength());
        default -> 4; // INT32 and FLOAT; a BINARY entry's length takes 4
      };
    }

    private ParquetDecodingException damaged(String what) {
      return new ParquetDecodingException(
          "Cannot decode column "
              + String.join(".", column.getPath())
              + ": "
              + what
              + "; the page is damaged");
    }
  }

  private static boolean runEncoded(Encoding encoding) {
    return encoding.usesDictionary() || encoding == Encoding.RLE;
  }
}
