package io.corgipile.source;

import io.corgipile.shuffle.SyncInterval;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.read.Scan;

/**
 * How many rounds an epoch of a {@code corgipile} scan takes: what a training loop needs before it
 * reads the epoch round by round, each round a job after {@link ReadScope#setRound} with this
 * count. It is computed from the footers the scan already read, exactly as the executors cut their
 * streams.
 */
public final class EpochRounds {
  private EpochRounds() {}

  /**
   * The rounds of epoch {@code epoch}: the fewest any partition of the scan with rows cuts its
   * stream into, at least 1, so every partition reads in every round; a partition that cuts more
   * reads several consecutive groups in some rounds.
   *
   * @param scan a scan, as found in an executed plan
   * @param epoch the epoch the rounds' jobs read ({@link ReadScope#setEpoch})
   * @param seed the seed the jobs run with ({@link ReadScope#seed}), or null for the scan's own
   *     {@code seed} option
   * @return the count, or empty when {@code scan} is not a {@code corgipile} scan
   * @throws IllegalArgumentException for a negative epoch
   */
  public static OptionalInt of(Scan scan, int epoch, Long seed, SyncInterval interval) {
    if (!(scan instanceof CorgiPileScan corgipile)) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(corgipile.rounds(epoch, seed, interval));
  }

  /**
   * The rows an epoch of {@code scan} reads, as its footers count them; empty when {@code scan} is
   * not a {@code corgipile} scan.
   */
  public static OptionalLong rows(Scan scan) {
    return scan instanceof CorgiPileScan corgipile
        ? OptionalLong.of(corgipile.rows())
        : OptionalLong.empty();
  }
}
