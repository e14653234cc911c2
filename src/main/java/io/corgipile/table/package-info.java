/**
 * Tables whose live rows are named by a transaction log (Delta Lake; Iceberg next): what a snapshot
 * of one is, as the scan planning needs it, without any table format's classes. A format's own
 * library is touched only in its subpackage ({@code delta}), which {@link TablePlanners} loads by
 * name, so the library stays optional for users who read only Parquet.
 */
package io.corgipile.table;
