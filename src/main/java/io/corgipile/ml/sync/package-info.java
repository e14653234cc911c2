/**
 * The SGD estimators' driver: the epoch loop ({@link io.corgipile.ml.sync.SGDOptimizer}), epochs
 * cut into rounds, one Spark job each, and the partition models merged (collected or reduced by
 * coordinate slices) and stepped by the server; the passes before the first epoch (feature summary,
 * label classes) and early stopping.
 */
package io.corgipile.ml.sync;
