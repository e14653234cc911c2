package io.corgipile.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the benchmarks measure with: /proc/PID/io, the heap's peak, the memory cgroup, the buffer
 * bound.
 */
class BenchMeasuresTest {
  @TempDir Path dir;

  private static final String PROC_IO =
      """
      rchar: 2419200000
      wchar: 1024
      syscr: 40000
      syscw: 3
      read_bytes: 2359296000
      write_bytes: 4096
      cancelled_write_bytes: 0
      """;

  @Test
  void procIoReadsReadBytesNotRchar() {
    ProcIo io = ProcIo.parse(PROC_IO, "/proc/1/io");
    assertThat(io).isEqualTo(new ProcIo(2_419_200_000L, 2_359_296_000L, 4096));
    assertThat(io.minus(new ProcIo(200, 96_000L, 96)).plus(new ProcIo(1, 1, 1)))
        .isEqualTo(new ProcIo(2_419_199_801L, 2_359_200_001L, 4001));
  }

  @Test
  void procIoNamesTheFileAndWhatIsMissing() {
    assertThatThrownBy(() -> ProcIo.parse("rchar: 1\nwchar: 2\n", "/proc/7/io"))
        .hasMessageStartingWith(
            "Cannot read I/O counters from /proc/7/io: expected lines rchar, read_bytes and "
                + "write_bytes");
    assertThatThrownBy(
            () -> ProcIo.parse("rchar: 1\nread_bytes: x\nwrite_bytes: 0\n", "/proc/7/io"))
        .hasMessage("Cannot read I/O counters from /proc/7/io: read_bytes is 'x', not a number");
  }

  @Test
  void procIoOfThisJvmAndItsChildren() {
    ProcIo io = ProcIo.ofTree();
    assertThat(io.rchar()).isPositive();
    assertThat(io.readBytes()).isNotNegative();
  }

  /**
   * A child that ends between listing and reading (issue 39: ESRCH on a busy machine) is left out.
   */
  @Test
  void procIoOfTreeLeavesOutDescendantsThatEndWhileRead() {
    ProcIo.Reader reader =
        pid ->
            switch ((int) pid) {
              case 1 -> new ProcIo(100, 10, 1);
              case 2 -> throw new IOException("No such process");
              case 3 -> throw new NoSuchFileException("/proc/3/io");
              default -> new ProcIo(5, 5, 5);
            };
    assertThat(ProcIo.ofTree(1, List.of(2L, 3L, 4L), reader)).isEqualTo(new ProcIo(105, 15, 6));
    assertThatThrownBy(() -> ProcIo.ofTree(2, List.of(1L), reader))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "Cannot read I/O counters from /proc/2/io (Linux only, and the process must be yours or"
                + " you root)")
        .hasRootCauseMessage("No such process");
  }

  @Test
  void heapPeakTakesTheLargestBeforeCollectionOrSampleAndTheLargestAfter() {
    HeapPeak.Tracker t = new HeapPeak.Tracker();
    t.sample(100);
    t.collection(500, 120);
    t.sample(300);
    t.collection(450, 200);
    t.sample(250);
    assertThat(t.result(900)).isEqualTo(new HeapPeak.Result(500, 200, 900, 2, 3));
    HeapPeak.Tracker none = new HeapPeak.Tracker();
    none.sample(70);
    assertThat(none.result(80)).isEqualTo(new HeapPeak.Result(70, -1, 80, 0, 1));
  }

  @Test
  void heapPeakSumsOnlyTheHeapPoolsOfACollection() {
    Map<String, MemoryUsage> before =
        Map.of(
            "G1 Eden Space",
            new MemoryUsage(0, 300, 400, 1000),
            "G1 Old Gen",
            new MemoryUsage(0, 200, 400, 1000),
            "Metaspace",
            new MemoryUsage(0, 999, 999, -1));
    assertThat(
            HeapPeak.Tracker.heapUsed(
                before, Set.of("G1 Eden Space", "G1 Old Gen", "G1 Survivor Space")))
        .isEqualTo(500);
  }

  @Test
  void heapPeakMeasuresARunInThisJvm() {
    HeapPeak h = HeapPeak.start();
    byte[][] garbage = new byte[64][];
    for (int i = 0; i < garbage.length; i++) {
      garbage[i] = new byte[1 << 20];
    }
    HeapPeak.Result r = h.stop();
    assertThat(garbage[63]).hasSize(1 << 20);
    assertThat(r.peakUsed()).isGreaterThanOrEqualTo(64L << 20);
    assertThat(r.samples()).isPositive();
  }

  @Test
  void memoryLimitSizes() {
    assertThat(MemoryCgroup.parseLimit("1g")).isEqualTo(1L << 30);
    assertThat(MemoryCgroup.parseLimit("768m")).isEqualTo(768L << 20);
    assertThat(MemoryCgroup.parseLimit("1.5G")).isEqualTo(3L << 29);
    assertThat(MemoryCgroup.parseLimit("3GiB")).isEqualTo(3L << 30);
    assertThat(MemoryCgroup.parseLimit("1073741824")).isEqualTo(1L << 30);
    for (String bad : List.of("", "1x", "-1g", "10m", "g", "1 gigabyte")) {
      assertThatThrownBy(() -> MemoryCgroup.parseLimit(bad))
          .as(bad)
          .hasMessage(
              "Cannot use --memory-limit '"
                  + bad
                  + "': expected a size in bytes with an optional unit k, m "
                  + "or g (768m, 1g, 1.5g), at least 64m");
    }
  }

  @Test
  void detectsCgroupV1MemoryBeforeV2() {
    String mounts =
        """
        tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
        cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0
        cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
        cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
        """;
    assertThat(MemoryCgroup.detect(mounts, p -> ""))
        .isEqualTo(
            new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V1, Path.of("/sys/fs/cgroup/memory")));
  }

  @Test
  void detectsCgroupV2WhenItHasTheMemoryController() {
    String mounts = "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n";
    assertThat(MemoryCgroup.detect(mounts, p -> "cpuset cpu io memory pids\n"))
        .isEqualTo(new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V2, Path.of("/sys/fs/cgroup")));
    assertThatThrownBy(() -> MemoryCgroup.detect(mounts, p -> "cpu io pids"))
        .hasMessageStartingWith("Cannot run with --memory-limit: no memory cgroup on this machine")
        .hasMessageContaining("cgroup2 at [/sys/fs/cgroup] does not");
    assertThatThrownBy(() -> MemoryCgroup.detect("proc /proc proc rw 0 0\n", p -> null))
        .hasMessage(
            "Cannot run with --memory-limit: no memory cgroup on this machine (/proc/mounts has"
                + " neither a cgroup v1 hierarchy with the memory controller nor a cgroup2 mount"
                + " whose cgroup.controllers lists memory)");
  }

  @Test
  void createsAV1CgroupWithItsLimitAndReadsItsCounters() throws Exception {
    MemoryCgroup c =
        MemoryCgroup.create(
            new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V1, dir), "bench-1", 1L << 30);
    assertThat(c.dir).isEqualTo(dir.resolve("bench-1"));
    assertThat(Files.readString(c.dir.resolve("memory.limit_in_bytes"))).isEqualTo("1073741824");
    Files.writeString(c.dir.resolve("memory.max_usage_in_bytes"), "123\n");
    Files.writeString(c.dir.resolve("memory.failcnt"), "7\n");
    assertThat(c.limit()).isEqualTo(1L << 30);
    assertThat(c.peakUsage()).isEqualTo(123);
    assertThat(c.limitHits()).isEqualTo(7);
    c.resetPeak();
    assertThat(c.peakUsage()).isZero();
    assertThatThrownBy(
            () ->
                MemoryCgroup.create(
                    new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V1, dir), "../x", 1))
        .hasMessageStartingWith("Cannot create memory cgroup '../x': expected a name of letters");
  }

  @Test
  void createsAV2CgroupEnablingTheControllerForTheRootsChildren() throws Exception {
    MemoryCgroup c =
        MemoryCgroup.create(
            new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V2, dir), "bench-2", 768L << 20);
    assertThat(Files.readString(dir.resolve("cgroup.subtree_control"))).isEqualTo("+memory");
    assertThat(Files.readString(c.dir.resolve("memory.max"))).isEqualTo(Long.toString(768L << 20));
    Files.writeString(c.dir.resolve("memory.events"), "low 0\nhigh 0\nmax 12\noom 0\noom_kill 0\n");
    assertThat(c.limitHits()).isEqualTo(12);
    assertThat(c.peakUsage()).isEqualTo(-1); // no memory.peak before kernel 5.19
  }

  @Test
  void readLimitRates() {
    assertThat(ReadLimit.parseRate("100m")).isEqualTo(100L << 20);
    assertThat(ReadLimit.parseRate("1g")).isEqualTo(1L << 30);
    assertThat(ReadLimit.describe("100m"))
        .isEqualTo("storage reads capped at 100 MiB/s per disk (--read-limit 100m)");
    for (String bad : List.of("", "fast", "512k", "-1m")) {
      assertThatThrownBy(() -> ReadLimit.parseRate(bad))
          .as(bad)
          .hasMessage(
              "Cannot use --read-limit '"
                  + bad
                  + "': expected bytes per second per disk with an optional "
                  + "unit k, m or g (100m, 1g), at least 1m");
    }
  }

  @Test
  void disksAreTheWholeDisksButLoopAndRamDevices() throws Exception {
    Path sys = dir.resolve("sys-block");
    disk(sys, "vda", "254:0", "268435456");
    disk(sys, "sda", "8:0", "1000");
    disk(sys, "loop0", "7:0", "1000");
    disk(sys, "ram0", "1:0", "1000");
    disk(sys, "sr0", "11:0", "0"); // an empty drive
    Files.createDirectories(sys.resolve("vda/queue"));
    Files.writeString(sys.resolve("vda/queue/read_ahead_kb"), "128\n");
    assertThat(ReadLimit.disks(sys)).containsExactly("8:0", "254:0");
    assertThat(Disks.describeReadAhead(sys))
        .isEqualTo("sda read_ahead_kb unknown, vda read_ahead_kb 128");
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> ReadLimit.disks(empty))
        .hasMessage("Cannot run with --read-limit: no disk under " + empty);
    assertThat(Disks.describeReadAhead(empty)).isEqualTo("disks unknown");
    assertThat(Disks.describeReadAhead(dir.resolve("missing"))).isEqualTo("disks unknown");
  }

  private static void disk(Path sys, String name, String dev, String size) throws IOException {
    Path d = Files.createDirectories(sys.resolve(name));
    Files.writeString(d.resolve("dev"), dev + "\n");
    Files.writeString(d.resolve("size"), size + "\n");
  }

  @Test
  void readLimitOnCgroupV1IsABlkioCgroupToJoinBesideTheMemoryOne() throws Exception {
    Path memory = Files.createDirectories(dir.resolve("memory"));
    Path blkio = Files.createDirectories(dir.resolve("blkio"));
    MemoryCgroup c =
        MemoryCgroup.create(
            new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V1, memory), "bench-3", 1L << 30);
    String mounts =
        "cgroup "
            + memory
            + " cgroup rw,memory 0 0\ncgroup "
            + blkio
            + " cgroup rw,relatime,blkio 0 0\n";
    assertThat(ReadLimit.apply(c, "bench-3", 100L << 20, List.of("254:0"), mounts))
        .hasValue(blkio.resolve("bench-3"));
    assertThat(Files.readString(blkio.resolve("bench-3/blkio.throttle.read_bps_device")))
        .isEqualTo("254:0 104857600");
    assertThatThrownBy(
            () ->
                ReadLimit.apply(
                    c,
                    "bench-3",
                    1L << 20,
                    List.of("254:0"),
                    "cgroup " + memory + " cgroup rw,memory 0 0\n"))
        .hasMessage(
            "Cannot run with --read-limit: the memory cgroup is v1 but "
                + "/proc/mounts has no cgroup v1 hierarchy with the blkio controller");
  }

  @Test
  void readLimitOnCgroupV2IsIoMaxInTheMemoryCgroup() throws Exception {
    MemoryCgroup c =
        MemoryCgroup.create(
            new MemoryCgroup.Hierarchy(MemoryCgroup.Version.V2, dir), "bench-4", 768L << 20);
    assertThat(ReadLimit.apply(c, "bench-4", 100L << 20, List.of("254:0"), "")).isEmpty();
    assertThat(Files.readString(dir.resolve("cgroup.subtree_control"))).isEqualTo("+io");
    assertThat(Files.readString(c.dir.resolve("io.max"))).isEqualTo("254:0 rbps=104857600");
  }

  @Test
  void membershipFromProcSelfCgroup() {
    String v1 = "9:name=systemd:/\n4:memory:/corgipile-bench-12\n0::/\n";
    assertThat(MemoryCgroup.memberOf(v1, MemoryCgroup.Version.V1, "/corgipile-bench-12")).isTrue();
    assertThat(MemoryCgroup.memberOf(v1, MemoryCgroup.Version.V1, "/other")).isFalse();
    assertThat(
            MemoryCgroup.memberOf(
                "0::/corgipile-bench-12\n", MemoryCgroup.Version.V2, "/corgipile-bench-12"))
        .isTrue();
  }

  @Test
  void readmeBufferBoundPerTask() {
    int row = BufferBound.unsafeRowBytes(29);
    assertThat(row).isEqualTo(240);
    // 10% of 5,000,000 rows: 500,000 rows of 240 bytes, 457 buckets of 256 KiB each with one partly
    // filled 16 KiB chunk, the index doubled; two buffers with prefetch
    long rows = 500_000;
    long buckets = rows * 240 / (256 << 10);
    assertThat(BufferBound.perTask("10%", 5_000_000, row, true))
        .hasValue(2 * (rows * 240 + buckets * (16 << 10) + 2 * 26 * rows));
    assertThat(BufferBound.perTask("10%", 5_000_000, row, false))
        .hasValue(rows * 240 + buckets * (16 << 10) + 2 * 26 * rows);
    assertThat(BufferBound.perTask("64m", 5_000_000, row, true)).hasValue(128L << 20);
    assertThat(BufferBound.perTask("1000", 5_000_000, row, false))
        .hasValue(1000 * 240 + (16 << 10) + 2 * 26 * 1000);
    assertThat(BufferBound.perTask("auto", 5_000_000, row, true)).isEmpty();
  }

  @Test
  void boundCheckAgainstTheBaseline() {
    BufferBound.Check c =
        new BufferBound.Check(
            "corgipile-10%",
            "10%", 150L << 20, 160L << 20, 2, 900L << 20, 600L << 20, 400L << 20, 100L << 20);
    assertThat(c.bufferWithin()).isTrue();
    assertThat(c.allowedUsed()).isEqualTo(920L << 20);
    assertThat(c.usedWithin()).isTrue();
    assertThat(c.afterGcWithin()).isTrue();
    BufferBound.Check over =
        new BufferBound.Check(
            "corgipile-20%",
            "20%", 170L << 20, 160L << 20, 2, 950L << 20, 600L << 20, 500L << 20, 100L << 20);
    assertThat(BufferBound.table(List.of(c, over)))
        .contains(
            "| corgipile-10% | 10% | 150.0 | 160.0 | yes | 2 | 900.0 | 920.0 | yes | 400.0 | 420.0"
                + " | yes |")
        .contains(
            "| corgipile-20% | 20% | 170.0 | 160.0 | **no** | 2 | 950.0 | 920.0 | **no** | 500.0 |"
                + " 420.0 | **no** |");
  }
}
