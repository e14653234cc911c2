package io.corgipile.source;

import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;

/** Hands a partition's {@link TupleStream} to Spark and reports what it measured. */
final class CorgiPilePartitionReader implements PartitionReader<InternalRow> {
  private final TupleStream stream;
  private final ReaderMetrics metrics;

  CorgiPilePartitionReader(TupleStream stream, ReaderMetrics metrics) {
    this.stream = stream;
    this.metrics = metrics;
  }

  @Override
  public boolean next() throws IOException {
    return stream.next();
  }

  @Override
  public InternalRow get() {
    return stream.get();
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return CorgiPileMetrics.values(metrics);
  }

  @Override
  public void close() throws IOException {
    stream.close();
  }
}
