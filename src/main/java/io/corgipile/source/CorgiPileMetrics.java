package io.corgipile.source;

import java.util.Arrays;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The scan's own metrics, shown in the SQL tab of Spark's UI and on the scan node of an executed
 * plan. Spark instantiates the metric classes by name, so they are public with no-arg constructors.
 */
public final class CorgiPileMetrics {
  public static final String BLOCKS_READ = "blocksRead";
  public static final String BYTES_READ = "rowGroupBytesRead";
  public static final String ROWS_READ = "rowsDecoded";
  public static final String PEAK_BUFFER_BYTES = "peakBufferBytes";
  public static final String BUFFERS_FILLED_AHEAD = "buffersFilledAhead";
  public static final String FOOTERS_READ = "footersRead";
  public static final String READERS_OPENED = "parquetReadersOpened";

  private CorgiPileMetrics() {}

  static CustomMetric[] supported() {
    return new CustomMetric[] {
      new BlocksRead(),
      new BytesRead(),
      new RowsRead(),
      new PeakBufferBytes(),
      new BuffersFilledAhead(),
      new FootersRead(),
      new ReadersOpened()
    };
  }

  static CustomTaskMetric[] values(ReaderMetrics m) {
    return new CustomTaskMetric[] {
      value(BLOCKS_READ, m.blocksRead.get()),
      value(BYTES_READ, m.bytesRead.get()),
      value(ROWS_READ, m.rowsRead.get()),
      value(PEAK_BUFFER_BYTES, m.peakBufferBytes.get()),
      value(BUFFERS_FILLED_AHEAD, m.buffersFilledAhead.get()),
      value(FOOTERS_READ, m.footersRead.get()),
      value(READERS_OPENED, m.readersOpened.get())
    };
  }

  private static CustomTaskMetric value(String name, long value) {
    return new CustomTaskMetric() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long value() {
        return value;
      }
    };
  }

  /** Blocks (row groups, or parts of them) decoded by all tasks. */
  public static final class BlocksRead extends CustomSumMetric {
    @Override
    public String name() {
      return BLOCKS_READ;
    }

    @Override
    public String description() {
      return "blocks read (row groups or parts of them)";
    }
  }

  /**
   * Bytes on disk (compressed) of the blocks decoded by all tasks, a part of a row group's share by
   * rows.
   */
  public static final class BytesRead extends CustomSumMetric {
    @Override
    public String name() {
      return BYTES_READ;
    }

    @Override
    public String description() {
      return "row group bytes read";
    }
  }

  /** Rows decoded by all tasks. */
  public static final class RowsRead extends CustomSumMetric {
    @Override
    public String name() {
      return ROWS_READ;
    }

    @Override
    public String description() {
      return "rows decoded";
    }
  }

  /** Rounds whose buffer an earlier task on the executor filled ahead ({@link RoundLookahead}). */
  public static final class BuffersFilledAhead extends CustomSumMetric {
    @Override
    public String name() {
      return BUFFERS_FILLED_AHEAD;
    }

    @Override
    public String description() {
      return "buffers filled ahead of their round";
    }
  }

  /**
   * Parquet footers tasks read from storage: a footer their executor read before, for an earlier
   * epoch, task or plan, is taken from its {@link FooterCache} and not counted.
   */
  public static final class FootersRead extends CustomSumMetric {
    @Override
    public String name() {
      return FOOTERS_READ;
    }

    @Override
    public String description() {
      return "footers read";
    }
  }

  /**
   * Spark Parquet readers tasks set up: one a task where its blocks are read alike (same file
   * schema, writer and partition values), another at each change; one a row group where Spark reads
   * the schema with Parquet's record reader.
   */
  public static final class ReadersOpened extends CustomSumMetric {
    @Override
    public String name() {
      return READERS_OPENED;
    }

    @Override
    public String description() {
      return "Parquet readers opened";
    }
  }

  /**
   * The largest memory one task's shuffle buffers (both, with prefetch) or window allocated: pages
   * of row bytes plus their index; a buffer filled ahead of its round ({@link RoundLookahead})
   * counts in the task that reads it. The bound docs/design.md states is checked against this.
   */
  public static final class PeakBufferBytes implements CustomMetric {
    @Override
    public String name() {
      return PEAK_BUFFER_BYTES;
    }

    @Override
    public String description() {
      return "peak shuffle buffer bytes per task";
    }

    @Override
    public String aggregateTaskMetrics(long[] taskMetrics) {
      return Long.toString(Arrays.stream(taskMetrics).max().orElse(0L));
    }
  }
}
