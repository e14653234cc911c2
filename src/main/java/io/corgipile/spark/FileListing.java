package io.corgipile.spark;

import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * The files of a table and its schema, as {@code spark.read().parquet(...)} sees them.
 *
 * @param schema the table schema: data columns, then partition columns
 * @param partitionSchema the columns taken from {@code key=value} directories
 * @param files the files, sorted by path: the table's storage order
 */
public record FileListing(StructType schema, StructType partitionSchema, List<DataFile> files) {}
