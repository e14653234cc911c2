/**
 * The only package that touches Spark internals and developer APIs: {@code
 * org.apache.spark.sql.execution}, {@code org.apache.spark.sql.internal}, {@code
 * org.apache.spark.sql.classic}, {@code org.apache.spark.unsafe}, the byte layouts of catalyst's
 * {@code UnsafeRow}, the scheduler's listener events ({@code org.apache.spark.scheduler}) and
 * {@code SparkEnv}. The reader ({@code io.corgipile.source}) and the trainer ({@code
 * io.corgipile.ml}) reach them through the public classes here; a Spark upgrade that moves any of
 * them should touch this package only.
 *
 * <p>Roles: {@link io.corgipile.spark.FileLister} lists files as {@code spark.read().parquet} does;
 * {@link io.corgipile.spark.ScanSettings} captures a scan's settings and broadcasts its Hadoop
 * configuration; {@link io.corgipile.spark.ParquetConversion} converts schemas and filters; {@link
 * io.corgipile.spark.BlockDecoder} decodes a row group, or a range of its rows, of a {@link
 * io.corgipile.spark.FileHandle} on an executor, block after block through one Spark reader ({@code
 * ReusedVectorizedReader}); {@link io.corgipile.spark.UnsafeRows} holds the {@code UnsafeRow} byte
 * layout, which {@code FixedWidthRowEncoder}, {@link io.corgipile.spark.RowArenaBatch} and {@link
 * io.corgipile.spark.FeatureVector} read and write; {@link io.corgipile.spark.DatasetInternals}
 * gives the trainer a {@code Dataset}'s internal rows, read straight from a scan's column batches
 * where its plan is a plain select of them ({@code ScanProjection}, {@code ProjectedBatchRows});
 * {@link io.corgipile.spark.TaskResultMeter} counts the bytes a training round's tasks send to the
 * driver and {@link io.corgipile.spark.SerializedSize} the bytes of what the driver broadcasts.
 */
package io.corgipile.spark;
