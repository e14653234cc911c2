package io.corgipile.source;

import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** A planned scan: its partitions and the factory of their readers. */
final class CorgiPileBatch implements Batch {
  private final CorgiPileReaderFactory factory;
  private final int partitions;

  CorgiPileBatch(CorgiPileReaderFactory factory, int partitions) {
    this.factory = factory;
    this.partitions = partitions;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    InputPartition[] out = new InputPartition[partitions];
    for (int i = 0; i < partitions; i++) {
      out[i] = new CorgiPileInputPartition(i);
    }
    return out;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return factory;
  }
}
