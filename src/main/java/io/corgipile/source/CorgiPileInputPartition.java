package io.corgipile.source;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One partition of a scan: only its index. Which blocks it reads is decided on the executor, per
 * epoch, because Spark plans input partitions once per query.
 */
record CorgiPileInputPartition(int index) implements InputPartition {}
