package io.corgipile.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;

/**
 * A file without an offset index (Impala's, from the parquet-testing corpus) whose last column
 * chunk has a page header claiming a gigabyte: Parquet's reader would allocate it, since for a
 * read's last chunk it reads past the chunk whatever a header claims. The reader walks that chunk's
 * headers first and fails naming the column.
 */
class DamagedLastChunkTest {
  /** alltypes_plain.parquet's last chunk, timestamp_col: its dictionary page header starts here. */
  private static final int HEADER_AT = 929;

  @Test
  void aHeaderClaimingMoreThanTheFileFailsNamingTheColumn() throws IOException {
    byte[] original;
    try (InputStream in =
        Objects.requireNonNull(
            getClass()
                .getClassLoader()
                .getResourceAsStream("parquet-testing/data/alltypes_plain.parquet"))) {
      original = in.readAllBytes();
    }
    ByteArrayInputStream rest =
        new ByteArrayInputStream(original, HEADER_AT, original.length - HEADER_AT);
    PageHeader header = Util.readPageHeader(rest);
    int headerEnd = original.length - rest.available();
    header.setCompressed_page_size(1_000_000_000);
    ByteArrayOutputStream damaged = new ByteArrayOutputStream();
    damaged.write(original, 0, HEADER_AT);
    Util.writePageHeader(header, damaged);
    damaged.write(
        original, headerEnd, original.length - headerEnd); // the footer is found from the end
    Path file = TestTables.tempDir("damaged-last-chunk").resolve("alltypes_plain.parquet");
    Files.write(file, damaged.toByteArray());

    Throwable error =
        catchThrowable(() -> TestTables.corgipile().load(file.toString()).collectAsList());
    assertThat(ReaderFuzz.messages(error))
        .contains(file.toUri().getPath())
        .contains(
            "Cannot read column timestamp_col: the header of its page at offset 929 claims"
                + " 1000000000 bytes, past the end of the file of "
                + damaged.size()
                + " bytes");
    assertThat(Arrays.equals(original, damaged.toByteArray())).isFalse();
  }
}
