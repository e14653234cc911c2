"""The TCP sockets a process and its descendants listen on, read from Linux's /proc (the Python twin of
src/test/java/io/corgipile/ListeningSockets.java): a socket of /proc/<pid>/net/tcp[6] in state LISTEN
whose inode is among the process's open files."""

import ipaddress
import os

LISTEN = "0A"


def _children(pid: int) -> list:
    children = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                children += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError):  # the thread ended meanwhile (ENOENT, or ESRCH while
            # it exits); the process goes on (a JVM's often do)
            continue
    return children


def _tree(pid: int) -> list:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            todo += _children(p)
        except (FileNotFoundError, ProcessLookupError):  # the process exited meanwhile
            continue
        pids.append(p)
    return pids


def address(entry: str):
    """The address and port of a /proc/net/tcp[6] entry such as 0100007F:1F90: hex of the address's
    32-bit words, each in the kernel's little-endian byte order, then the port."""
    hex_address, hex_port = entry.split(":")
    raw = b"".join(bytes.fromhex(hex_address[i : i + 8])[::-1] for i in range(0, len(hex_address), 8))
    ip = ipaddress.ip_address(raw)
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip, int(hex_port, 16)


def _sockets(pid: int) -> list:
    try:
        inodes = set()
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except (FileNotFoundError, ProcessLookupError):
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
        found = []
        for table in ("tcp", "tcp6"):
            with open(f"/proc/{pid}/net/{table}") as f:
                for line in f.readlines()[1:]:
                    fields = line.split()
                    if fields[3] == LISTEN and fields[9] in inodes:
                        found.append((pid, *address(fields[1])))
        return found
    except (FileNotFoundError, ProcessLookupError):  # exited meanwhile (ENOENT, or ESRCH while it exits)
        return []


def sockets(pid: int) -> list:
    """(pid, address, port) of every listening socket of the process and its descendants."""
    return [s for p in _tree(pid) for s in _sockets(p)]


def describe(pid: int) -> str:
    """One line a notebook cell can print: how many sockets, and those not on loopback."""
    found = sockets(pid)
    exposed = [f"pid {p} on {ip}:{port}" for p, ip, port in found if not ip.is_loopback]
    return f"{len(found)} listening sockets, not on loopback: {exposed}"
