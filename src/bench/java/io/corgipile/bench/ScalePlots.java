package io.corgipile.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;

/**
 * The charts of {@code scripts/bench scale}, as PNG files: per dataset and configuration, test
 * accuracy by epoch with a line per P; per dataset, test accuracy against the bytes the executors
 * sent back so far (Bagua's trade-off), a line per run.
 */
final class ScalePlots {
  private ScalePlots() {}

  /** Writes the charts into {@code dir}; returns their file names. */
  static List<String> write(Path dir, List<ScaleBenchmark.Epoch> epochs) throws IOException {
    List<String> written = new ArrayList<>();
    Map<String, List<ScaleBenchmark.Epoch>> byDataset =
        epochs.stream()
            .collect(
                Collectors.groupingBy(
                    ScaleBenchmark.Epoch::dataset, LinkedHashMap::new, Collectors.toList()));
    for (Map.Entry<String, List<ScaleBenchmark.Epoch>> data : byDataset.entrySet()) {
      Map<String, List<ScaleBenchmark.Epoch>> byConfig =
          data.getValue().stream()
              .collect(
                  Collectors.groupingBy(
                      ScaleBenchmark.Epoch::config, LinkedHashMap::new, Collectors.toList()));
      int n = 1;
      for (Map.Entry<String, List<ScaleBenchmark.Epoch>> config : byConfig.entrySet()) {
        XYChart chart = ReportPlots.chart("epoch", "test accuracy");
        chart.setTitle(data.getKey() + ": " + config.getKey());
        for (List<ScaleBenchmark.Epoch> run : runs(config.getValue()).values()) {
          ReportPlots.line(
              chart,
              "P=" + run.get(0).partitionsLabel(),
              run.stream().mapToDouble(ScaleBenchmark.Epoch::epoch).toArray(),
              run.stream().mapToDouble(ScaleBenchmark.Epoch::accuracy).toArray());
        }
        written.add(
            save(
                dir,
                chart,
                String.format(Locale.ROOT, "scale-%s-%d-by-epoch", data.getKey(), n++)));
      }
      XYChart bytes = ReportPlots.chart("MiB sent back by the executors so far", "test accuracy");
      bytes.setTitle(data.getKey() + ": accuracy against bytes");
      for (List<ScaleBenchmark.Epoch> run : runs(data.getValue()).values()) {
        double[] mebibytes = new double[run.size()];
        double sum = 0;
        for (int i = 0; i < run.size(); i++) {
          sum += run.get(i).bytesFrom() / (double) (1 << 20);
          mebibytes[i] = sum;
        }
        ScaleBenchmark.Epoch first = run.get(0);
        ReportPlots.line(
            bytes,
            "P="
                + first.partitionsLabel()
                + " "
                + (first.gradavg()
                    ? "gradavg lr " + first.step()
                    : first.sync()
                        + " "
                        + first.compression()
                        + (first.momentum() == 0 ? "" : " m" + first.momentum())),
            mebibytes,
            run.stream().mapToDouble(ScaleBenchmark.Epoch::accuracy).toArray());
      }
      written.add(save(dir, bytes, "scale-" + data.getKey() + "-by-bytes"));
    }
    return written;
  }

  /** The epochs grouped by run (configuration and P), in the order they were measured. */
  private static Map<String, List<ScaleBenchmark.Epoch>> runs(List<ScaleBenchmark.Epoch> epochs) {
    return epochs.stream()
        .collect(
            Collectors.groupingBy(
                e -> e.config() + "|" + e.partitions(), LinkedHashMap::new, Collectors.toList()));
  }

  private static String save(Path dir, XYChart chart, String name) throws IOException {
    BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapFormat.PNG);
    return name + ".png";
  }
}
