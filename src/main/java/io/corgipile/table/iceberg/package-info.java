/**
 * Apache Iceberg tables through Iceberg's own Java API: the table's metadata, the snapshot's live
 * data files and their deletes (position deletes, deletion vectors, equality deletes), and the
 * table's schema as Spark types. The only package that touches Iceberg's classes; {@code
 * TablePlanners} loads it by name, so Iceberg's jars stay optional.
 */
package io.corgipile.table.iceberg;
