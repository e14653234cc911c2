package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.LogCapture;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A buffer that holds fewer than two blocks cannot mix them; the scan says so, and how to fix it.
 */
class BufferWarningTest {
  private static String table;
  private LogCapture log;

  @BeforeAll
  static void writeTable() {
    // 4000 rows in row groups of 500.
    table = TestTables.labelSorted(TestTables.tempDir("warning"), 4000, 500);
  }

  @BeforeEach
  void capture() {
    log = new LogCapture(CorgiPileScan.class);
  }

  @AfterEach
  void release() {
    log.close();
  }

  @Test
  void warnsWhenTheBufferHoldsFewerThanTwoRowGroups() {
    // 10% of 4000 rows is 400 rows, less than one row group of 500.
    corgipile("partitions", "1", "bufferSize", "10%").load(table).collectAsList();
    assertThat(log.messages(Level.WARN)).hasSize(1);
    assertThat(log.messages(Level.WARN).get(0))
        .contains("holds about 400 rows per partition, fewer than two blocks of about 500 rows")
        .contains("parquet.block.size")
        .contains("larger bufferSize")
        .contains(table);
  }

  /**
   * Issue 39: a fit runs several queries over one DataFrame, each planning a scan; the advice comes
   * once.
   */
  @Test
  void warnsOncePerLoadNotPerQuery() {
    var df = corgipile("partitions", "1", "bufferSize", "10%").load(table);
    df.collectAsList();
    df.count();
    df.select("x").collectAsList();
    assertThat(log.messages(Level.WARN)).hasSize(1);
    assertThat(log.messages(Level.WARN).get(0)).hasLineCount(1).hasSizeLessThan(500);

    corgipile("partitions", "1", "bufferSize", "10%")
        .load(table)
        .count(); // another load: said again
    assertThat(log.messages(Level.WARN)).hasSize(2);
  }

  @Test
  void warnsForAByteBudgetTooSmallForTwoRowGroups() {
    corgipile("partitions", "1", "bufferSize", "8k").load(table).collectAsList();
    assertThat(log.messages(Level.WARN)).hasSize(1);
  }

  @Test
  void isQuietWhenTheBufferHoldsSeveralRowGroupsOrDoesNotShuffleTuples() {
    // the default, auto, holds 4 row groups where 10% would hold less than one
    corgipile("partitions", "1").load(table).collectAsList();
    corgipile("partitions", "1", "bufferSize", "1000").load(table).collectAsList();
    corgipile("partitions", "1", "bufferSize", "50%").load(table).collectAsList();
    corgipile("partitions", "1", "shuffle", "block").load(table).collectAsList();
    assertThat(log.messages(Level.WARN)).isEmpty();
  }
}
