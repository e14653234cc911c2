package io.corgipile.ml.compress;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The residuals of {@link ErrorFeedback} between rounds, in the executor's memory: rounds are
 * separate Spark jobs, and a partition's next task runs on this executor unless Spark moves it.
 * Keyed by training run (an id the driver chooses), partition and round.
 *
 * <p>Memory stays bounded: writing round {@code k} of a partition drops its rounds before {@code k
 * - 1}, so it keeps at most two (round {@code k - 1} stays for a retry of round {@code k}), and the
 * store keeps the {@link #RUNS_KEPT} runs used last, dropping older ones whole. One lock: it is
 * used once per task.
 */
public final class ResidualStore {
  /**
   * Runs kept per executor. A finished run's residuals go when this many newer runs have written,
   * or at {@link #clear}; more concurrent trainings than this (a CrossValidator's parallelism) lose
   * residuals, which their payloads report, and train on.
   */
  static final int RUNS_KEPT = 4;

  /** Run -> partition -> round -> residual; runs in order of last use. */
  private static final Map<String, Map<Integer, TreeMap<Integer, Residual>>> RUNS =
      new LinkedHashMap<>(16, 0.75f, true);

  private ResidualStore() {}

  /**
   * The residual {@code round} of {@code partition} wrote in {@code run}, if this executor still
   * has it.
   */
  static synchronized Optional<Residual> read(String run, int partition, int round) {
    Map<Integer, TreeMap<Integer, Residual>> partitions = RUNS.get(run);
    TreeMap<Integer, Residual> rounds = partitions == null ? null : partitions.get(partition);
    return Optional.ofNullable(rounds == null ? null : rounds.get(round));
  }

  /**
   * Keeps what {@code round} of {@code partition} wrote, unless it holds one already: a retried
   * task computes the same from the same input, and a zombie attempt of an earlier round must not
   * replace what a later one reads. Writes of rounds older than the partition's newest are ignored.
   */
  static synchronized void write(String run, int partition, int round, Residual residual) {
    TreeMap<Integer, Residual> rounds =
        RUNS.computeIfAbsent(run, r -> new LinkedHashMap<>())
            .computeIfAbsent(partition, p -> new TreeMap<>());
    if (!rounds.isEmpty() && rounds.lastKey() > round) {
      return;
    }
    rounds.putIfAbsent(round, residual);
    rounds.headMap(round - 1).clear();
    for (Iterator<String> eldest = RUNS.keySet().iterator(); RUNS.size() > RUNS_KEPT; ) {
      eldest.next();
      eldest.remove();
    }
  }

  /**
   * Keeps the residual of the round before {@code round} as this round's: for a partition that had
   * no rows in {@code round}, so its next round still finds what rounding lost.
   */
  public static synchronized void carry(String run, int partition, int round) {
    read(run, partition, round - 1).ifPresent(residual -> write(run, partition, round, residual));
  }

  /** Drops the residuals of {@code run} on this executor. */
  public static synchronized void clear(String run) {
    RUNS.remove(run);
  }
}
