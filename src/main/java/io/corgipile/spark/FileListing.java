package io.corgipile.spark;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;

/**
 * The files of a table and its schema, as {@code spark.read().parquet(...)} sees them, or as a
 * table format's snapshot lists them.
 *
 * @param schema the table schema: of Parquet files, data columns, then partition columns; of a
 *     table format's snapshot, the table's columns in its order
 * @param fileSchema the schema as the data files name its columns, field for field ({@link
 *     PhysicalColumns}): a table format's physical names and field ids under column mapping; else
 *     {@code schema}
 * @param partitionSchema the columns taken from {@code key=value} directories, or the table's
 *     partition columns
 * @param files the files, sorted by path: the table's storage order
 * @param deletedRows by file path, the deleted rows' positions (ascending) of the files of a table
 *     snapshot that have any; empty for Parquet files
 */
public record FileListing(
    StructType schema,
    StructType fileSchema,
    StructType partitionSchema,
    List<DataFile> files,
    Map<String, long[]> deletedRows) {}
