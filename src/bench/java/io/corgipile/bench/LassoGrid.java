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
import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.regression.LinearRegression;
import org.apache.spark.ml.regression.LinearRegressionModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;

/**
 * {@code scripts/bench lasso grid}: the lasso goal of issue 42 on a grid of generated shapes the
 * defaults were not tuned on. Per cell (rows x features, correlation within blocks, regParam a
 * fraction of the smallest one that zeroes every coefficient), repetitions alternate MLlib's OWL-QN
 * ({@code LinearRegression}, elasticNetParam 1, standardization on as ScheduledLasso's default) and
 * {@code ScheduledLasso} at its default params; per repetition OWL-QN's final objective and
 * seconds, and ScheduledLasso's seconds to reach that objective within a relative {@link
 * #TARGET_GAP} (from its objective history with timestamps) and its whole fit. Writes grid.csv
 * (every fit), summary.md (medians per cell, the whole grid) and ratio-by-cell.png.
 */
final class LassoGrid {
  private LassoGrid() {}

  /** The goal's relative gap to OWL-QN's final objective. */
  static final double TARGET_GAP = 1e-3;

  /** The goal: at most this share of OWL-QN's seconds. */
  static final double GOAL = 2.0 / 3.0;

  record Options(
      List<long[]> shapes,
      double[] correlations,
      double[] lambdaRatios,
      int block,
      int stride,
      int reps,
      int partitions,
      Path out,
      Path data,
      long seed,
      List<String[]> lassoParams) {

    static final String USAGE =
        "grid --shapes [50000x500,200000x500,50000x2000] --correlations [0,0.5,0.8,0.95]"
            + " --lambda-ratios [0.05] --block [25] --stride [10] --reps [3] --partitions [2]"
            + " --out [docs/benchmarks/results/lasso-grid] --data [target/bench-data] --seed [2]"
            + " --lasso-params [none: the defaults; name=value,... to set ScheduledLasso params]";

    static Options parse(String[] args) {
      List<long[]> shapes = shapes("50000x500,200000x500,50000x2000");
      double[] correlations = {0, 0.5, 0.8, 0.95};
      double[] lambdaRatios = {0.05};
      int block = 25;
      int stride = 10;
      int reps = 3;
      int partitions = 2;
      Path out = BenchReport.RESULTS.resolve("lasso-grid");
      Path data = Path.of("target/bench-data");
      long seed = 2;
      List<String[]> lassoParams = List.of();
      for (int i = 0; i < args.length; i += 2) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(
              "Cannot read option " + args[i] + ": it needs a value; options: " + USAGE);
        }
        String v = args[i + 1];
        switch (args[i]) {
          case "--shapes" -> shapes = shapes(v);
          case "--correlations" -> correlations = numbers(v);
          case "--lambda-ratios" -> lambdaRatios = numbers(v);
          case "--block" -> block = Integer.parseInt(v);
          case "--stride" -> stride = Integer.parseInt(v);
          case "--reps" -> reps = Integer.parseInt(v);
          case "--partitions" -> partitions = Integer.parseInt(v);
          case "--out" -> out = Path.of(v);
          case "--data" -> data = Path.of(v);
          case "--seed" -> seed = Long.parseLong(v);
          case "--lasso-params" ->
              lassoParams = Arrays.stream(v.split(",")).map(kv -> kv.split("=", 2)).toList();
          default ->
              throw new IllegalArgumentException(
                  "Cannot read option " + args[i] + ": options are " + USAGE);
        }
      }
      return new Options(
          shapes,
          correlations,
          lambdaRatios,
          block,
          stride,
          reps,
          partitions,
          out,
          data,
          seed,
          lassoParams);
    }

    private static List<long[]> shapes(String list) {
      return Arrays.stream(list.split(","))
          .map(
              s -> {
                String[] nm = s.replace("_", "").split("x");
                return new long[] {Long.parseLong(nm[0]), Long.parseLong(nm[1])};
              })
          .toList();
    }

    private static double[] numbers(String list) {
      return Arrays.stream(list.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
  }

  /** One fit of the grid. */
  record Fit(
      String cell,
      long rows,
      int features,
      double correlation,
      double lambdaRatio,
      double regParam,
      int rep,
      String solver,
      double seconds,
      double secondsToTarget,
      double objective,
      int nonZeros,
      int iterations,
      int passes,
      double load) {}

  static void run(String[] args) throws IOException {
    Options o = Options.parse(args);
    SparkSession spark =
        SparkSession.builder()
            .appName("corgipile-lasso-grid")
            .master(System.getProperty("spark.master", "local[" + o.partitions() + "]"))
            .config("spark.ui.enabled", "false")
            .getOrCreate();
    Files.createDirectories(o.out());
    List<Fit> fits = new ArrayList<>();
    boolean warm = false;
    for (long[] shape : o.shapes()) {
      for (double correlation : o.correlations()) {
        LassoBenchmark.Settings s =
            LassoBenchmark.Settings.parse(
                new String[] {
                  "--rows", Long.toString(shape[0]),
                  "--features", Long.toString(shape[1]),
                  "--block", Integer.toString(o.block()),
                  "--correlation", Double.toString(correlation),
                  "--stride", Integer.toString(o.stride()),
                  "--partitions", Integer.toString(o.partitions()),
                  "--data", o.data().toString(),
                  "--seed", Long.toString(o.seed())
                });
        Path table = s.table();
        if (!Files.exists(table.resolve("_SUCCESS"))) {
          LassoBenchmark.generate(spark, s).write().mode("overwrite").parquet(table.toString());
        }
        Dataset<Row> data = spark.read().parquet(table.toString());
        double lambdaMax = lambdaMax(data);
        if (!warm) {
          Dataset<Row> sample = data.limit(5000);
          owlqn(0.05 * lambdaMax).setMaxIter(5).fit(sample);
          lasso(o, 0.05 * lambdaMax).setMaxIter(20).fit(sample);
          warm = true;
        }
        for (double ratio : o.lambdaRatios()) {
          double regParam = ratio * lambdaMax;
          String cell =
              String.format(
                  Locale.ROOT, "%dx%d rho=%s lambda=%s", shape[0], shape[1], correlation, ratio);
          LassoBenchmark.Objective objective = new LassoBenchmark.Objective(data, regParam);
          for (int rep = 1; rep <= o.reps(); rep++) {
            double load = load();
            long t0 = System.nanoTime();
            LinearRegressionModel mllib = owlqn(regParam).fit(data);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double target = objective.of(mllib.coefficients(), mllib.intercept());
            Fit a =
                new Fit(
                    cell,
                    shape[0],
                    (int) shape[1],
                    correlation,
                    ratio,
                    regParam,
                    rep,
                    "owlqn",
                    seconds,
                    seconds,
                    target,
                    nonZeros(mllib.coefficients()),
                    mllib.summary().totalIterations(),
                    -1, // at <= 4096 features MLlib's default solver iterates on the Gram matrix
                    load);
            fits.add(a);
            log(a);
            load = load();
            t0 = System.nanoTime();
            ScheduledLassoSummary summary;
            int nonZeros;
            try {
              ScheduledLassoModel model = lasso(o, regParam).fit(data);
              summary = model.summary();
              nonZeros = nonZeros(model.coefficients());
            } catch (LassoDivergenceException e) {
              summary = e.summary();
              nonZeros = -1;
            }
            seconds = (System.nanoTime() - t0) / 1e9;
            double[] f = summary.objectiveHistory();
            double[] sec = summary.secondsHistory();
            double toTarget = Double.NaN;
            for (int t = 0; t < f.length && Double.isNaN(toTarget); t++) {
              if (f[t] <= target * (1 + TARGET_GAP)) {
                toTarget = sec[t];
              }
            }
            int[] passes = summary.passesHistory();
            Fit b =
                new Fit(
                    cell,
                    shape[0],
                    (int) shape[1],
                    correlation,
                    ratio,
                    regParam,
                    rep,
                    "scheduled-lasso",
                    seconds,
                    toTarget,
                    f[f.length - 1],
                    nonZeros,
                    summary.totalIterations(),
                    passes[passes.length - 1],
                    load);
            fits.add(b);
            log(b);
            write(o, fits);
          }
        }
      }
    }
    write(o, fits);
    spark.stop();
  }

  private static void log(Fit f) {
    System.err.printf(
        Locale.ROOT,
        "[lasso grid] %s rep %d %s: %.2f s (to target %.2f s), objective %.10g, %d non-zeros,"
            + " %d iterations, %d passes, load %.2f%n",
        f.cell(),
        f.rep(),
        f.solver(),
        f.seconds(),
        f.secondsToTarget(),
        f.objective(),
        f.nonZeros(),
        f.iterations(),
        f.passes(),
        f.load());
  }

  private static LinearRegression owlqn(double regParam) {
    return new LinearRegression()
        .setRegParam(regParam)
        .setElasticNetParam(1.0)
        .setStandardization(ScheduledLassoParams.STANDARDIZATION.defaultValue());
  }

  private static ScheduledLasso lasso(Options o, double regParam) {
    ScheduledLasso lasso = new ScheduledLasso().setRegParam(regParam);
    for (String[] kv : o.lassoParams()) {
      Param<Object> param = (Param<Object>) lasso.getParam(kv[0]);
      lasso.set(param, param.jsonDecode(kv[1]));
    }
    return lasso;
  }

  /**
   * The smallest regParam that keeps every coefficient at zero (standardized penalty): max_j
   * |cov(x_j, y)| / sd(x_j).
   */
  static double lambdaMax(Dataset<Row> data) {
    double[] m =
        data.javaRDD()
            .map(
                row -> {
                  double y = row.getDouble(0);
                  double[] x = ((Vector) row.getAs(1)).toArray();
                  double[] acc = new double[3 * x.length + 2];
                  for (int j = 0; j < x.length; j++) {
                    acc[3 * j] = x[j];
                    acc[3 * j + 1] = x[j] * x[j];
                    acc[3 * j + 2] = x[j] * y;
                  }
                  acc[3 * x.length] = y;
                  acc[3 * x.length + 1] = 1;
                  return acc;
                })
            .reduce(
                (a, b) -> {
                  for (int i = 0; i < a.length; i++) {
                    a[i] += b[i];
                  }
                  return a;
                });
    int p = (m.length - 2) / 3;
    double n = m[3 * p + 1];
    double ym = m[3 * p] / n;
    double max = 0;
    for (int j = 0; j < p; j++) {
      double mean = m[3 * j] / n;
      double var = m[3 * j + 1] / n - mean * mean;
      double cov = m[3 * j + 2] / n - mean * ym;
      if (var > 0) {
        max = Math.max(max, Math.abs(cov) / Math.sqrt(var));
      }
    }
    return max;
  }

  private static int nonZeros(Vector v) {
    return (int) Arrays.stream(v.toArray()).filter(x -> x != 0).count();
  }

  /** The machine's 1-minute load average. */
  private static double load() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    if (s.length == 0) {
      return Double.NaN;
    }
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static void write(Options o, List<Fit> fits) throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(o.out().resolve("grid.csv")))) {
      w.println(
          "cell,rows,features,correlation,lambda_ratio,reg_param,rep,solver,seconds,"
              + "seconds_to_target,objective,non_zeros,iterations,passes,load1");
      for (Fit f : fits) {
        w.printf(
            Locale.ROOT,
            "%s,%d,%d,%s,%s,%.6g,%d,%s,%.3f,%.3f,%.12g,%d,%d,%d,%.2f%n",
            f.cell(),
            f.rows(),
            f.features(),
            f.correlation(),
            f.lambdaRatio(),
            f.regParam(),
            f.rep(),
            f.solver(),
            f.seconds(),
            f.secondsToTarget(),
            f.objective(),
            f.nonZeros(),
            f.iterations(),
            f.passes(),
            f.load());
      }
    }
    List<String> cells = fits.stream().map(Fit::cell).distinct().toList();
    StringBuilder md =
        new StringBuilder("# ScheduledLasso at its defaults beside OWL-QN: a grid\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Produced by `%s` (%s). Generated tables (seed %d, blocks of %d features sharing a"
                + " factor with correlation rho, a true coefficient on every %d-th feature, label"
                + " noise 1), regParam = lambda x the smallest regParam that zeroes every"
                + " coefficient; %d partitions on local[%d]. Per repetition MLlib's"
                + " LinearRegression (OWL-QN, elasticNetParam 1, its defaults otherwise) then"
                + " ScheduledLasso at its defaults%s; seconds include reading the Parquet table."
                + " MLlib's default solver (auto) at up to 4096 features is its normal-equation"
                + " one: one pass computes the Gram matrix X^T X, then OWL-QN iterates on it."
                + " Goal: ScheduledLasso reaches OWL-QN's final objective within a relative %s in"
                + " at most 2/3 of OWL-QN's seconds. Medians of %d repetitions; load is the"
                + " 1-minute load average (2 cores) at the fits' starts.%n%n",
            System.getenv().getOrDefault("BENCH_COMMAND", "LassoBenchmark grid"),
            System.getenv().getOrDefault("BENCH_CODE", "code unknown"),
            o.seed(),
            o.block(),
            o.stride(),
            o.partitions(),
            o.partitions(),
            o.lassoParams().isEmpty()
                ? ""
                : " except "
                    + String.join(
                        ", ", o.lassoParams().stream().map(kv -> String.join("=", kv)).toList()),
            TARGET_GAP,
            o.reps()));
    md.append(
        "| cell | regParam | OWL-QN objective | OWL-QN s | OWL-QN non-zeros | ScheduledLasso s to"
            + " target | whole fit s | ratio (to target / OWL-QN) | goal <= 0.67 | non-zeros |"
            + " rounds | passes | load |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n");
    List<double[]> ratios = new ArrayList<>();
    int met = 0;
    for (String cell : cells) {
      List<Fit> a = fits.stream().filter(f -> f.cell().equals(cell) && !isLasso(f)).toList();
      List<Fit> b = fits.stream().filter(f -> f.cell().equals(cell) && isLasso(f)).toList();
      if (a.isEmpty() || b.isEmpty()) {
        continue;
      }
      double owlSeconds = median(a.stream().mapToDouble(Fit::seconds).toArray());
      double[] toTarget =
          b.stream()
              .mapToDouble(
                  f -> Double.isNaN(f.secondsToTarget()) ? Double.MAX_VALUE : f.secondsToTarget())
              .toArray();
      double lassoToTarget = median(toTarget);
      boolean reached = lassoToTarget < Double.MAX_VALUE;
      double ratio = reached ? lassoToTarget / owlSeconds : Double.NaN;
      boolean ok = reached && ratio <= GOAL;
      met += ok ? 1 : 0;
      ratios.add(new double[] {ratios.size() + 1, reached ? ratio : Double.NaN});
      Fit last = b.get(b.size() - 1);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.4g | %.7g | %.1f | %d | %s | %.1f | %s | %s | %d | %d | %d | %.1f |%n",
              cell,
              a.get(0).regParam(),
              a.get(0).objective(),
              owlSeconds,
              a.get(0).nonZeros(),
              reached ? String.format(Locale.ROOT, "%.1f", lassoToTarget) : "not reached",
              median(b.stream().mapToDouble(Fit::seconds).toArray()),
              reached ? String.format(Locale.ROOT, "%.2f", ratio) : "",
              ok ? "met" : "NOT met",
              last.nonZeros(),
              last.iterations(),
              last.passes(),
              median(
                  fits.stream()
                      .filter(f -> f.cell().equals(cell))
                      .mapToDouble(Fit::load)
                      .toArray())));
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%nGoal met in %d of %d cells.%n%n![ratio by cell](ratio-by-cell.png)%n",
            met,
            ratios.size()));
    Files.writeString(o.out().resolve("summary.md"), md.toString());
    XYChart chart =
        ReportPlots.chart(
            "cell (the summary's rows, in order)",
            "ScheduledLasso's seconds to OWL-QN's objective / OWL-QN's seconds");
    ReportPlots.line(
        chart,
        "ScheduledLasso (median)",
        ratios.stream().mapToDouble(r -> r[0]).toArray(),
        ratios.stream().mapToDouble(r -> r[1]).toArray());
    ReportPlots.reference(chart, "goal: 2/3", 1, Math.max(1, ratios.size()), GOAL);
    ReportPlots.reference(chart, "level with OWL-QN", 1, Math.max(1, ratios.size()), 1.0);
    BitmapEncoder.saveBitmap(chart, o.out().resolve("ratio-by-cell").toString(), BitmapFormat.PNG);
  }

  private static boolean isLasso(Fit f) {
    return !f.solver().equals("owlqn");
  }
}
