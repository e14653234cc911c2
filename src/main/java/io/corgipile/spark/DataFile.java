package io.corgipile.spark;

import java.io.Serializable;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One Parquet file of a table as it was listed, with the values of its Hive-style partition
 * directories.
 *
 * @param modificationTime milliseconds since the epoch, as the file system listed it
 */
public record DataFile(String path, long length, long modificationTime, InternalRow partitionValues)
    implements Serializable {}
