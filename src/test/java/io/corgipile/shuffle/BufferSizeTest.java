package io.corgipile.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.corgipile.shuffle.BufferSize.Unit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BufferSizeTest {

  private static final String MESSAGE =
      "expected auto (the larger of 10% of the partition's rows and 4 of its row groups, at most"
          + " the partition and a share of an executor's memory), a row count (100000), a size of"
          + " decoded rows (64m, 1g) or a share of the partition's rows (10%), greater than 0 (and"
          + " at most 100%)";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1|1",
        "100000|100000",
        "'  42  '|42",
        "007|7",
        "9223372036854775807|9223372036854775807",
      })
  void acceptsRowCounts(String text, long rows) {
    BufferSize b = BufferSize.parse(text);
    assertThat(b.unit()).isEqualTo(Unit.ROWS);
    assertThat(b.maxRows(0)).isEqualTo(rows);
    assertThat(b.maxRows(1_000_000_000L)).isEqualTo(rows);
    assertThat(b.maxBytes()).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1b|1",
        "512B|512",
        "'12 b'|12",
        "64mib|67108864",
        "1k|1024",
        "10kb|10240",
        "10KB|10240",
        "3kib|3072",
        "3KiB|3072",
        "2ki|2048",
        "64m|67108864",
        "64M|67108864",
        "'64 mb'|67108864",
        "5MiB|5242880",
        "1g|1073741824",
        "1GB|1073741824",
        "2gib|2147483648",
        "3t|3298534883328",
        "1TiB|1099511627776",
        "'  8m '|8388608",
        "8388607t|9223370937343148032",
      })
  void acceptsByteSizes(String text, long bytes) {
    BufferSize b = BufferSize.parse(text);
    assertThat(b.unit()).isEqualTo(Unit.BYTES);
    assertThat(b.maxBytes()).isEqualTo(bytes);
    assertThat(b.maxRows(0)).isEqualTo(Long.MAX_VALUE);
    assertThat(b.maxRows(123)).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // text | partition rows | expected max rows
        "10%|1000|100",
        "10%|1001|101", // ceil(100.1)
        "10%|9|1", // ceil(0.9)
        "'10 %'|1000|100",
        "0.5%|1000|5",
        ".5%|1000|5",
        "1.5%|200|3",
        "100%|12345|12345",
        "100.0%|12345|12345",
        "50%|1|1", // ceil(0.5)
        "1%|0|1", // never less than one row
        "0.001%|10|1",
        "33.3%|1000|333",
        "25%|1000000000000|250000000000",
      })
  void acceptsPercentages(String text, long partitionRows, long expectedRows) {
    BufferSize b = BufferSize.parse(text);
    assertThat(b.unit()).isEqualTo(Unit.PERCENT);
    assertThat(b.maxRows(partitionRows)).isEqualTo(expectedRows);
    assertThat(b.maxBytes()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void percentOfRowsIsAtLeastTheShareAndAtMostOneMore() {
    // For any share and partition size, the buffer holds ceil(share * rows): at least the share,
    // less than one row more.
    for (String p : new String[] {"1%", "3%", "10%", "12.5%", "33%", "66.6%", "99%", "100%"}) {
      double share = Double.parseDouble(p.substring(0, p.length() - 1)) / 100;
      BufferSize b = BufferSize.parse(p);
      for (long rows = 1; rows < 2000; rows += 7) {
        long got = b.maxRows(rows);
        assertThat(got).as("%s of %d", p, rows).isGreaterThanOrEqualTo(1).isLessThanOrEqualTo(rows);
        assertThat((double) got).as("%s of %d", p, rows).isGreaterThan(share * rows - 1e-9);
        assertThat((double) got).as("%s of %d", p, rows).isLessThan(share * rows + 1);
      }
    }
  }

  @Test
  void percentOfRowsIsExactWhenTheShareIsAWholeNumberOfRows() {
    SoftAssertions soft = new SoftAssertions();
    for (long rows : new long[] {100, 200, 300, 1000, 10_000}) {
      for (int p = 1; p <= 100; p++) {
        if (p * rows % 100 == 0) {
          soft.assertThat(BufferSize.parse(p + "%").maxRows(rows))
              .as("%d%% of %d rows", p, rows)
              .isEqualTo(p * rows / 100);
        }
      }
    }
    soft.assertAll();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "0",
        "00",
        "-1",
        "-100",
        "+5",
        "0b",
        "0m",
        "0 kb",
        "-1m",
        "0%",
        "0.0%",
        "-5%",
        "101%",
        "100.5%",
        "1000%",
        "100.0001%",
        "abc",
        "10x",
        "10 rows",
        "m",
        "kb",
        "%",
        "5%%",
        "1.%",
        "1e3",
        "1e2%",
        "1,000",
        "1_000",
        "1.5m",
        "1.5",
        "",
        " ",
        "12ib",
        "12bb",
        "12 kbb",
        "99999999999999999999", // rows > Long.MAX_VALUE
        "9223372036854775808", // Long.MAX_VALUE + 1
        "8388608t", // 2^23 * 2^40 = 2^63: overflows a long
        "99999999999999999999k", // digits themselves overflow
        "9007199254740992g",
        "100000000000000000000000000000%",
      })
  void rejectsEverythingElseWithTheFormatMessage(String text) {
    assertThatThrownBy(() -> BufferSize.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(MESSAGE);
  }

  @Test
  void formatConstantNamesEveryForm() {
    assertThat(BufferSize.FORMAT).contains("100000", "64m", "1g", "10%");
  }

  @Test
  void equalityAndToString() {
    assertThat(BufferSize.parse("64M"))
        .isEqualTo(BufferSize.parse("64m"))
        .hasSameHashCodeAs(BufferSize.parse("64m"));
    assertThat(BufferSize.parse("64M").toString()).isEqualTo("64m");
    assertThat(BufferSize.parse(" 10% ").toString()).isEqualTo("10%");
    assertThat(BufferSize.parse(" 100 ").toString()).isEqualTo("100");
    assertThat(BufferSize.parse("100")).isNotEqualTo(BufferSize.parse("101"));
    assertThat(BufferSize.parse("100")).isNotEqualTo(BufferSize.parse("100%"));
    assertThat(BufferSize.parse("1m")).isNotEqualTo(BufferSize.parse("1g"));
    assertThat(BufferSize.parse("1m")).isNotEqualTo("1m");
    assertThat(BufferSize.parse("1m")).isNotEqualTo(null);
  }

  @Test
  void survivesJavaSerialization() throws Exception {
    for (String text : new String[] {"100000", "64m", "12.5%"}) {
      BufferSize b = BufferSize.parse(text);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(b);
      }
      BufferSize copy;
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
        copy = (BufferSize) in.readObject();
      }
      assertThat(copy).isEqualTo(b);
      assertThat(copy.unit()).isEqualTo(b.unit());
      assertThat(copy.maxRows(800)).isEqualTo(b.maxRows(800));
      assertThat(copy.maxBytes()).isEqualTo(b.maxBytes());
    }
  }

  @Test
  void autoHoldsTenPercentOrFourRowGroupsWithinThePartitionAndMemory() {
    BufferSize auto = BufferSize.parse(" AUTO ");
    assertThat(auto).hasToString("auto").isEqualTo(BufferSize.parse("auto"));
    long plenty = Long.MAX_VALUE / 2;
    // a large partition: 10% of 1,000,000 rows beats 4 row groups of 1,000
    assertThat(auto.capacity(1_000_000, 1000, 100, plenty))
        .isEqualTo(new BufferSize.Capacity(100_000, 100_000, plenty));
    // a small partition of 12 row groups of 1,000 rows: 4 row groups, not 1,200 rows
    assertThat(auto.capacity(12_000, 12, 100, plenty).plannedRows()).isEqualTo(4000);
    // at most the whole partition
    assertThat(auto.capacity(3_000, 3, 100, plenty).plannedRows()).isEqualTo(3000);
  }

  @Test
  void autoStaysWithinItsMemoryAsRowsAndAsABudget() {
    BufferSize auto = BufferSize.parse("auto");
    long memory = 100 * (100 + TupleShuffleBuffer.INDEX_BYTES_PER_ROW);
    assertThat(auto.capacity(12_000, 12, 100, memory))
        .isEqualTo(new BufferSize.Capacity(100, 100, memory));
    assertThat(auto.capacity(12_000, 12, 100, 1).plannedRows()).isEqualTo(1);
  }

  @Test
  void capacityOfTheOtherUnits() {
    long none = Long.MAX_VALUE;
    assertThat(BufferSize.parse("500").capacity(12_000, 12, 100, 1))
        .isEqualTo(new BufferSize.Capacity(500, 500, none));
    assertThat(BufferSize.parse("5%").capacity(12_000, 12, 100, 1))
        .isEqualTo(new BufferSize.Capacity(600, 600, none));
    long budget = 50L * (100 + TupleShuffleBuffer.INDEX_BYTES_PER_ROW);
    // bytes: rows are planned from the estimated row size; the runtime limit is the budget alone
    assertThat(BufferSize.parse(budget + "b").capacity(12_000, 12, 100, 1))
        .isEqualTo(new BufferSize.Capacity(50, none, budget));
  }

  @Test
  void theBoundOfABufferIsItsByteBudgetElseTheBoundOfItsRows() {
    // 4,000 rows of 40 bytes: 160,000 bytes, one bucket's partly filled 16 KiB chunk, 2 x 26 bytes
    // of index a row
    long rowsBound = 160_000 + (16 << 10) + 52 * 4_000;
    assertThat(BufferSize.parse("4000").capacity(20_000, 20, 40, Long.MAX_VALUE).boundBytes(40))
        .isEqualTo(rowsBound);
    assertThat(BufferSize.parse("auto").capacity(20_000, 20, 40, Long.MAX_VALUE).boundBytes(40))
        .isEqualTo(rowsBound);
    // auto capped by memory, and a size in bytes: the budget
    assertThat(BufferSize.parse("auto").capacity(20_000, 20, 40, 100_000).boundBytes(40))
        .isEqualTo(100_000);
    assertThat(BufferSize.parse("64k").capacity(20_000, 20, 40, Long.MAX_VALUE).boundBytes(40))
        .isEqualTo(64 << 10);
  }
}
