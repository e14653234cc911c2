package io.corgipile.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * Pages Spark's vectorized decoder would loop on or allocate from are refused before it reads them,
 * naming the column; intact pages pass with the same bytes.
 */
class CheckedPagesTest {
  private static final PrimitiveType TYPE = Types.optional(PrimitiveTypeName.DOUBLE).named("x");
  private static final ColumnDescriptor COLUMN =
      new ColumnDescriptor(new String[] {"x"}, TYPE, 0, 1);
  private static final int VALUES = 10;

  @Test
  void intactPagePassesWithItsBytes() throws IOException {
    byte[] bytes = v1Page(rleRun(VALUES, 1), plainDoubles(VALUES));
    DataPage page = read(v1(bytes, Encoding.PLAIN), 1000);
    assertThat(((DataPageV1) page).getBytes().toByteArray()).isEqualTo(bytes);
    assertThat(page.getValueCount()).isEqualTo(VALUES);
  }

  @Test
  void definitionLevelsThatEndBeforeTheValuesAreRefused() {
    // Spark's decoder loops forever on these: 4 levels for 10 values
    DataPageV1 page = v1(v1Page(rleRun(4, 1), plainDoubles(4)), Encoding.PLAIN);
    assertThatThrownBy(() -> read(page, 1000))
        .isInstanceOf(ParquetDecodingException.class)
        .hasMessage(
            "Cannot decode column x: its data page 0's definition levels end after 4 of its 10"
                + " values; the page is damaged");
  }

  @Test
  void levelsEndingInAnEmptyRunAreRefused() {
    byte[] levels = concat(rleRun(4, 1), rleRun(0, 1)); // a run of no values, then nothing
    assertThatThrownBy(() -> read(v1(v1Page(levels, plainDoubles(4)), Encoding.PLAIN), 1000))
        .hasMessageContaining("definition levels end after 4 of its 10 values");
  }

  @Test
  void levelsOfAV2PageAreWalkedToo() {
    DataPageV2 page =
        DataPageV2.uncompressed(
            VALUES,
            0,
            VALUES,
            BytesInput.empty(),
            BytesInput.from(rleRun(3, 1)),
            Encoding.PLAIN,
            BytesInput.from(plainDoubles(3)),
            Statistics.createStats(TYPE));
    assertThatThrownBy(() -> read(page, 1000))
        .hasMessageContaining("definition levels end after 3 of its 10 values");
  }

  @Test
  void aPackedRunLongerThanThePageIsRefused() {
    // Spark's decoder allocates a packed run's values from its header: 2^27 groups here
    byte[] levels = concat(varInt((1 << 27) << 1 | 1), new byte[8]);
    assertThatThrownBy(() -> read(v1(v1Page(levels, plainDoubles(VALUES)), Encoding.PLAIN), 1000))
        .hasMessage(
            "Cannot decode column x: its data page 0 has a bit-packed run of 1073741824 values in 8"
                + " bytes of a page of 10 values; the page is damaged");
  }

  @Test
  void dictionaryIndexesAreWalkedForPackedRuns() {
    byte[] values = concat(new byte[] {3}, varInt((1 << 20) << 1 | 1), new byte[3]); // bit width 3
    assertThatThrownBy(
            () -> read(v1(v1Page(rleRun(VALUES, 1), values), Encoding.RLE_DICTIONARY), 1000))
        .hasMessageContaining("has a bit-packed run of 8388608 values");
  }

  @Test
  void aFlatPageWithFewerValuesThanItsIndexedRowsIsRefused() {
    // Spark's reader would leave the last 5 rows of its batch as the previous batch left them
    byte[] bytes = v1Page(rleRun(5, 1), plainDoubles(5));
    DataPageV1 page =
        new DataPageV1(
            BytesInput.from(bytes),
            5,
            bytes.length,
            0,
            VALUES,
            Statistics.createStats(TYPE),
            Encoding.RLE,
            Encoding.RLE,
            Encoding.PLAIN);
    assertThatThrownBy(() -> read(page, 1000))
        .hasMessage(
            "Cannot decode column x: its data page 0 holds 5 values "
                + "for the 10 rows its offset index gives it; the page is damaged");
  }

  @Test
  void aPageLargerThanItsWholeChunkIsRefused() {
    DataPageV1 page =
        new DataPageV1(
            BytesInput.from(v1Page(rleRun(VALUES, 1), plainDoubles(VALUES))),
            VALUES,
            1 << 30,
            Statistics.createStats(TYPE),
            Encoding.RLE,
            Encoding.RLE,
            Encoding.PLAIN);
    assertThatThrownBy(() -> read(page, 1000))
        .hasMessage(
            "Cannot decode column x: its data page 0 claims 1073741824 bytes uncompressed, its"
                + " whole column chunk 1000; the page is damaged");
  }

  @Test
  void aDictionaryLongerThanItsBytesCanHoldIsRefused() {
    DictionaryPage dictionary =
        new DictionaryPage(BytesInput.from(plainDoubles(2)), 1 << 28, Encoding.PLAIN);
    PageReader reader = checked(new Pages(dictionary), 1000).getPageReader(COLUMN);
    assertThatThrownBy(reader::readDictionaryPage)
        .hasMessage(
            "Cannot decode column x: its dictionary page "
                + "claims 268435456 entries, which 16 bytes cannot hold; the page is damaged");
  }

  @Test
  void aPageWhoseChecksumParquetVerifiedIsNotWalked() throws IOException {
    DataPageV1 page = v1(v1Page(rleRun(4, 1), plainDoubles(4)), Encoding.PLAIN);
    page.setCrc(42);
    assertThat(read(page, 1000)).isSameAs(page);
    assertThatThrownBy(() -> read(page, 1000, false))
        .hasMessageContaining("definition levels end after 4");
  }

  private static DataPage read(DataPage page, long chunkBytes) {
    return read(page, chunkBytes, true);
  }

  private static DataPage read(DataPage page, long chunkBytes, boolean checksumsVerified) {
    return new CheckedPages(new Pages(page), block(chunkBytes), checksumsVerified)
        .getPageReader(COLUMN)
        .readPage();
  }

  private static PageReadStore checked(Pages pages, long chunkBytes) {
    return new CheckedPages(pages, block(chunkBytes), true);
  }

  private static BlockMetaData block(long chunkBytes) {
    BlockMetaData block = new BlockMetaData();
    block.addColumn(
        ColumnChunkMetaData.get(
            ColumnPath.get("x"),
            TYPE,
            CompressionCodecName.UNCOMPRESSED,
            new EncodingStats.Builder().build(),
            Set.of(Encoding.PLAIN),
            Statistics.createStats(TYPE),
            4,
            0,
            VALUES,
            chunkBytes,
            chunkBytes));
    block.setRowCount(VALUES);
    return block;
  }

  private static DataPageV1 v1(byte[] bytes, Encoding values) {
    return new DataPageV1(
        BytesInput.from(bytes),
        VALUES,
        bytes.length,
        Statistics.createStats(TYPE),
        Encoding.RLE,
        Encoding.RLE,
        values);
  }

  /** A v1 page of an optional column: the definition levels' length, the levels, the values. */
  private static byte[] v1Page(byte[] levels, byte[] values) {
    ByteArrayOutputStream length = new ByteArrayOutputStream();
    try {
      BytesUtils.writeIntLittleEndian(length, levels.length);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return concat(length.toByteArray(), levels, values);
  }

  private static byte[] rleRun(int count, int value) {
    return concat(varInt(count << 1), new byte[] {(byte) value});
  }

  private static byte[] varInt(int value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      BytesUtils.writeUnsignedVarInt(value, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteArray();
  }

  private static byte[] plainDoubles(int count) {
    return new byte[8 * count];
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** One column's pages, as Parquet's reader hands them out. */
  private static final class Pages implements PageReadStore, PageReader {
    private final DictionaryPage dictionary;
    private final Deque<DataPage> pages = new ArrayDeque<>();

    Pages(DataPage page) {
      this.dictionary = null;
      pages.add(page);
    }

    Pages(DictionaryPage dictionary) {
      this.dictionary = dictionary;
    }

    @Override
    public PageReader getPageReader(ColumnDescriptor descriptor) {
      return this;
    }

    @Override
    public long getRowCount() {
      return VALUES;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
      return dictionary;
    }

    @Override
    public long getTotalValueCount() {
      return VALUES;
    }

    @Override
    public DataPage readPage() {
      return pages.poll();
    }
  }
}
