package io.corgipile.spark;

/**
 * What the jobs of one training round sent back to the driver, as {@link TaskResultMeter} counted
 * it.
 *
 * @param jobs the round's jobs the meter saw start
 * @param resultBytes the serialized task results of the successful task attempts, as the executors
 *     measured them ({@code TaskMetrics.resultSize})
 * @param shuffleBytesWritten shuffle bytes those attempts wrote (the slices of a reduction by
 *     slices)
 * @param tasks successful task attempts
 * @param failedAttempts task attempts that failed or were killed
 * @param jobMillis the jobs' durations from submission to end, summed
 * @param complete whether every job seen had ended; false when waiting for that timed out
 */
public record RoundTraffic(
    int jobs,
    long resultBytes,
    long shuffleBytesWritten,
    int tasks,
    int failedAttempts,
    long jobMillis,
    boolean complete) {}
