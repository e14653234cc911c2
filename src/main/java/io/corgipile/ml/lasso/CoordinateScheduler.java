package io.corgipile.ml.lasso;

import io.corgipile.ml.ScheduledLasso;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Picks the coefficients each round of {@link ScheduledLasso} updates (STRADS' scheduler, on the
 * driver). Candidates are drawn without replacement with probability proportional to their
 * priority, the size of the coefficient's last change (of its contribution x_j b_j, in root mean
 * squares of the label) plus a floor: coefficients that moved recently are likely to move again,
 * and one that stays at zero is still drawn now and then. The dependency check then walks the
 * candidates in draw order and keeps one only if its feature's absolute correlation with every
 * feature kept so far is at most the threshold. All draws come from one generator seeded once, so a
 * seed gives the same schedule on every run.
 */
public final class CoordinateScheduler {
  private final CoordinateSchedule schedule;

  /** The most coefficients a round keeps; every eligible one when the size is automatic. */
  private final int size;

  private final int candidates;
  private final double floor;
  private final double threshold;

  /** The coefficients that can change: their feature varies. */
  private final int[] eligible;

  private final double[] priority;
  private final SplittableRandom random;

  CoordinateScheduler(
      CoordinateSchedule schedule,
      int size,
      double candidateFactor,
      double floor,
      double threshold,
      int[] eligible,
      int numFeatures,
      long seed) {
    this.schedule = schedule;
    // 0: automatic (the dependency check alone bounds a round; the solver picks the candidates)
    this.size = size == 0 ? eligible.length : Math.min(size, eligible.length);
    this.candidates =
        schedule.checksDependency()
            ? (int) Math.min(eligible.length, Math.ceil(candidateFactor * this.size))
            : this.size;
    this.floor = floor;
    this.threshold = threshold;
    this.eligible = eligible;
    this.priority = new double[numFeatures];
    this.random = new SplittableRandom(seed);
  }

  /**
   * This round's candidates, in draw order: by Efraimidis and Spirakis' weighted sampling without
   * replacement, the largest keys log(u) / weight.
   */
  int[] draw() {
    return draw(candidates);
  }

  /** As {@link #draw()}, {@code candidates} of them (at most every eligible one). */
  int[] draw(int candidates) {
    return draw(candidates, null);
  }

  /**
   * As {@link #draw(int)}, leaving out the coefficients {@code excluded} marks (null: none), which
   * the caller schedules anyway.
   */
  int[] draw(int candidates, boolean[] excluded) {
    candidates = Math.min(candidates, eligible.length);
    if (candidates <= 0) {
      return new int[0];
    }
    PriorityQueue<double[]> top =
        new PriorityQueue<>(candidates + 1, (a, b) -> Double.compare(a[0], b[0]));
    for (int j : eligible) {
      if (excluded != null && excluded[j]) {
        continue;
      }
      double weight = schedule.byPriority() ? priority[j] + floor : 1.0;
      double u = 1.0 - random.nextDouble(); // in (0, 1]
      double key = Math.log(u) / weight;
      if (top.size() < candidates) {
        top.add(new double[] {key, j});
      } else if (key > top.peek()[0]) {
        top.poll();
        top.add(new double[] {key, j});
      }
    }
    double[][] drawn = top.toArray(new double[0][]);
    Arrays.sort(
        drawn, (a, b) -> a[0] != b[0] ? Double.compare(b[0], a[0]) : Double.compare(a[1], b[1]));
    return Arrays.stream(drawn).mapToInt(d -> (int) d[1]).toArray();
  }

  /** Correlations between the drawn features, by position in the draw. */
  interface Correlation {
    double between(int a, int b);
  }

  /**
   * Which of {@code positions} (in the draw, in draw order) to update together: all of them without
   * the dependency check, else the first {@code scheduleSize} that pass it.
   */
  int[] keep(int[] positions, Correlation correlation) {
    if (!schedule.checksDependency()) {
      return positions;
    }
    List<Integer> kept = new ArrayList<>();
    for (int i = 0; i < positions.length && kept.size() < size; i++) {
      int a = positions[i];
      boolean independent = true;
      for (int b : kept) {
        if (Math.abs(correlation.between(a, b)) > threshold) {
          independent = false;
          break;
        }
      }
      if (independent) {
        kept.add(a);
      }
    }
    return kept.stream().mapToInt(Integer::intValue).toArray();
  }

  boolean checksDependency() {
    return schedule.checksDependency();
  }

  /** The coefficients that can change. */
  int[] eligible() {
    return eligible;
  }

  /**
   * Records the change of coefficient j's contribution, in root mean squares of the label, as its
   * priority.
   */
  void changed(int j, double change) {
    priority[j] = Math.abs(change);
  }
}
