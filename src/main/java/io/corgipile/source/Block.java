package io.corgipile.source;

import java.io.Serializable;

/**
 * One Parquet row group: the unit of the block-level shuffle.
 *
 * @param file index of the file in the plan's file list
 * @param rowGroup ordinal of the row group in its file's footer
 * @param offset starting position of the row group in the file
 * @param compressedBytes bytes the row group occupies on disk
 * @param uncompressedBytes bytes of the row group's pages once decompressed
 * @param rows rows in the row group
 */
record Block(int file, int rowGroup, long offset, long compressedBytes, long uncompressedBytes, long rows)
    implements Serializable {}
