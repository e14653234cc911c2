package io.corgipile.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.corgipile.bench.FaultRuns;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training job on a two-worker {@code scripts/local-cluster} survives an executor JVM killed
 * with SIGKILL during an epoch, and a worker process killed likewise, each finishing with the model
 * and scores of the undisturbed run ({@link FaultRuns}; {@code scripts/fault-runs} runs more
 * kills). With int8 deltas too: error feedback's residuals are on the driver, not on the executor
 * that dies (local-mode tests cannot lose an executor).
 */
class FaultToleranceIT {
  @TempDir Path dir;

  @Test
  void aKilledExecutorAndAKilledWorkerLeaveTheModelAsItWas() throws Exception {
    List<FaultRuns.Run> runs = new FaultRuns(dir, 40_000, 6, "none").campaign(1, 1, 7, line -> {});
    assertThat(runs).extracting(FaultRuns.Run::kind).containsExactly("executor", "worker");
    for (FaultRuns.Run run : runs) {
      assertThat(run.exitStatus()).as("%s kill: the job's exit status", run.kind()).isZero();
      assertThat(run.difference()).as("%s kill: against the undisturbed run", run.kind()).isNull();
      assertThat(run.killedPid()).isPositive();
    }
  }

  @Test
  void aKilledExecutorLeavesAnInt8ModelAsItWas() throws Exception {
    List<FaultRuns.Run> runs = new FaultRuns(dir, 40_000, 6, "int8").campaign(1, 0, 11, line -> {});
    assertThat(runs).extracting(FaultRuns.Run::kind).containsExactly("executor");
    assertThat(runs.get(0).exitStatus()).as("the job's exit status").isZero();
    assertThat(runs.get(0).difference()).as("against the undisturbed run").isNull();
  }
}
