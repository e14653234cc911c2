package io.corgipile.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** The epochs of one training run, in epoch order. */
record BenchRun(
    String experiment,
    String dataset,
    String strategy,
    double bufferPercent,
    List<EpochRecord> epochs) {

  /** Groups records by experiment, dataset, strategy and buffer, in the order they first appear. */
  static List<BenchRun> group(List<EpochRecord> records) {
    Map<List<Object>, List<EpochRecord>> byRun = new LinkedHashMap<>();
    for (EpochRecord r : records) {
      // Double.equals treats NaN as equal to itself, so runs without a buffer group too
      byRun
          .computeIfAbsent(
              List.of(r.experiment(), r.dataset(), r.strategy(), r.bufferPercent()),
              k -> new ArrayList<>())
          .add(r);
    }
    return byRun.values().stream().map(BenchRun::of).collect(Collectors.toList());
  }

  private static BenchRun of(List<EpochRecord> epochs) {
    List<EpochRecord> sorted =
        epochs.stream()
            .sorted(Comparator.comparingInt(EpochRecord::epoch))
            .collect(Collectors.toList());
    EpochRecord first = sorted.get(0);
    return new BenchRun(
        first.experiment(), first.dataset(), first.strategy(), first.bufferPercent(), sorted);
  }

  /** MLlib's solvers fit in one batch and report it as epoch 1. */
  boolean batch() {
    return strategy.startsWith("mllib-");
  }

  EpochRecord last() {
    return epochs.get(epochs.size() - 1);
  }

  double meanEpochSeconds() {
    return mean(EpochRecord::epochSeconds);
  }

  double meanBytesRead() {
    return mean(EpochRecord::bytesRead);
  }

  double meanShuffleQuality() {
    return mean(EpochRecord::shuffleQuality);
  }

  long peakHeapBytes() {
    return epochs.stream().mapToLong(EpochRecord::peakHeapBytes).max().getAsLong();
  }

  double meanStorageBytesRead() {
    return mean(r -> r.storageBytesRead() < 0 ? Double.NaN : r.storageBytesRead());
  }

  long peakBufferBytes() {
    return epochs.stream().mapToLong(EpochRecord::peakBufferBytes).max().getAsLong();
  }

  /** The mean over the epochs where {@code value} is not NaN; NaN if there are none. */
  double mean(ToDoubleFunction<EpochRecord> value) {
    return epochs.stream()
        .mapToDouble(value)
        .filter(v -> !Double.isNaN(v))
        .average()
        .orElse(Double.NaN);
  }

  double[] values(ToDoubleFunction<EpochRecord> value) {
    return epochs.stream().mapToDouble(value).toArray();
  }

  /** The first epoch whose test accuracy is at or above {@code target}, or null. */
  EpochRecord firstReaching(double target) {
    return epochs.stream().filter(r -> r.testAccuracy() >= target).findFirst().orElse(null);
  }
}
