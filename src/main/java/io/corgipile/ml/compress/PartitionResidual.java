package io.corgipile.ml.compress;

import java.io.Serializable;

/**
 * What the driver sends a partition's task for error feedback ({@link ErrorFeedback}): the residual
 * its previous compressed round returned.
 *
 * @param partition the partition it belongs to, which the task checks against its own
 * @param residual null before the partition's first compressed round
 */
public record PartitionResidual(int partition, QuantizedDelta residual) implements Serializable {}
