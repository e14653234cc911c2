package io.corgipile.ml.sync;

import io.corgipile.ml.compress.PartitionResidual;
import io.corgipile.ml.compress.QuantizedDelta;
import io.corgipile.ml.sgd.PartitionResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver's copy of each partition's latest residual for error feedback: what its last round
 * that trained returned, sent with its next round to its task only. A partition with no rows in a
 * round returns none and keeps the one before. Held on the driver, not on the executors, so a task
 * that is retried, moved, or rerun after its executor was lost starts from the same residual: an
 * INT8 payload per partition, about one byte per coordinate it holds.
 */
final class PartitionResiduals {
  private final QuantizedDelta[] latest;

  PartitionResiduals(int partitions) {
    this.latest = new QuantizedDelta[partitions];
  }

  /** One per partition, in partition order, for the next round. */
  List<PartitionResidual> toSend() {
    List<PartitionResidual> out = new ArrayList<>(latest.length);
    for (int p = 0; p < latest.length; p++) {
      out.add(new PartitionResidual(p, latest[p]));
    }
    return out;
  }

  /** Keeps the residual {@code result} returned, if any, as its partition's latest. */
  void keep(PartitionResult result) {
    if (result.residual() != null) {
      latest[result.partition()] = result.residual();
    }
  }
}
