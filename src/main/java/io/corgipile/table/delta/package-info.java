/**
 * Delta Lake snapshots through Delta Kernel ({@code io.delta:delta-kernel-api} and {@code
 * -defaults}): the only package that touches Delta's classes, loaded by name from {@link
 * io.corgipile.table.TablePlanners}, so that Delta Kernel stays an optional dependency. Kernel's
 * {@code internal} helpers (scan file rows, deletion vector loading) are used here and nowhere
 * else: a Kernel upgrade is checked against this package's tests.
 */
package io.corgipile.table.delta;
