package io.corgipile.bench;

/**
 * One epoch of one training run of the convergence benchmark: a row of its CSV.
 *
 * @param experiment what the run belongs to: {@code strategies} (every strategy at a 10% buffer) or
 *     {@code buffer-sweep} (corgipile at several buffer sizes)
 * @param dataset {@code higgs} or {@code flights}
 * @param strategy {@code none}, {@code window}, {@code block}, {@code corgipile}, {@code shuffle-once},
 *     {@code full-shuffle}, {@code mllib-lr} or {@code mllib-svc}
 * @param bufferPercent the buffer as a percent of a partition's rows; NaN where there is none
 * @param epoch from 1; MLlib's batch solvers report one record, epoch 1, for the whole fit
 * @param objective the trainer's objective after the epoch; NaN for MLlib's solvers
 * @param testAccuracy on the dataset's test set
 * @param testAuc area under the ROC curve on the test set
 * @param epochSeconds wall-clock seconds of the epoch (for MLlib's solvers: of the whole fit)
 * @param cumulativeSeconds seconds from the run's start to the end of this epoch
 * @param bytesRead bytes the JVM read in the epoch's job (rchar of /proc/self/io: Parquet and
 *     shuffle files, from disk or page cache)
 * @param shuffleQuality the variance, across the buffer-sized chunks of each partition's stream in
 *     this epoch, of the share of positive labels; a uniform shuffle gives about p(1-p)/chunk, sorted
 *     data read in order up to p(1-p). NaN for MLlib's solvers
 * @param peakHeapBytes an upper bound of the heap in use during the run, the sum of the heap pools'
 *     peaks (see {@link PeakHeap}; driver and executors share a JVM in
 *     local mode), the same on every record of a run
 */
public record EpochRecord(String experiment, String dataset, String strategy, double bufferPercent, int epoch,
    double objective, double testAccuracy, double testAuc, double epochSeconds, double cumulativeSeconds,
    long bytesRead, double shuffleQuality, long peakHeapBytes) {

  /** The same epoch, counted in another experiment. */
  EpochRecord withExperiment(String experiment) {
    return new EpochRecord(experiment, dataset, strategy, bufferPercent, epoch, objective, testAccuracy, testAuc,
        epochSeconds, cumulativeSeconds, bytesRead, shuffleQuality, peakHeapBytes);
  }

  /** The same epoch, ending at another time of its run. */
  EpochRecord withCumulativeSeconds(double seconds) {
    return new EpochRecord(experiment, dataset, strategy, bufferPercent, epoch, objective, testAccuracy, testAuc,
        epochSeconds, seconds, bytesRead, shuffleQuality, peakHeapBytes);
  }
}
