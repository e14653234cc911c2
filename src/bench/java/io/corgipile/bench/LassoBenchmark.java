package io.corgipile.bench;

import io.corgipile.ml.LassoDivergenceException;
import io.corgipile.ml.ScheduledLasso;
import io.corgipile.ml.ScheduledLassoModel;
import io.corgipile.ml.ScheduledLassoParams;
import io.corgipile.ml.ScheduledLassoSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.TaskContext;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.regression.LinearRegression;
import org.apache.spark.ml.regression.LinearRegressionModel;
import org.apache.spark.ml.stat.Summarizer;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;

/**
 * {@code scripts/bench lasso}: {@link ScheduledLasso} under each scheduler and schedule size beside
 * MLlib's {@code LinearRegression} (OWL-QN) at the same regParam, on generated regression data with
 * blocks of correlated features and a sparse true model. Both start from the same uncached Parquet
 * table; the objective is the lasso's, (1/2n)|y - Xb - c|^2 + regParam |s b|_1, s the features'
 * standard deviations, computed for MLlib's coefficients by one pass here. Writes lasso.csv (one
 * line per round), the objective gap against coefficient updates and against seconds (PNG), and
 * summary.md.
 */
public final class LassoBenchmark {
  private LassoBenchmark() {}

  private static final StructType SCHEMA =
      new StructType()
          .add("label", DataTypes.DoubleType, false)
          .add("features", SQLDataTypes.VectorType(), false);

  /** The goal's relative gap to MLlib's final objective. */
  static final double TARGET_GAP = 1e-4;

  /** Gaps below this are drawn at it: the optimum itself is only known to rounding. */
  private static final double GAP_FLOOR = 1e-12;

  record Settings(
      long rows,
      int features,
      int block,
      double correlation,
      int stride,
      double regParam,
      int[] sizes,
      String[] schedulers,
      int maxRounds,
      double tol,
      int partitions,
      Path out,
      Path data,
      long seed,
      double[] floors,
      double candidateFactor) {

    static final String USAGE =
        "--rows [100000] --features [1000] --block [25] --correlation [0.9] --stride [10]"
            + " --reg-param [0.05] --sizes [8,32,128] --schedulers ["
            + String.join(",", ScheduledLassoParams.SCHEDULERS)
            + "] --max-rounds [2000] --tol [1e-8] --partitions [2] --out ["
            + BenchReport.RESULTS.resolve("lasso")
            + "] --data [target/bench-data] --seed [1] --floors [none: extra runs of"
            + " priority+dependency at the largest L, one per priorityFloor] --candidate-factor"
            + " [the param's default]";

    static Settings parse(String[] args) {
      long rows = 100_000;
      int features = 1000;
      int block = 25;
      double correlation = 0.9;
      int stride = 10;
      double regParam = 0.05;
      int[] sizes = {8, 32, 128};
      String[] schedulers = ScheduledLassoParams.SCHEDULERS.toArray(new String[0]);
      int maxRounds = 2000;
      double tol = 1e-8;
      int partitions = 2;
      Path out = BenchReport.RESULTS.resolve("lasso");
      Path data = Path.of("target/bench-data");
      long seed = 1;
      double[] floors = {};
      double candidateFactor = ScheduledLassoParams.DEFAULT_CANDIDATE_FACTOR;
      for (int i = 0; i < args.length; i += 2) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(
              "Cannot read option " + args[i] + ": it needs a value; options: " + USAGE);
        }
        String v = args[i + 1];
        switch (args[i]) {
          case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
          case "--features" -> features = Integer.parseInt(v);
          case "--block" -> block = Integer.parseInt(v);
          case "--correlation" -> correlation = Double.parseDouble(v);
          case "--stride" -> stride = Integer.parseInt(v);
          case "--reg-param" -> regParam = Double.parseDouble(v);
          case "--sizes" ->
              sizes = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
          case "--schedulers" -> schedulers = schedulers(v);
          case "--max-rounds" -> maxRounds = Integer.parseInt(v);
          case "--tol" -> tol = Double.parseDouble(v);
          case "--partitions" -> partitions = Integer.parseInt(v);
          case "--out" -> out = Path.of(v);
          case "--data" -> data = Path.of(v);
          case "--seed" -> seed = Long.parseLong(v);
          case "--candidate-factor" -> candidateFactor = Double.parseDouble(v);
          case "--floors" ->
              floors = Arrays.stream(v.split(",")).mapToDouble(Double::parseDouble).toArray();
          default ->
              throw new IllegalArgumentException(
                  "Cannot read option " + args[i] + ": options are " + USAGE);
        }
      }
      return new Settings(
          rows,
          features,
          block,
          correlation,
          stride,
          regParam,
          sizes,
          schedulers,
          maxRounds,
          tol,
          partitions,
          out,
          data,
          seed,
          floors,
          candidateFactor);
    }

    private static String[] schedulers(String list) {
      String[] names = list.split(",");
      for (String name : names) {
        if (!ScheduledLassoParams.SCHEDULERS.contains(name)) {
          throw new IllegalArgumentException(
              "Cannot use scheduler '"
                  + name
                  + "': allowed values are "
                  + String.join(", ", ScheduledLassoParams.SCHEDULERS));
        }
      }
      return names;
    }

    /** The table's folder: one per shape and seed, reused when complete. */
    Path table() {
      return data.resolve(
          String.format(
              Locale.ROOT,
              "lasso-%d-%d-b%d-c%s-s%d-seed%d",
              rows,
              features,
              block,
              correlation,
              stride,
              seed));
    }
  }

  /**
   * The true coefficient of feature j: non-zero on every stride-th feature, alternating signs, 1 to
   * 2 in size.
   */
  static double trueCoefficient(int j, int stride) {
    return j % stride == 0 ? (j / stride % 2 == 0 ? 1 : -1) * (1 + (j % 7) / 7.0) : 0.0;
  }

  /**
   * Rows of features in blocks whose values share a standard normal factor (correlation {@code
   * correlation} within a block), label = the true model + 2 + standard normal noise. Each
   * partition draws from its own seeded generator, so the table is the same on every run.
   */
  static Dataset<Row> generate(SparkSession spark, Settings s) {
    long rows = s.rows();
    int p = s.features();
    int block = s.block();
    double shared = Math.sqrt(s.correlation());
    double own = Math.sqrt(1 - s.correlation());
    int stride = s.stride();
    long seed = s.seed();
    return spark
        .range(0, rows, 1, s.partitions())
        .mapPartitions(
            (Iterator<Long> ids) -> {
              Random random = new Random(seed * 1_000_003L + TaskContext.getPartitionId());
              List<Row> out = new ArrayList<>();
              while (ids.hasNext()) {
                ids.next();
                double[] x = new double[p];
                double y = 2 + random.nextGaussian();
                double factor = 0;
                for (int j = 0; j < p; j++) {
                  if (j % block == 0) {
                    factor = random.nextGaussian();
                  }
                  x[j] = shared * factor + own * random.nextGaussian();
                  y += trueCoefficient(j, stride) * x[j];
                }
                out.add(RowFactory.create(y, Vectors.dense(x)));
              }
              return out.iterator();
            },
            Encoders.row(SCHEMA));
  }

  /** One line of the results: a round of a run, or MLlib's fit (round -1). */
  record Point(
      String run,
      String scheduler,
      int size,
      int round,
      long updates,
      double seconds,
      double objective,
      int rejected) {}

  /** A run's outcome for the summary. */
  record Outcome(
      String run,
      String scheduler,
      int size,
      int rounds,
      long updates,
      double seconds,
      double objective,
      int nonZeros,
      String end,
      double secondsToTarget) {}

  public static void main(String[] args) throws IOException {
    if (args.length > 0 && args[0].equals("grid")) {
      LassoGrid.run(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    Settings s = Settings.parse(args);
    SparkSession spark =
        SparkSession.builder()
            .appName("corgipile-lasso")
            .master(System.getProperty("spark.master", "local[" + s.partitions() + "]"))
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    Files.createDirectories(s.out());
    Path table = s.table();
    if (!Files.exists(table.resolve("_SUCCESS"))) {
      generate(spark, s).write().mode("overwrite").parquet(table.toString());
    }
    Dataset<Row> data = spark.read().parquet(table.toString());
    Objective objective = new Objective(data, s.regParam());

    // JIT and Spark warm-up on a sample, so the first measured fit is not the one that pays for it
    Dataset<Row> sample = data.limit(5000);
    mllib(s).setMaxIter(5).fit(sample);
    new ScheduledLasso().setRegParam(s.regParam()).setMaxIter(20).fit(sample);

    List<Point> points = new ArrayList<>();
    List<Outcome> outcomes = new ArrayList<>();
    long t0 = System.nanoTime();
    LinearRegressionModel mllib = mllib(s).fit(data);
    double mllibSeconds = (System.nanoTime() - t0) / 1e9;
    double mllibObjective = objective.of(mllib.coefficients(), mllib.intercept());
    int mllibIterations = mllib.summary().totalIterations();
    points.add(new Point("mllib", "owlqn", 0, -1, 0, mllibSeconds, mllibObjective, 0));
    outcomes.add(
        new Outcome(
            "mllib",
            "owlqn",
            0,
            mllibIterations,
            0,
            mllibSeconds,
            mllibObjective,
            nonZeros(mllib.coefficients()),
            "maxIter " + mllib.getMaxIter() + ", tol " + mllib.getTol(),
            mllibSeconds));
    System.err.printf(
        Locale.ROOT,
        "[lasso] MLlib: %d iterations, %.1f s, objective %.10g%n",
        mllibIterations,
        mllibSeconds,
        mllibObjective);
    double target = mllibObjective * (1 + TARGET_GAP);

    List<ScheduledLasso> runs = new ArrayList<>();
    for (String scheduler : s.schedulers()) {
      for (int size : s.sizes()) {
        runs.add(new ScheduledLasso().setScheduler(scheduler).setScheduleSize(size));
      }
    }
    int largest = Arrays.stream(s.sizes()).max().orElse(ScheduledLassoParams.DEFAULT_SCHEDULE_SIZE);
    for (double floor : s.floors()) {
      runs.add(
          new ScheduledLasso()
              .setScheduler(ScheduledLassoParams.SCHEDULERS.get(0))
              .setScheduleSize(largest)
              .setPriorityFloor(floor));
    }
    for (ScheduledLasso lasso : runs) {
      String scheduler = lasso.getScheduler();
      int size = lasso.getScheduleSize();
      String run =
          scheduler
              + " L="
              + size
              + (lasso.isSet(lasso.priorityFloor()) ? " floor=" + lasso.getPriorityFloor() : "");
      lasso
          .setRegParam(s.regParam())
          .setMaxIter(s.maxRounds())
          .setTol(s.tol())
          .setCandidateFactor(s.candidateFactor());
      ScheduledLassoSummary summary;
      String end;
      int nonZeros = -1;
      double checked;
      try {
        ScheduledLassoModel model = lasso.fit(data);
        summary = model.summary();
        nonZeros = nonZeros(model.coefficients());
        checked = objective.of(model.coefficients(), model.intercept());
        end =
            summary.totalIterations() < s.maxRounds()
                ? "converged (tol " + s.tol() + ")"
                : "max rounds";
      } catch (LassoDivergenceException e) {
        summary = e.summary();
        checked = Double.NaN;
        end = "diverged at round " + summary.totalIterations();
      }
      double[] f = summary.objectiveHistory();
      double[] sec = summary.secondsHistory();
      long[] upd = summary.updatesHistory();
      int[] rej = summary.rejectedPerRound();
      double toTarget = Double.NaN;
      for (int t = 0; t < f.length; t++) {
        points.add(new Point(run, scheduler, size, t, upd[t], sec[t], f[t], rej[t]));
        if (Double.isNaN(toTarget) && f[t] <= target) {
          toTarget = sec[t];
        }
      }
      outcomes.add(
          new Outcome(
              run,
              scheduler,
              size,
              f.length - 1,
              upd[f.length - 1],
              sec[f.length - 1],
              f[f.length - 1],
              nonZeros,
              end,
              toTarget));
      System.err.printf(
          Locale.ROOT,
          "[lasso] %s: %d rounds, %.1f s, objective %.10g (checked: %.10g), %s;"
              + " MLlib's objective %s%n",
          run,
          f.length - 1,
          sec[f.length - 1],
          f[f.length - 1],
          checked,
          end,
          Double.isNaN(toTarget)
              ? "not reached"
              : String.format(Locale.ROOT, "reached at %.1f s", toTarget));
    }
    write(s, points, outcomes, mllibObjective, mllibSeconds);
    spark.stop();
  }

  private static LinearRegression mllib(Settings s) {
    return new LinearRegression().setRegParam(s.regParam()).setElasticNetParam(1.0);
  }

  private static int nonZeros(Vector v) {
    return (int) Arrays.stream(v.toArray()).filter(x -> x != 0).count();
  }

  /**
   * The lasso's objective of any coefficients on the table, by one pass (and one for the features'
   * deviations).
   */
  static final class Objective implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final transient Dataset<Row> data;
    private final double regParam;
    private final double[] std;
    private final long rows;

    Objective(Dataset<Row> data, double regParam) {
      this.data = data;
      this.regParam = regParam;
      Row stats =
          data.select(Summarizer.metrics("std", "count").summary(data.col("features")).as("s"))
              .select("s.std", "s.count")
              .head();
      this.std = ((Vector) stats.getAs(0)).toArray();
      this.rows = stats.getLong(1);
    }

    double of(Vector coefficients, double intercept) {
      double[] b = coefficients.toArray();
      double squares =
          data.javaRDD()
              .map(
                  row -> {
                    double r = row.getDouble(0) - intercept;
                    double[] x = ((Vector) row.getAs(1)).toArray();
                    for (int j = 0; j < b.length; j++) {
                      r -= x[j] * b[j];
                    }
                    return r * r;
                  })
              .reduce(Double::sum);
      double l1 = 0;
      for (int j = 0; j < b.length; j++) {
        l1 += Math.abs(std[j] * b[j]);
      }
      return squares / (2.0 * rows) + regParam * l1;
    }
  }

  private static void write(
      Settings s,
      List<Point> points,
      List<Outcome> outcomes,
      double mllibObjective,
      double mllibSeconds)
      throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(s.out().resolve("lasso.csv")))) {
      w.println("run,scheduler,schedule_size,round,updates,seconds,objective,rejected");
      for (Point p : points) {
        w.printf(
            Locale.ROOT,
            "%s,%s,%d,%d,%d,%.4f,%.17g,%d%n",
            p.run(),
            p.scheduler(),
            p.size(),
            p.round(),
            p.updates(),
            p.seconds(),
            p.objective(),
            p.rejected());
      }
    }
    double best =
        points.stream()
            .mapToDouble(Point::objective)
            .filter(Double::isFinite)
            .min()
            .orElse(Double.NaN);
    XYChart byUpdates =
        ReportPlots.chart("coefficient updates", "relative objective gap to the best seen");
    XYChart bySeconds = ReportPlots.chart("seconds", "relative objective gap to the best seen");
    for (XYChart c : List.of(byUpdates, bySeconds)) {
      c.getStyler().setYAxisLogarithmic(true);
    }
    double maxUpdates = 1;
    for (Outcome o : outcomes) {
      if (o.run().equals("mllib")) {
        continue;
      }
      List<Point> run = points.stream().filter(p -> p.run().equals(o.run())).toList();
      double[] gap =
          run.stream()
              .mapToDouble(p -> Math.max((p.objective() - best) / best, GAP_FLOOR))
              .toArray();
      ReportPlots.line(byUpdates, o.run(), run.stream().mapToDouble(Point::updates).toArray(), gap);
      ReportPlots.line(bySeconds, o.run(), run.stream().mapToDouble(Point::seconds).toArray(), gap);
      maxUpdates = Math.max(maxUpdates, o.updates());
    }
    double mllibGap = Math.max((mllibObjective - best) / best, GAP_FLOOR);
    ReportPlots.reference(byUpdates, "MLlib OWL-QN's final objective", 0, maxUpdates, mllibGap);
    ReportPlots.line(
        bySeconds, "MLlib OWL-QN (fit)", new double[] {mllibSeconds}, new double[] {mllibGap});
    BitmapEncoder.saveBitmap(
        byUpdates, s.out().resolve("gap-by-updates").toString(), BitmapFormat.PNG);
    BitmapEncoder.saveBitmap(
        bySeconds, s.out().resolve("gap-by-seconds").toString(), BitmapFormat.PNG);
    Files.writeString(
        s.out().resolve("summary.md"), summary(s, outcomes, mllibObjective, mllibSeconds));
  }

  static String summary(
      Settings s, List<Outcome> outcomes, double mllibObjective, double mllibSeconds) {
    StringBuilder md =
        new StringBuilder("# Lasso by scheduled coordinate descent beside MLlib\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Produced by `%s` (%s). %,d rows, %,d features in blocks of %d with correlation %s"
                + " within a block, a true coefficient on every %d-th feature, label noise 1;"
                + " regParam %s (the lasso: elasticNetParam 1, standardization on, an intercept),"
                + " %d partitions on local[%d]. MLlib's LinearRegression runs with its defaults"
                + " otherwise (OWL-QN, maxIter 100, tol 1e-6); ScheduledLasso with maxIter %d, tol"
                + " %s and candidateFactor %s. Seconds include reading the Parquet table and"
                + " caching it, for both. The gap is to MLlib's final objective, %.10g: the goal is"
                + " to reach it within a relative %s.%n%n",
            System.getenv().getOrDefault("BENCH_COMMAND", "LassoBenchmark"),
            System.getenv().getOrDefault("BENCH_CODE", "code unknown"),
            s.rows(),
            s.features(),
            s.block(),
            s.correlation(),
            s.stride(),
            s.regParam(),
            s.partitions(),
            s.partitions(),
            s.maxRounds(),
            s.tol(),
            s.candidateFactor(),
            mllibObjective,
            TARGET_GAP));
    md.append(
        "| run | rounds | coefficient updates | seconds | final objective | gap to MLlib |"
            + " non-zeros | end | seconds to MLlib's objective | vs MLlib's seconds |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
    for (Outcome o : outcomes) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,d | %.1f | %.10g | %.2e | %s | %s | %s | %s |%n",
              o.run(),
              o.rounds(),
              o.updates(),
              o.seconds(),
              o.objective(),
              (o.objective() - mllibObjective) / mllibObjective,
              o.nonZeros() < 0 ? "" : Integer.toString(o.nonZeros()),
              o.end(),
              Double.isNaN(o.secondsToTarget())
                  ? "not reached"
                  : String.format(Locale.ROOT, "%.1f", o.secondsToTarget()),
              Double.isNaN(o.secondsToTarget())
                  ? ""
                  : String.format(Locale.ROOT, "%.2fx", mllibSeconds / o.secondsToTarget())));
    }
    Outcome fastest =
        outcomes.stream()
            .filter(o -> !o.run().equals("mllib") && !Double.isNaN(o.secondsToTarget()))
            .min(java.util.Comparator.comparingDouble(Outcome::secondsToTarget))
            .orElse(null);
    md.append("\n- Goal, time: ");
    md.append(
        fastest == null
            ? "no ScheduledLasso run reached MLlib's objective: NOT met."
            : String.format(
                Locale.ROOT,
                "%s reached MLlib's objective (relative gap %s) in %.1f s, MLlib took %.1f s"
                    + " (%.2fx): %s.",
                fastest.run(),
                TARGET_GAP,
                fastest.secondsToTarget(),
                mllibSeconds,
                mllibSeconds / fastest.secondsToTarget(),
                fastest.secondsToTarget() < mllibSeconds ? "met" : "NOT met"));
    int largest = Arrays.stream(s.sizes()).max().orElse(0);
    Outcome random = find(outcomes, "random L=" + largest);
    Outcome scheduled = find(outcomes, ScheduledLassoParams.SCHEDULERS.get(0) + " L=" + largest);
    if (random != null && scheduled != null) {
      md.append(
          String.format(
              Locale.ROOT,
              "%n- Goal, L=%d: random %s (final gap %.2e); priority+dependency %s"
                  + " (final gap %.2e).",
              largest,
              random.end(),
              (random.objective() - mllibObjective) / mllibObjective,
              scheduled.end(),
              (scheduled.objective() - mllibObjective) / mllibObjective));
    }
    md.append(
        "\n\n![gap by updates](gap-by-updates.png)\n\n![gap by seconds](gap-by-seconds.png)\n");
    return md.toString();
  }

  private static Outcome find(List<Outcome> outcomes, String run) {
    return outcomes.stream().filter(o -> o.run().equals(run)).findFirst().orElse(null);
  }
}
