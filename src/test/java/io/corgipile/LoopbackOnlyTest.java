package io.corgipile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The servers of a test JVM's Spark (driver RPC, block manager) listen on loopback only, and the
 * check that says so sees a server that does not. {@code LocalClusterIT} and the Python suites
 * check the cluster, the Python notebook's kernel and the Connect server.
 */
class LoopbackOnlyTest {
  @Test
  void theTestSessionListensOnLoopbackOnly() {
    SharedSpark.get()
        .range(100)
        .repartition(2)
        .count(); // a shuffle: the block manager serves blocks
    List<ListeningSockets.Socket> sockets = ListeningSockets.of(Stream.of(ProcessHandle.current()));
    assertThat(sockets)
        .as("the driver's RPC and block manager servers")
        .hasSizeGreaterThanOrEqualTo(2);
    assertThat(sockets).filteredOn(s -> !s.loopback()).isEmpty();
  }

  @Test
  void aServerOnEveryInterfaceIsSeen() throws Exception {
    try (ServerSocket any = new ServerSocket();
        ServerSocket loopback = new ServerSocket()) {
      any.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0));
      loopback.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      List<ListeningSockets.Socket> sockets =
          ListeningSockets.of(Stream.of(ProcessHandle.current()));
      assertThat(sockets)
          .filteredOn(s -> s.port() == any.getLocalPort())
          .singleElement()
          .satisfies(s -> assertThat(s.loopback()).isFalse())
          // the JVM binds the IPv4 wildcard as the dual-stack IPv6 one
          .satisfies(
              s ->
                  assertThat(s.toString())
                      .containsPattern(
                          "listens on (0.0.0.0|0:0:0:0:0:0:0:0):" + any.getLocalPort()));
      assertThat(sockets)
          .filteredOn(s -> s.port() == loopback.getLocalPort())
          .singleElement()
          .satisfies(s -> assertThat(s.loopback()).isTrue());
    }
  }

  /**
   * Issue 39: a process that ends while its /proc files are read has no sockets; other errors are
   * errors.
   */
  @Test
  void aReadOfAProcessThatEndedMeanwhileIsNoError() {
    assertThat(ListeningSockets.endedWhileRead(new NoSuchFileException("/proc/9/net/tcp")))
        .isTrue();
    assertThat(ListeningSockets.endedWhileRead(new IOException("No such process"))).isTrue();
    assertThat(
            ListeningSockets.endedWhileRead(
                new FileSystemException("/proc/9/fd", null, "No such process")))
        .isTrue();
    assertThat(ListeningSockets.endedWhileRead(new AccessDeniedException("/proc/9/fd"))).isFalse();
    assertThat(ListeningSockets.endedWhileRead(new IOException("Input/output error"))).isFalse();
  }

  /** Processes that start and end while a watch polls them (as executors do) never stop it. */
  @Test
  void aWatchOfProcessesThatComeAndGoKeepsPolling() throws Exception {
    List<Process> started = new CopyOnWriteArrayList<>();
    try (ListeningSockets.Watch watch =
        new ListeningSockets.Watch(
            () -> {
              try {
                started.add(new ProcessBuilder("true").start());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              return started.stream().map(Process::toHandle);
            })) {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      while (System.nanoTime() < until) {
        watch.seen(); // throws once a poll failed
        Thread.sleep(100);
      }
      assertThat(started).as("polls").hasSizeGreaterThan(3);
      assertThat(watch.seen()).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "0100007F:1F90, 127.0.0.1, 8080, true",
    "00000000:0016, 0.0.0.0, 22, false",
    "0101A8C0:0016, 192.168.1.1, 22, false",
    "00000000000000000000000001000000:1F90, 0:0:0:0:0:0:0:1, 8080, true",
    "00000000000000000000000000000000:1F90, 0:0:0:0:0:0:0:0, 8080, false",
    "0000000000000000FFFF00000100007F:1F90, 127.0.0.1, 8080, true"
  })
  void procEntriesAreDecoded(String entry, String address, int port, boolean loopback) {
    assertThat(ListeningSockets.address(entry).getHostAddress()).isEqualTo(address);
    assertThat(ListeningSockets.address(entry).isLoopbackAddress()).isEqualTo(loopback);
    assertThat(ListeningSockets.port(entry)).isEqualTo(port);
  }
}
