package io.corgipile.bench;

/**
 * One epoch of one training run of the convergence benchmark: a row of its CSV.
 *
 * @param experiment what the run belongs to: {@code strategies} (every strategy at a 10% buffer) or
 *     {@code buffer-sweep} (corgipile at several buffer sizes)
 * @param dataset {@code higgs} or {@code flights}
 * @param strategy {@code none}, {@code window}, {@code block}, {@code corgipile}, {@code
 *     shuffle-once}, {@code full-shuffle}, {@code mllib-lr} or {@code mllib-svc}
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
 *     this epoch, of the share of positive labels; a uniform shuffle gives about p(1-p)/chunk,
 *     sorted data read in order up to p(1-p). NaN for MLlib's solvers
 * @param peakHeapBytes the peak of used heap during the run, sampled and taken before every
 *     collection (see {@link HeapPeak}; driver and executors share a JVM in local mode), the same
 *     on every record of a run; before issue 13 (CSVs without the two columns below) the sum of the
 *     heap pools' peaks
 * @param storageBytesRead bytes the JVM had the kernel fetch from storage in the epoch's job
 *     (read_bytes of /proc/self/io: page cache hits not counted); -1 in CSVs written before issue
 *     13
 * @param peakBufferBytes the scan metric peakBufferBytes of the run (the most memory one task's
 *     shuffle buffers allocated), the same on every record of a run; 0 without buffers, -1 in CSVs
 *     written before issue 13
 */
public record EpochRecord(
    String experiment,
    String dataset,
    String strategy,
    double bufferPercent,
    int epoch,
    double objective,
    double testAccuracy,
    double testAuc,
    double epochSeconds,
    double cumulativeSeconds,
    long bytesRead,
    double shuffleQuality,
    long peakHeapBytes,
    long storageBytesRead,
    long peakBufferBytes) {

  /**
   * A record of a CSV written before issue 13, without storage bytes and buffer peak (-1 for both).
   */
  public EpochRecord(
      String experiment,
      String dataset,
      String strategy,
      double bufferPercent,
      int epoch,
      double objective,
      double testAccuracy,
      double testAuc,
      double epochSeconds,
      double cumulativeSeconds,
      long bytesRead,
      double shuffleQuality,
      long peakHeapBytes) {
    this(
        experiment,
        dataset,
        strategy,
        bufferPercent,
        epoch,
        objective,
        testAccuracy,
        testAuc,
        epochSeconds,
        cumulativeSeconds,
        bytesRead,
        shuffleQuality,
        peakHeapBytes,
        -1,
        -1);
  }

  /** The same epoch, counted in another experiment. */
  EpochRecord withExperiment(String experiment) {
    return new EpochRecord(
        experiment,
        dataset,
        strategy,
        bufferPercent,
        epoch,
        objective,
        testAccuracy,
        testAuc,
        epochSeconds,
        cumulativeSeconds,
        bytesRead,
        shuffleQuality,
        peakHeapBytes,
        storageBytesRead,
        peakBufferBytes);
  }

  /** The same epoch, ending at another time of its run. */
  EpochRecord withCumulativeSeconds(double seconds) {
    return new EpochRecord(
        experiment,
        dataset,
        strategy,
        bufferPercent,
        epoch,
        objective,
        testAccuracy,
        testAuc,
        epochSeconds,
        seconds,
        bytesRead,
        shuffleQuality,
        peakHeapBytes,
        storageBytesRead,
        peakBufferBytes);
  }
}
