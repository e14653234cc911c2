package io.corgipile.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corgipile.ListeningSockets;
import io.corgipile.cli.Processes.Finished;
import io.corgipile.examples.HiggsShapedData;
import io.corgipile.ml.SGDClassificationModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.ml.PipelineModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real standalone cluster, one master and two workers from {@code scripts/local-cluster}, and the
 * training job submitted to it; the cluster is stopped whatever happens.
 */
class LocalClusterIT {
  @TempDir Path dir;

  @Test
  void theTrainingJobRunsOnATwoWorkerCluster() throws Exception {
    int[] ports = freePorts(2);
    Map<String, String> env =
        Map.of(
            "CORGIPILE_CLUSTER_DIR",
            dir.resolve("cluster").toString(),
            "CORGIPILE_MASTER_PORT",
            Integer.toString(ports[0]),
            "CORGIPILE_MASTER_WEBUI_PORT",
            Integer.toString(ports[1]),
            "CORGIPILE_WORKER_MEMORY",
            "1g");
    String master = "spark://127.0.0.1:" + env.get("CORGIPILE_MASTER_PORT");
    Path train = dir.resolve("train");
    Path test = dir.resolve("test");
    Processes.writeHiggs(train, test);
    try {
      Finished started = cluster(env, "start");
      assertThat(started.status()).as(started.output()).isZero();
      assertThat(started.output()).contains("master at " + master);
      Finished status = cluster(env, "status");
      assertThat(status.status()).as(status.output()).isZero();
      assertThat(status.output())
          .contains(
              "master: running", "worker-1: running", "worker-2: running", "master URL: " + master);

      Path model = dir.resolve("model");
      Path metrics = dir.resolve("metrics.json");
      Finished r;
      Set<ListeningSockets.Socket> sockets;
      // the cluster's processes, with their executors, and the job's driver (a child of this JVM)
      try (ListeningSockets.Watch watch =
          new ListeningSockets.Watch(
              () ->
                  Stream.concat(
                      Stream.of(ProcessHandle.current()),
                      clusterProcesses(dir.resolve("cluster/pids"))))) {
        r =
            Processes.run(
                Map.of(),
                6,
                List.of(
                    "scripts/corgipile-submit",
                    "--master",
                    master,
                    "--executor-memory",
                    "512m",
                    "--total-executor-cores",
                    "2",
                    "--input",
                    train.toString(),
                    "--features",
                    String.join(",", HiggsShapedData.featureNames()),
                    "--partitions",
                    "2",
                    "--epochs",
                    "3",
                    "--test",
                    test.toString(),
                    "--model",
                    model.toString(),
                    "--metrics",
                    metrics.toString()));
        sockets = watch.seen();
      }

      assertThat(r.status()).as(r.output()).isZero();
      assertThat(sockets)
          .as("master, workers, executors and driver listen on loopback only")
          .filteredOn(s -> !s.loopback())
          .isEmpty();
      assertThat(sockets)
          .as("the watch saw the master's port and the executors' servers")
          .anySatisfy(
              s ->
                  assertThat(s.port())
                      .isEqualTo(Integer.parseInt(env.get("CORGIPILE_MASTER_PORT"))))
          .anySatisfy(s -> assertThat(s.command()).contains("CoarseGrainedExecutorBackend"));
      JsonNode m = new ObjectMapper().readTree(metrics.toFile());
      assertThat(m.get("training").get("rowsPerEpoch").asLong()).isEqualTo(20_000);
      // 53% ones: a model that learned nothing scores 0.53, the logistic truth about 0.65
      assertThat(m.get("test").get("accuracy").asDouble()).isGreaterThan(0.6);
      // one stage: the classifier on the feature columns themselves (featuresCols)
      assertThat(PipelineModel.load(model.toString()).stages())
          .singleElement()
          .isInstanceOfSatisfying(
              SGDClassificationModel.class,
              sgd ->
                  assertThat(sgd.getFeaturesCols())
                      .containsExactly(HiggsShapedData.featureNames()));
      // the executors ran on the workers: each worker's folder has the application's executor
      assertThat(dir.resolve("cluster/work/worker-1")).isNotEmptyDirectory();
      assertThat(dir.resolve("cluster/work/worker-2")).isNotEmptyDirectory();
    } finally {
      Finished stopped = cluster(env, "stop");
      assertThat(stopped.status()).as(stopped.output()).isZero();
    }
    Finished after = cluster(env, "status");
    assertThat(after.status()).isEqualTo(3);
    assertThat(after.output()).contains("master: not running", "worker-2: not running");
  }

  private static Stream<ProcessHandle> clusterProcesses(Path pids) {
    try (Stream<Path> files = Files.list(pids)) {
      return files
          .map(
              f -> {
                try {
                  return ProcessHandle.of(Long.parseLong(Files.readString(f).strip()));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .flatMap(Optional::stream)
          .toList()
          .stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Finished cluster(Map<String, String> env, String command) throws Exception {
    return Processes.run(env, 3, List.of("scripts/local-cluster", command));
  }

  /** Distinct free ports: each socket stays bound until all are picked, so no port comes twice. */
  private static int[] freePorts(int count) throws IOException {
    ServerSocket[] sockets = new ServerSocket[count];
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        sockets[i] = new ServerSocket(0);
        ports[i] = sockets[i].getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : sockets) {
        if (socket != null) {
          socket.close();
        }
      }
    }
  }
}
