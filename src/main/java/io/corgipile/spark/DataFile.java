package io.corgipile.spark;

import java.io.Serializable;
import org.apache.spark.sql.catalyst.InternalRow;

/** One Parquet file of a table, with the values of its Hive-style partition directories. */
public record DataFile(String path, long length, InternalRow partitionValues) implements Serializable {}
