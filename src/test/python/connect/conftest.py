"""A Spark Connect server for the connect suite, on 127.0.0.1 and a free port, with the package jar
on the class path Maven resolved for the tests (spark-connect_2.13 is a test dependency), and one
client session of it."""

import os
import re
import socket
import subprocess
import time

import pytest
from pyspark.sql import SparkSession

SERVER = "org.apache.spark.sql.connect.service.SparkConnectServer"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _java_options(repo: str) -> list:
    """Spark's Java 17 module flags, from their one home, the pom's spark.java.options."""
    with open(os.path.join(repo, "pom.xml")) as pom:
        return re.search(r"<spark.java.options>([^<]+)</spark.java.options>", pom.read()).group(1).split()


def _wait_for(port: int, server: subprocess.Popen, log: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"Cannot start the Spark Connect server: it exited with {server.returncode}; see {log}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"Cannot start the Spark Connect server: port {port} not open after {seconds} s; see {log}")


@pytest.fixture(scope="session")
def server(repo, jar, test_class_path, tmp_path_factory):
    """The server's process, with its port as attribute `port`."""
    port = _free_port()
    log = os.path.join(repo, "target", "connect-server.log")
    command = [
        "java",
        *_java_options(repo),
        "-Xmx2g",
        "-cp",
        f"{test_class_path}:{jar}",
        "-Dspark.master=local[2]",
        "-Dspark.app.name=corgipile-connect-tests",
        "-Dspark.ui.enabled=false",
        "-Dspark.sql.shuffle.partitions=2",
        "-Dspark.connect.grpc.binding.address=127.0.0.1",
        f"-Dspark.connect.grpc.binding.port={port}",
        f"-Dspark.sql.warehouse.dir={tmp_path_factory.mktemp('warehouse')}",
        SERVER,
    ]
    with open(log, "w") as out:
        server = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"}
        )
    server.port = port
    try:
        _wait_for(port, server, log, 120)
        yield server
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # a server that ignores SIGTERM must not outlive the tests
            server.kill()
            server.wait()


@pytest.fixture(scope="session", autouse=True)
def spark(server):
    """Autouse: the wrappers need the session to know they run under Connect."""
    session = SparkSession.builder.remote(f"sc://127.0.0.1:{server.port}").getOrCreate()
    yield session
    session.stop()
