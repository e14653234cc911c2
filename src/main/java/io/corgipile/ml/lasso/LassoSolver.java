package io.corgipile.ml.lasso;

import static org.apache.spark.sql.functions.col;

import io.corgipile.ml.InvalidTrainingDataException;
import io.corgipile.ml.LassoDivergenceException;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.ScheduledLassoParams;
import io.corgipile.ml.ScheduledLassoSummary;
import io.corgipile.ml.common.FitJobs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rounds of {@link ScheduledLasso}: scheduled parallel coordinate descent on row-partitioned
 * data.
 *
 * <p>The rows are read once into a {@link ColumnBlock} per partition and cached; so are the
 * residuals s = y - Xb of each partition. A pass over the data is one Spark job: every partition
 * first applies the updates since the last pass to its residuals (the new residuals are cached, the
 * old dropped), then returns its {@link CandidateSums} for the drawn candidates; the driver adds
 * them in partition order. A round then runs the dependency check, moves the kept coefficients to
 * their soft-thresholded minimizers (all at once, from the same residuals) and computes the
 * objective after the update exactly from the Gram block; with the dependency check, the Gram block
 * also brings the turned-away candidates' products up to date, so the next rounds schedule them
 * without another pass (see {@link Pass}). The Gram products of feature pairs are kept on the
 * driver ({@link GramCache}), so a task computes only those of pairs not drawn together before.
 * Every {@code refreshInterval} passes the residuals are recomputed from the coefficients instead,
 * which cuts their lineage (a lost partition is rebuilt from at most that many updates) and the
 * rounding the updates add up. Everything is added in a fixed order and the scheduler draws from
 * one seeded generator, so a seed gives the same model bit for bit, also when Spark reruns a task.
 */
public final class LassoSolver {
  private static final Logger LOG = LoggerFactory.getLogger(LassoSolver.class);

  /**
   * Training has diverged when the objective reaches this multiple of the zero coefficients' (which
   * the optimum is below): parallel updates that overshoot grow it geometrically, and waiting for
   * infinity takes hundreds of rounds.
   */
  static final double DIVERGED = 1e6;

  /**
   * With the automatic schedule size, the most sweeps over a pass's candidates before the next pass
   * (they stop sooner once a sweep lowers the objective by less than {@code tol}, relative).
   */
  static final int MAX_SWEEPS_PER_PASS = 50;

  /** With the automatic schedule size, the fewest and the most candidates of a pass. */
  static final int MIN_AUTO_CANDIDATES = 64;

  static final int MAX_AUTO_CANDIDATES = 1024;

  /** The fitted coefficients and intercept, in the features' original scale. */
  public record Result(double[] coefficients, double intercept, ScheduledLassoSummary summary) {}

  private final ScheduledLassoParams params;
  private final LassoDataErrors errors;
  private final double lambda;
  private final double alpha;
  private final int minCandidates;
  private final int maxCandidates;

  public LassoSolver(ScheduledLassoParams params, String labelCol, String featuresCol) {
    this(params, labelCol, featuresCol, MIN_AUTO_CANDIDATES, MAX_AUTO_CANDIDATES);
  }

  /** With other bounds on a pass's candidates, for tests of supports larger than a pass holds. */
  LassoSolver(
      ScheduledLassoParams params,
      String labelCol,
      String featuresCol,
      int minCandidates,
      int maxCandidates) {
    this.params = params;
    this.errors = new LassoDataErrors(labelCol, featuresCol);
    this.lambda = params.getRegParam();
    this.alpha = params.getElasticNetParam();
    this.minCandidates = minCandidates;
    this.maxCandidates = maxCandidates;
  }

  public Result fit(Dataset<?> dataset) {
    long start = System.nanoTime();
    LassoDataErrors rowErrors = errors; // the tasks take the errors, not this solver
    JavaRDD<ColumnBlock> blocks =
        dataset
            .select(col(errors.labelCol()).cast(DataTypes.DoubleType), col(errors.featuresCol()))
            .toJavaRDD()
            .mapPartitionsWithIndex(
                (partition, it) -> List.of(ColumnBlock.of(partition, it, rowErrors)).iterator(),
                true);
    blocks.setName("ScheduledLasso rows by column").persist(StorageLevel.MEMORY_AND_DISK());
    List<JavaRDD<double[]>> cached = new ArrayList<>();
    try {
      FeatureMoments moments = moments(blocks);
      return new Rounds(blocks, moments, cached, start).run();
    } finally {
      cached.forEach(r -> r.unpersist(false));
      blocks.unpersist(false);
    }
  }

  private FeatureMoments moments(JavaRDD<ColumnBlock> blocks) {
    FitJobs.describe(
        blocks.context(), LassoDataErrors.ESTIMATOR, "rows by column and their moments");
    List<FeatureMoments> parts = blocks.map(ColumnBlock::moments).collect();
    int numFeatures = -1;
    for (FeatureMoments m : parts) {
      if (m.rows() == 0) {
        continue;
      }
      if (numFeatures >= 0 && m.numFeatures() != numFeatures) {
        throw errors.sizes(m.numFeatures(), numFeatures);
      }
      numFeatures = m.numFeatures();
    }
    FeatureMoments total = FeatureMoments.mergeInOrder(parts);
    if (total == null) {
      throw new InvalidTrainingDataException(
          LassoDataErrors.CANNOT_TRAIN + "the dataset has no rows");
    }
    return total;
  }

  /** One training run's state on the driver. */
  private final class Rounds {
    private final JavaRDD<ColumnBlock> blocks;
    private final List<JavaRDD<double[]>> cached;
    private final long start;
    private final int p;
    private final double n;
    private final boolean intercept;

    /** The means the features are centered on: theirs with an intercept, else 0. */
    private final double[] center;

    /**
     * Mean square of each (centered) feature: the curvature of the objective along its coefficient.
     */
    private final double[] curvature;

    /**
     * The penalty's scale per coefficient: the feature's standard deviation with standardization,
     * else 1.
     */
    private final double[] penaltyScale;

    private final double[] beta;
    private final double labelMean;

    /**
     * The label's root mean square (centered with an intercept): priorities are changes of a
     * coefficient's contribution in these units, so the floor means the same whatever the label's
     * scale.
     */
    private final double labelScale;

    private final CoordinateScheduler scheduler;

    /**
     * {@code scheduleSize} 0 with the dependency check: every pass computes every feature's product
     * with the residuals (its optimality check and the next draw's priorities), draws its
     * candidates from the current support ({@link #autoCandidates}) and sweeps them until they stop
     * paying.
     */
    private final boolean auto;

    private final int sweep;
    private final GramCache gramCache = new GramCache();
    private JavaRDD<double[]> residuals;
    private JavaRDD<double[]> previous;
    private int sinceRefresh;

    /**
     * The coefficients changed since the last pass, in the order they first moved, and their summed
     * changes: the residuals take them at the start of the next pass, one column update per
     * coefficient however many rounds moved it (a pass's sweeps move its support many times).
     */
    private final List<Integer> pendingMoved = new ArrayList<>();

    private final double[] pendingDeltas;

    private final boolean[] pending;

    /** Passes over the data so far. */
    private int passes;

    Rounds(
        JavaRDD<ColumnBlock> blocks, FeatureMoments m, List<JavaRDD<double[]>> cached, long start) {
      this.blocks = blocks;
      this.cached = cached;
      this.start = start;
      this.p = m.numFeatures();
      this.n = m.rows();
      this.intercept = params.getFitIntercept();
      this.labelMean = m.labelMean();
      double labelDeviation =
          Math.sqrt((intercept ? m.labelM2() : m.labelM2() + n * labelMean * labelMean) / n);
      this.labelScale = labelDeviation > 0 ? labelDeviation : 1.0;
      center = new double[p];
      curvature = new double[p];
      penaltyScale = new double[p];
      beta = new double[p];
      pendingDeltas = new double[p];
      pending = new boolean[p];
      List<Integer> eligible = new ArrayList<>();
      for (int j = 0; j < p; j++) {
        center[j] = intercept ? m.mean(j) : 0.0;
        curvature[j] = intercept ? m.m2(j) / n : m.meanSquare(j);
        penaltyScale[j] = params.getStandardization() ? m.std(j) : 1.0;
        if (curvature[j] > 0 && penaltyScale[j] > 0) {
          eligible.add(j);
        }
      }
      int[] movable = eligible.stream().mapToInt(Integer::intValue).toArray();
      int size =
          ScheduledLassoParams.scheduleSizeFor(params.getScheduleSize(), params.getScheduler());
      auto = size == 0;
      scheduler =
          new CoordinateScheduler(
              CoordinateSchedule.of(params.getScheduler()),
              size,
              params.getCandidateFactor(),
              params.getPriorityFloor(),
              params.getCorrelationThreshold(),
              movable,
              p,
              params.getSeed());
      sweep =
          auto
              ? Math.max(1, movable.length)
              : Math.max(1, (int) Math.ceil((double) movable.length / size));
    }

    Result run() {
      List<Double> objectives = new ArrayList<>();
      List<Long> updates = new ArrayList<>();
      List<Integer> rejected = new ArrayList<>();
      List<Double> seconds = new ArrayList<>();
      List<Integer> passes = new ArrayList<>();
      updates.add(0L);
      rejected.add(0);
      seconds.add(elapsed());
      passes.add(0);
      long updated = 0;
      int lastCheck = -sweep;
      Pass pass = null;
      if (auto) {
        // one pass for every feature's possible move from zero: the first candidates' priorities
        optimal(Double.MAX_VALUE);
      }
      for (int round = 0; round < params.getMaxIter(); round++) {
        String what = "round " + (round + 1) + " of at most " + params.getMaxIter();
        FitJobs.describe(blocks.context(), LassoDataErrors.ESTIMATOR, what);
        if (pass != null && pass.remaining.isEmpty() && auto && pass.sweepAgain(objectives)) {
          pass.refill();
        }
        if (pass == null || pass.remaining.isEmpty()) {
          pass = new Pass();
          if (round == 0) {
            objectives.add(pass.rss / (2 * n) + penalty());
          }
          if (pass.drawn.length == 0) {
            break; // no feature varies: the intercept alone is the model
          }
          if (pass.optimal && round > 0) {
            break;
          }
          pass.sweepStart = objectives.get(objectives.size() - 1);
        }
        Pass current = pass;
        int[] kept =
            current.descending(
                scheduler.keep(
                    current.remaining.stream().mapToInt(Integer::intValue).toArray(),
                    (a, b) ->
                        current.gram(a, b)
                            / (n
                                * Math.sqrt(
                                    curvature[current.drawn[a]] * curvature[current.drawn[b]]))));
        int considered = current.remaining.size();
        double objective = current.update(kept) / (2 * n) + penalty();
        updated += kept.length;
        objectives.add(objective);
        updates.add(updated);
        rejected.add(considered - kept.length);
        seconds.add(elapsed());
        passes.add(this.passes);
        if (!(objective <= DIVERGED * objectives.get(0))) {
          throw new LassoDivergenceException(
              LassoDataErrors.CANNOT_TRAIN
                  + "the objective is "
                  + objective
                  + " after round "
                  + (round + 1)
                  + ", "
                  + DIVERGED
                  + " times or more that of zero coefficients (scheduler "
                  + params.getScheduler()
                  + ", scheduleSize "
                  + params.getScheduleSize()
                  + "): updates of correlated"
                  + " coefficients in one round undid each other; use scheduler "
                  + CoordinateSchedule.PRIORITY_DEPENDENCY.text()
                  + " or a smaller scheduleSize",
              summary(objectives, updates, rejected, seconds, passes));
        }
        LOG.debug(
            "ScheduledLasso round {}: objective {}, {} updated, {} rejected",
            round + 1,
            objective,
            kept.length,
            considered - kept.length);
        if (!auto && stalled(objectives) && round - lastCheck >= sweep) {
          lastCheck = round;
          pass = null; // the check's pass changes priorities: the next round draws anew
          if (optimal(objective)) {
            break;
          }
        }
      }
      double b = intercept ? labelMean - dot(center, beta) : 0.0;
      LOG.info(
          "ScheduledLasso: {} rounds, objective {}",
          objectives.size() - 1,
          objectives.get(objectives.size() - 1));
      return new Result(beta.clone(), b, summary(objectives, updates, rejected, seconds, passes));
    }

    /**
     * One pass over the data and the rounds it serves. The pass computes, for the drawn candidates,
     * their products with the residuals and their Gram block; a round updates the candidates the
     * scheduler keeps, all at once from the same residuals, and the Gram block then brings the
     * others' products up to date exactly (g_k -= G_kS d_S), so the candidates the dependency check
     * turned away can be scheduled in the next round without another pass. Each candidate is
     * updated at most once per pass; without the dependency check a pass serves one round.
     */
    private final class Pass {
      final int[] drawn;

      /**
       * The candidates' centered products with the centered residuals, kept current through the
       * pass's rounds.
       */
      final double[] gradient;

      /** The candidates' centered Gram block, packed ({@link #pair}). */
      final double[] gram;

      /** Positions in {@link #drawn} not yet scheduled in this pass, in draw order. */
      final List<Integer> remaining = new ArrayList<>();

      double rss;

      /**
       * With the automatic size: no coefficient could lower the objective by more than {@code tol}
       * (relative) at the pass's start.
       */
      boolean optimal;

      /** The objective when the current sweep over the candidates began, and sweeps so far. */
      double sweepStart;

      int sweeps = 1;

      Pass() {
        drawn = auto ? autoCandidates() : scheduler.draw();
        int k = drawn.length;
        int[] missing = missingPairs(drawn);
        int[] features = auto ? withTheRest(drawn) : drawn;
        CandidateSums sums = sums(features, missing);
        rss = centeredSquares(sums);
        double[] products = centeredProducts(sums, features);
        gradient = Arrays.copyOf(products, k);
        if (auto) {
          optimal = optimal(features, products, rss / (2 * n) + penalty());
        }
        for (int i = 0; i < missing.length / 2; i++) {
          gramCache.put(drawn[missing[2 * i]], drawn[missing[2 * i + 1]], sums.gram()[i]);
        }
        gram = new double[k * (k - 1) / 2];
        for (int i = 0; i < missing.length / 2; i++) {
          gram[pair(missing[2 * i], missing[2 * i + 1])] = sums.gram()[i];
        }
        for (int a = 1; a < k; a++) {
          for (int b = 0; b < a; b++) {
            double raw = gramCache.get(drawn[a], drawn[b]);
            int at = pair(a, b);
            gram[at] =
                (Double.isNaN(raw) ? gram[at] : raw) - n * center[drawn[a]] * center[drawn[b]];
          }
        }
        refill();
      }

      /** Every candidate again, in draw order, for another sweep. */
      void refill() {
        remaining.clear();
        for (int a = 0; a < drawn.length; a++) {
          remaining.add(a);
        }
      }

      /**
       * Whether the sweep that just ended lowered the objective enough to sweep the candidates
       * again before the next pass (starting one if so).
       */
      boolean sweepAgain(List<Double> objectives) {
        double now = objectives.get(objectives.size() - 1);
        boolean again =
            sweeps < MAX_SWEEPS_PER_PASS
                && sweepStart - now > Math.max(params.getTol(), 1e-12) * Math.abs(now);
        if (again) {
          sweeps++;
          sweepStart = now;
        }
        return again;
      }

      double gram(int a, int b) {
        return a == b ? n * curvature[drawn[a]] : gram[pair(Math.max(a, b), Math.min(a, b))];
      }

      /**
       * The longest of {@code kept}, its first half, its first quarter, ... down to one position,
       * whose moves together do not raise the objective. The dependency check compares candidates
       * in pairs; many weakly correlated ones moved at once can still overshoot together (the bound
       * on parallel updates of Shotgun, Bradley et al. 2011, shrinks as the features' Gram matrix
       * grows ill-conditioned, as when rows are barely more than features), where one move alone
       * never raises it. Only with the dependency check: the other schedules are the baselines it
       * is measured against, as published.
       */
      int[] descending(int[] kept) {
        while (scheduler.checksDependency() && kept.length > 1 && change(kept) > 0) {
          kept = Arrays.copyOf(kept, kept.length / 2);
        }
        return kept;
      }

      /** The objective's change if the coefficients at {@code kept} moved to their minimizers. */
      private double change(int[] kept) {
        double[] delta = new double[kept.length];
        double rssChange = 0;
        double penaltyChange = 0;
        for (int i = 0; i < kept.length; i++) {
          int j = drawn[kept[i]];
          delta[i] = minimizer(j, gradient[kept[i]]) - beta[j];
          rssChange += delta[i] * (delta[i] * gram(kept[i], kept[i]) - 2 * gradient[kept[i]]);
          for (int i2 = 0; i2 < i; i2++) {
            rssChange += 2 * delta[i] * delta[i2] * gram(kept[i], kept[i2]);
          }
          double before = penaltyScale[j] * beta[j];
          double after = penaltyScale[j] * (beta[j] + delta[i]);
          penaltyChange +=
              lambda
                  * (alpha * (Math.abs(after) - Math.abs(before))
                      + (1 - alpha) / 2 * (after * after - before * before));
        }
        return rssChange / (2 * n) + penaltyChange;
      }

      /**
       * Moves the coefficients at positions {@code kept} to their minimizers, all from the same
       * residuals, and returns the centered residuals' sum of squares after the move: |r - X_S d|^2
       * = |r|^2 - 2 d.X_S^T r + d^T (X_S^T X_S) d.
       */
      double update(int[] kept) {
        double[] delta = new double[kept.length];
        for (int i = 0; i < kept.length; i++) {
          int j = drawn[kept[i]];
          delta[i] = minimizer(j, gradient[kept[i]]) - beta[j];
        }
        for (int i = 0; i < kept.length; i++) {
          rss += delta[i] * (delta[i] * gram(kept[i], kept[i]) - 2 * gradient[kept[i]]);
          for (int i2 = 0; i2 < i; i2++) {
            rss += 2 * delta[i] * delta[i2] * gram(kept[i], kept[i2]);
          }
        }
        for (int i = 0; i < kept.length; i++) {
          int j = drawn[kept[i]];
          beta[j] += delta[i];
          scheduler.changed(j, delta[i] * Math.sqrt(curvature[j]) / labelScale);
          if (delta[i] != 0) {
            if (!pending[j]) {
              pending[j] = true;
              pendingMoved.add(j);
            }
            pendingDeltas[j] += delta[i];
          }
          remaining.remove(Integer.valueOf(kept[i]));
        }
        if (auto) {
          // every candidate's product stays current: a later sweep updates them all again
          for (int b = 0; b < drawn.length; b++) {
            for (int i = 0; i < kept.length; i++) {
              gradient[b] -= gram(b, kept[i]) * delta[i];
            }
          }
        } else {
          for (int b : remaining) {
            for (int i = 0; i < kept.length; i++) {
              gradient[b] -= gram(b, kept[i]) * delta[i];
            }
          }
        }
        if (!scheduler.checksDependency()) {
          remaining.clear();
        }
        return rss;
      }
    }

    private ScheduledLassoSummary summary(
        List<Double> objectives,
        List<Long> updates,
        List<Integer> rejected,
        List<Double> seconds,
        List<Integer> passes) {
      return new ScheduledLassoSummary(
          objectives.stream().mapToDouble(Double::doubleValue).toArray(),
          updates.stream().mapToLong(Long::longValue).toArray(),
          rejected.stream().mapToInt(Integer::intValue).toArray(),
          seconds.stream().mapToDouble(Double::doubleValue).toArray(),
          passes.stream().mapToInt(Integer::intValue).toArray(),
          (long) n);
    }

    /**
     * Coefficient j's minimizer with the others fixed, from its feature's centered product with the
     * residuals.
     */
    private double minimizer(int j, double product) {
      double rho = product / n + curvature[j] * beta[j];
      return softThreshold(rho, lambda * alpha * penaltyScale[j])
          / (curvature[j] + lambda * (1 - alpha) * penaltyScale[j] * penaltyScale[j]);
    }

    /** Whether the objective changed by less than {@code tol}, relative, over the last sweep. */
    private boolean stalled(List<Double> objectives) {
      int last = objectives.size() - 1;
      if (params.getTol() == 0 || last < sweep) {
        return false;
      }
      double now = objectives.get(last);
      return Math.abs(objectives.get(last - sweep) - now) <= params.getTol() * Math.abs(now);
    }

    /**
     * Whether no coefficient alone could lower the objective by more than {@code tol}, relative:
     * one pass computes every feature's product with the residuals. A stall of the objective is not
     * enough, since the scheduler may have drawn only coefficients that stay put; so the ones that
     * could still move get their possible change as priority, and the rounds go on.
     */
    private boolean optimal(double objective) {
      int[] all = scheduler.eligible();
      return optimal(all, centeredProducts(sums(all, new int[0]), all), objective);
    }

    /**
     * As {@link #optimal(double)}, from the products {@code gradient} of {@code all} with the
     * current residuals.
     */
    private boolean optimal(int[] all, double[] gradient, double objective) {
      boolean optimal = true;
      for (int a = 0; a < all.length; a++) {
        int j = all[a];
        double move = minimizer(j, gradient[a]) - beta[j];
        double l2 = lambda * (1 - alpha) * penaltyScale[j] * penaltyScale[j];
        // moving beta_j to its minimizer lowers the objective by (c_j + l2)/2 move^2 at least
        boolean couldMove =
            (curvature[j] + l2) / 2 * move * move > params.getTol() * Math.abs(objective);
        optimal &= !couldMove;
        if (couldMove || auto) {
          // with the automatic size every pass sets every priority: the next draw's candidates
          scheduler.changed(j, move * Math.sqrt(curvature[j]) / labelScale);
        }
      }
      return optimal;
    }

    /**
     * A pass's candidates with the automatic size: every coefficient now non-zero (the support,
     * which must adjust to whatever joins it, as in glmnet's active set), then as many more again,
     * at least {@value #MIN_AUTO_CANDIDATES}, drawn by priority (the last pass's possible moves),
     * in all at most {@value #MAX_AUTO_CANDIDATES}. A support too large to leave room for {@value
     * #MIN_AUTO_CANDIDATES} more gives only its part drawn by priority, so that every pass still
     * lets new coefficients in and the rest of the support takes its turn in the next passes.
     */
    private int[] autoCandidates() {
      boolean[] outside = new boolean[p];
      List<Integer> support = new ArrayList<>();
      for (int j : scheduler.eligible()) {
        if (beta[j] != 0) {
          support.add(j);
        } else {
          outside[j] = true;
        }
      }
      int[] kept =
          support.size() + minCandidates <= maxCandidates
              ? support.stream().mapToInt(Integer::intValue).toArray()
              : scheduler.draw(maxCandidates - minCandidates, outside);
      boolean[] taken = new boolean[p];
      for (int j : kept) {
        taken[j] = true;
      }
      int more = Math.min(maxCandidates - kept.length, Math.max(minCandidates, kept.length));
      int[] drawn = scheduler.draw(more, taken);
      int[] candidates = Arrays.copyOf(kept, kept.length + drawn.length);
      System.arraycopy(drawn, 0, candidates, kept.length, drawn.length);
      return candidates;
    }

    /** {@code drawn}, then every other eligible feature, in index order. */
    private int[] withTheRest(int[] drawn) {
      int[] eligible = scheduler.eligible();
      boolean[] in = new boolean[p];
      for (int j : drawn) {
        in[j] = true;
      }
      int[] all = Arrays.copyOf(drawn, eligible.length);
      int at = drawn.length;
      for (int j : eligible) {
        if (!in[j]) {
          all[at++] = j;
        }
      }
      return all;
    }

    /**
     * Positions (a, b), a > b, of the drawn features whose product the cache does not know, grouped
     * by a.
     */
    private int[] missingPairs(int[] drawn) {
      List<Integer> pairs = new ArrayList<>();
      for (int a = 1; a < drawn.length; a++) {
        for (int b = 0; b < a; b++) {
          if (Double.isNaN(gramCache.get(drawn[a], drawn[b]))) {
            pairs.add(a);
            pairs.add(b);
          }
        }
      }
      return pairs.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The rows' sums for {@code features} and {@code pairs} of them over the residuals with the
     * pending updates applied.
     */
    private CandidateSums sums(int[] features, int[] pairs) {
      JavaRDD<double[]> next = advance();
      List<CandidateSums> parts =
          blocks
              .zipPartitions(
                  next,
                  (b, r) ->
                      List.of(CandidateSums.of(b.next(), r.next(), features, pairs)).iterator())
              .collect();
      release();
      return CandidateSums.total(parts, features.length);
    }

    /**
     * The residuals with the pending updates applied, cached (computed by the job that first uses
     * them).
     */
    private JavaRDD<double[]> advance() {
      JavaRDD<double[]> next;
      if (residuals == null || sinceRefresh >= params.getRefreshInterval()) {
        next = refreshed();
        sinceRefresh = 0;
      } else {
        int[] moved = pendingMoved.stream().mapToInt(Integer::intValue).toArray();
        double[] deltas = new double[moved.length];
        for (int i = 0; i < moved.length; i++) {
          deltas[i] = pendingDeltas[moved[i]];
        }
        next = updated(residuals, moved, deltas);
        sinceRefresh++;
      }
      for (int j : pendingMoved) {
        pendingDeltas[j] = 0;
        pending[j] = false;
      }
      pendingMoved.clear();
      passes++;
      next.setName("ScheduledLasso residuals").persist(StorageLevel.MEMORY_AND_DISK());
      cached.add(next);
      previous = residuals;
      residuals = next;
      return next;
    }

    /** Drops the residuals the last job replaced. */
    private void release() {
      if (previous != null) {
        previous.unpersist(false);
        cached.remove(previous);
        previous = null;
      }
    }

    /**
     * The squares of the centered residuals r = s - mean(s) (with an intercept), from their raw
     * sums.
     */
    private double centeredSquares(CandidateSums sums) {
      double shift = intercept ? sums.residualSum() / n : 0.0;
      return sums.residualSquares() - (intercept ? n * shift * shift : 0.0);
    }

    /** Centered features' products with the centered residuals: sum x_j s - mean(x_j) sum s. */
    private double[] centeredProducts(CandidateSums sums, int[] features) {
      double[] products = new double[features.length];
      for (int a = 0; a < features.length; a++) {
        products[a] = sums.residualProducts()[a] - center[features[a]] * sums.residualSum();
      }
      return products;
    }

    /** The residuals y - Xb recomputed from the coefficients. */
    private JavaRDD<double[]> refreshed() {
      JavaSparkContext sc = JavaSparkContext.fromSparkContext(blocks.context());
      Broadcast<double[]> coefficients = sc.broadcast(beta.clone());
      return blocks.map(
          block -> {
            double[] s = block.labels.clone();
            double[] b = coefficients.value();
            for (int j = 0; j < block.numFeatures(); j++) {
              if (b[j] != 0) {
                block.addTo(s, j, -b[j]);
              }
            }
            return s;
          });
    }

    /**
     * The residuals after the previous round's changes {@code deltas} to coefficients {@code
     * moved}.
     */
    private JavaRDD<double[]> updated(JavaRDD<double[]> residuals, int[] moved, double[] deltas) {
      return blocks.zipPartitions(
          residuals,
          (b, r) -> {
            ColumnBlock block = b.next();
            double[] s = r.next().clone();
            for (int i = 0; i < moved.length; i++) {
              block.addTo(s, moved[i], -deltas[i]);
            }
            return List.of(s).iterator();
          });
    }

    private double penalty() {
      double l1 = 0;
      double l2 = 0;
      for (int j = 0; j < p; j++) {
        double scaled = penaltyScale[j] * beta[j];
        l1 += Math.abs(scaled);
        l2 += scaled * scaled;
      }
      return lambda * (alpha * l1 + (1 - alpha) / 2 * l2);
    }

    private double elapsed() {
      return (System.nanoTime() - start) / 1e9;
    }
  }

  /** Packed index of pair (a, b), a > b, in a lower triangle without its diagonal. */
  private static int pair(int a, int b) {
    return a * (a - 1) / 2 + b;
  }

  static double softThreshold(double value, double threshold) {
    return Math.signum(value) * Math.max(Math.abs(value) - threshold, 0.0);
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }
}
