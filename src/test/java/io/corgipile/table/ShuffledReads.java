package io.corgipile.table;

import io.corgipile.SharedSpark;
import io.corgipile.shuffle.ShuffleMode;
import io.corgipile.source.ReadOptions;
import org.apache.spark.sql.DataFrameReader;

/** How the table tests read a table: in a shuffle mode, in 2 partitions, buffers of 150 rows. */
public final class ShuffledReads {
  private ShuffledReads() {}

  /**
   * A {@code corgipile} reader in {@code mode}, blocks of {@code blockSize} rows: parts of the
   * fixtures' row groups, so that deleted rows are cut with their blocks.
   */
  public static DataFrameReader corgipile(ShuffleMode mode, int blockSize) {
    return SharedSpark.get()
        .read()
        .format("corgipile")
        .option(ReadOptions.SHUFFLE, mode.optionValue())
        .option(ReadOptions.PARTITIONS, "2")
        .option(ReadOptions.BLOCK_SIZE, blockSize)
        .option(ReadOptions.BUFFER_SIZE, "150");
  }
}
