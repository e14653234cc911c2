package io.corgipile.source;

import static io.corgipile.source.TestTables.corgipile;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A buffer that holds fewer than two row groups cannot mix them; the scan says so, and how to fix it. */
class BufferWarningTest {
  private static String table;
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private AbstractAppender appender;
  private LoggerConfig config;

  @BeforeAll
  static void writeTable() {
    // 4000 rows in row groups of 500.
    table = TestTables.labelSorted(TestTables.tempDir("warning"), 4000, 500);
  }

  @BeforeEach
  void capture() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    config = context.getConfiguration().getLoggerConfig(CorgiPileScan.class.getName());
    appender = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent event) {
        if (event.getLevel() == Level.WARN && event.getLoggerName().equals(CorgiPileScan.class.getName())) {
          warnings.add(event.getMessage().getFormattedMessage());
        }
      }
    };
    appender.start();
    config.addAppender(appender, Level.WARN, null);
    context.updateLoggers();
  }

  @AfterEach
  void release() {
    config.removeAppender("capture");
    appender.stop();
  }

  @Test
  void warnsWhenTheBufferHoldsFewerThanTwoRowGroups() {
    // 10% of 4000 rows is 400 rows, less than one row group of 500.
    corgipile("partitions", "1", "bufferSize", "10%").load(table).collectAsList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0))
        .contains("holds about 400 rows per partition, fewer than two row groups of about 500 rows")
        .contains("parquet.block.size").contains("larger bufferSize").contains(table);
  }

  @Test
  void warnsForAByteBudgetTooSmallForTwoRowGroups() {
    corgipile("partitions", "1", "bufferSize", "8k").load(table).collectAsList();
    assertThat(warnings).hasSize(1);
  }

  @Test
  void isQuietWhenTheBufferHoldsSeveralRowGroupsOrDoesNotShuffleTuples() {
    // the default, auto, holds 4 row groups where 10% would hold less than one
    corgipile("partitions", "1").load(table).collectAsList();
    corgipile("partitions", "1", "bufferSize", "1000").load(table).collectAsList();
    corgipile("partitions", "1", "bufferSize", "50%").load(table).collectAsList();
    corgipile("partitions", "1", "shuffle", "block").load(table).collectAsList();
    assertThat(warnings).isEmpty();
  }
}
