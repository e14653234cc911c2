package io.corgipile.spark;

import java.io.IOException;
import org.apache.parquet.hadoop.ParquetRecordReader;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;

/**
 * Rows of parquet-mr's record reader with Spark's converters, for schemas Spark cannot vectorize.
 */
final class RecordRows implements BlockRows {
  private final ParquetRecordReader<InternalRow> reader;
  private final JoinedRow joined = new JoinedRow();
  private final InternalRow partitionValues;
  private final UnsafeProjection projection;
  private UnsafeRow row;

  RecordRows(
      ParquetRecordReader<InternalRow> reader,
      InternalRow partitionValues,
      UnsafeProjection projection) {
    this.reader = reader;
    this.partitionValues = partitionValues;
    this.projection = projection;
  }

  @Override
  public boolean next() throws IOException {
    try {
      if (!reader.nextKeyValue()) {
        return false;
      }
      row = projection.apply(joined.apply(reader.getCurrentValue(), partitionValues));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  @Override
  public UnsafeRow row() {
    return row;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
