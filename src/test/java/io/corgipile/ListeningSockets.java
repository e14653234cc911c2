package io.corgipile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The TCP sockets processes listen on, read from Linux's {@code /proc}: a socket in {@code
 * /proc/<pid>/net/tcp[6]} in state LISTEN whose inode is among the process's open files.
 */
public final class ListeningSockets {
  private static final String LISTEN = "0A";

  /** A listening socket of a process. */
  public record Socket(long pid, String command, InetAddress address, int port) {
    public boolean loopback() {
      return address.isLoopbackAddress();
    }

    @Override
    public String toString() {
      return "pid "
          + pid
          + " ("
          + command
          + ") listens on "
          + address.getHostAddress()
          + ":"
          + port;
    }
  }

  private ListeningSockets() {}

  /**
   * The listening sockets of the processes and all their descendants; a process that exits
   * meanwhile has none.
   */
  public static List<Socket> of(Stream<ProcessHandle> processes) {
    Set<ProcessHandle> all = new LinkedHashSet<>();
    processes.forEach(
        p -> {
          all.add(p);
          p.descendants().forEach(all::add);
        });
    List<Socket> sockets = new ArrayList<>();
    for (ProcessHandle p : all) {
      sockets.addAll(of(p));
    }
    return sockets;
  }

  /**
   * Polls the listening sockets of a changing set of processes (and their descendants) until
   * closed, for servers that live only while a job runs (executors).
   */
  public static final class Watch implements AutoCloseable {
    private final Set<Socket> seen = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();

    /**
     * The first failure of a poll: a scheduled task that throws is never run again, so it is kept
     * for {@link #seen}.
     */
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    public Watch(Supplier<Stream<ProcessHandle>> processes) {
      poller.scheduleWithFixedDelay(
          () -> {
            try {
              seen.addAll(of(processes.get()));
            } catch (RuntimeException e) {
              failure.compareAndSet(null, e);
              throw e;
            }
          },
          0,
          200,
          TimeUnit.MILLISECONDS);
    }

    /**
     * Every socket seen so far.
     *
     * @throws IllegalStateException when a poll failed, so the watch stopped
     */
    public Set<Socket> seen() {
      if (failure.get() != null) {
        throw new IllegalStateException(
            "Cannot tell the sockets seen: polling stopped", failure.get());
      }
      return Set.copyOf(seen);
    }

    @Override
    public void close() throws InterruptedException {
      poller.shutdown();
      poller.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private static List<Socket> of(ProcessHandle process) {
    long pid = process.pid();
    Path proc = Path.of("/proc", Long.toString(pid));
    try {
      Set<String> inodes = socketInodes(proc.resolve("fd"));
      Map<String, List<String>> listening = new HashMap<>();
      for (String table : List.of("tcp", "tcp6")) {
        for (String line : Files.readAllLines(proc.resolve("net").resolve(table))) {
          String[] f = line.trim().split("\\s+");
          if (f.length > 9 && f[3].equals(LISTEN) && inodes.contains(f[9])) {
            listening.computeIfAbsent(f[9], k -> new ArrayList<>()).add(f[1]);
          }
        }
      }
      String command = process.info().commandLine().orElse("?");
      List<Socket> sockets = new ArrayList<>();
      listening
          .values()
          .forEach(
              addresses ->
                  addresses.forEach(
                      a -> sockets.add(new Socket(pid, abbreviate(command), address(a), port(a)))));
      return sockets;
    } catch (IOException e) {
      if (endedWhileRead(e)) {
        return List.of();
      }
      throw new UncheckedIOException("Cannot list the sockets of process " + pid, e);
    }
  }

  /**
   * Whether a read of {@code /proc/<pid>} failed because the process ended meanwhile: its files are
   * gone ({@code ENOENT}) or refuse reads while it exits ({@code ESRCH}, which Java reports only by
   * its text). A {@link Watch} polls processes that come and go; one such read must not stop it.
   */
  static boolean endedWhileRead(IOException e) {
    String reason = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
    return e instanceof NoSuchFileException || "No such process".equals(reason);
  }

  private static Set<String> socketInodes(Path fds) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> links = Files.list(fds)) {
      for (Path link : (Iterable<Path>) links::iterator) {
        try {
          String target = Files.readSymbolicLink(link).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException e) {
          if (!endedWhileRead(e)) {
            throw e;
          }
          // closed while listing
        }
      }
    }
    return inodes;
  }

  /**
   * The address of a {@code /proc/net/tcp[6]} entry such as {@code 0100007F:1F90}: hex of the
   * address's 32-bit words, each in the kernel's (little-endian) byte order, then the port.
   */
  static InetAddress address(String entry) {
    String hex = entry.substring(0, entry.indexOf(':'));
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int b = 0; b < 4; b++) {
        int at = word * 8 + (3 - b) * 2;
        bytes[word * 4 + b] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    try {
      return InetAddress.getByAddress(bytes); // IPv4-mapped IPv6 addresses come back as IPv4
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Cannot parse the address of " + entry, e);
    }
  }

  static int port(String entry) {
    return Integer.parseInt(entry.substring(entry.indexOf(':') + 1), 16);
  }

  private static String abbreviate(String command) {
    // class paths make command lines kilobytes long; the main class and the start say which process
    // it is
    String shorter =
        command
            .replaceAll("-cp \\S+|-classpath \\S+", "-cp ...")
            .replaceAll("(-XX|--add-|-D)\\S*\\s*", "");
    return shorter.substring(0, Math.min(200, shorter.length()));
  }
}
