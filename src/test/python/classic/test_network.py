"""The servers of a PySpark session (py4j gateway, the driver's RPC and block manager) listen on loopback
only; the Python kernel of the notebook test is checked in test_notebook.py, the Connect server in the
connect suite."""

import os
import socket

import pytest

import listening


def test_the_session_listens_on_loopback_only(spark):
    spark.range(100).repartition(2).count()  # a shuffle: the block manager serves blocks
    found = listening.sockets(os.getpid())
    assert len(found) >= 3, f"py4j, the driver's RPC and block manager servers; found {found}"
    assert [s for s in found if not s[1].is_loopback] == []


def test_a_server_on_every_interface_is_seen():
    with socket.socket() as any_interface:
        any_interface.bind(("0.0.0.0", 0))
        any_interface.listen()
        port = any_interface.getsockname()[1]
        assert [(str(ip), p) for _, ip, p in listening.sockets(os.getpid()) if p == port] == [("0.0.0.0", port)]
        assert f"on 0.0.0.0:{port}" in listening.describe(os.getpid())


@pytest.mark.parametrize(
    "entry, ip, port",
    [
        ("0100007F:1F90", "127.0.0.1", 8080),
        ("00000000:0016", "0.0.0.0", 22),
        ("0101A8C0:0016", "192.168.1.1", 22),
        ("00000000000000000000000001000000:1F90", "::1", 8080),
        ("0000000000000000FFFF00000100007F:1F90", "127.0.0.1", 8080),
    ],
)
def test_proc_entries_are_decoded(entry, ip, port):
    assert tuple(map(str, listening.address(entry))) == (ip, str(port))
