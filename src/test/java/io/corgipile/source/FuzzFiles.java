package io.corgipile.source;

import io.corgipile.SharedSpark;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * The files the reader fuzzer damages: small Parquet files written by Spark (int, long, double,
 * string, boolean columns, each with nulls, in several row groups), and seeded damage to them.
 */
final class FuzzFiles {
  /**
   * Written once per JVM: snappy with dictionaries, uncompressed with dictionaries, uncompressed
   * plain.
   */
  private final List<byte[]> originals = new ArrayList<>();

  /** Per original, where its column chunks start: each begins with a page header. */
  private final List<long[]> chunkStarts = new ArrayList<>();

  /**
   * @param pageChecksums whether the pages carry CRCs, as Spark writes them by default (pyarrow,
   *     for one, writes none)
   */
  FuzzFiles(Path dir, boolean pageChecksums) {
    add(dir.resolve("snappy"), "snappy", true, pageChecksums);
    add(dir.resolve("plain"), "uncompressed", true, pageChecksums);
    add(dir.resolve("nodict"), "uncompressed", false, pageChecksums);
  }

  private void add(Path dir, String codec, boolean dictionary, boolean pageChecksums) {
    Path file = write(dir, codec, dictionary, pageChecksums);
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toString()), new Configuration()))) {
      chunkStarts.add(
          reader.getFooter().getBlocks().stream()
              .flatMap(b -> b.getColumns().stream())
              .mapToLong(ColumnChunkMetaData::getStartingPos)
              .toArray());
      originals.add(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(Path dir, String codec, boolean dictionary, boolean pageChecksums) {
    SharedSpark.get()
        .range(0, 120, 1, 1)
        .selectExpr(
            "id",
            "if(id % 7 = 3, null, cast(id * 31 - 1000 as int)) as i",
            "if(id % 5 = 1, null, id * 1000003) as l",
            "if(id % 6 = 2, null, cast(id as double) / 3) as d",
            "if(id % 4 = 0, null, concat('s', id % 9, repeat('x', cast(id % 5 as int)))) as s",
            "if(id % 9 = 4, null, id % 3 = 0) as b")
        .write()
        .mode("overwrite") // the script's next JVM after a hang or crash writes them again
        .option("compression", codec)
        .option("parquet.enable.dictionary", dictionary)
        .option("parquet.page.write-checksum.enabled", pageChecksums)
        .option("parquet.block.row.count.limit", 30)
        .parquet(dir.toString());
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Case {@code seed}'s damaged file: one of the originals, with bytes flipped anywhere, bytes
   * flipped in the footer (where the lengths and offsets of row groups, columns and pages are), a
   * size or value count of a page header made huge, or cut short; never equal to its original.
   */
  byte[] damaged(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int which = random.nextInt(originals.size());
    byte[] original = originals.get(which);
    byte[] bytes = original.clone();
    switch (random.nextInt(6)) {
      case 4 -> hugePageField(bytes, random, chunkStarts.get(which));
      case 5 -> bytes = footerField(bytes, random);
      case 0 -> flip(bytes, random, 0, bytes.length, 1 + random.nextInt(4));
      case 1 -> flip(bytes, random, footerStart(bytes), bytes.length - 8, 1 + random.nextInt(3));
      case 2 -> bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
      default -> {
        // Page headers and the footer's thrift encode lengths as varints: a flip of a high bit
        // there makes a length huge, which is what must not turn into a huge allocation.
        flip(bytes, random, 0, bytes.length, 1);
        int at = footerStart(bytes) + random.nextInt(bytes.length - 8 - footerStart(bytes));
        bytes[at] |= (byte) 0x80;
      }
    }
    return Arrays.equals(bytes, original) ? damaged(seed + Long.MIN_VALUE / 3) : bytes;
  }

  /**
   * Rewrites the header of a column chunk's first page with its compressed size, uncompressed size
   * or value count set to a large number (the header may grow into the page's first bytes).
   */
  private static void hugePageField(byte[] bytes, SplittableRandom random, long[] starts) {
    int at = (int) starts[random.nextInt(starts.length)];
    try {
      PageHeader header =
          Util.readPageHeader(new ByteArrayInputStream(bytes, at, bytes.length - at));
      int huge = (1 << (16 + random.nextInt(15))) + random.nextInt(1 << 16);
      switch (random.nextInt(3)) {
        case 0 -> header.setCompressed_page_size(huge);
        case 1 -> header.setUncompressed_page_size(huge);
        default -> {
          if (header.isSetDictionary_page_header()) {
            header.getDictionary_page_header().setNum_values(huge);
          } else {
            header.getData_page_header().setNum_values(huge);
          }
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Util.writePageHeader(header, out);
      byte[] written = out.toByteArray();
      System.arraycopy(written, 0, bytes, at, Math.min(written.length, bytes.length - at));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Rewrites the footer with a column chunk's offset, length or value count, or a row group's row
   * count, set to a large or negative number: what a flipped bit of a length field does.
   */
  private static byte[] footerField(byte[] bytes, SplittableRandom random) {
    int start = footerStart(bytes);
    try {
      FileMetaData footer =
          Util.readFileMetaData(new ByteArrayInputStream(bytes, start, bytes.length - 8 - start));
      RowGroup group = footer.getRow_groups().get(random.nextInt(footer.getRow_groupsSize()));
      ColumnMetaData column =
          group.getColumns().get(random.nextInt(group.getColumnsSize())).getMeta_data();
      long value =
          (random.nextBoolean() ? 1 : -1)
              * ((1L << (8 + random.nextInt(33))) + random.nextInt(1 << 8));
      switch (random.nextInt(6)) {
        case 0 -> column.setTotal_compressed_size(value);
        case 1 -> column.setTotal_uncompressed_size(value);
        case 2 -> column.setData_page_offset(value);
        case 3 -> column.setNum_values(value);
        case 4 -> column.setDictionary_page_offset(value);
        default -> group.setNum_rows(value);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(bytes, 0, start);
      Util.writeFileMetaData(footer, out);
      int length = out.size() - start;
      out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array());
      out.write(bytes, bytes.length - 4, 4);
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int footerStart(byte[] bytes) {
    int length =
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    return bytes.length - 8 - length;
  }

  private static void flip(byte[] bytes, SplittableRandom random, int from, int to, int count) {
    for (int k = 0; k < count; k++) {
      bytes[from + random.nextInt(to - from)] ^= (byte) (1 + random.nextInt(255));
    }
  }
}
