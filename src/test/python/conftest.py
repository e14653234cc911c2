"""What both suites share: the repository, the jar under test and the generated rows they train on.
classic/ runs in a local session with py4j, connect/ as a client of a Spark Connect server; they run
as two pytest processes (scripts/python-tests), since a process that opened a Connect session is
in Connect mode for good."""

import glob
import os
import random

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture(scope="session")
def repo() -> str:
    return REPO


@pytest.fixture(scope="session")
def jar() -> str:
    """The jar scripts/python-tests passes (the one `mvn package` just made), else target's only one."""
    if os.environ.get("CORGIPILE_JAR"):
        return os.environ["CORGIPILE_JAR"]
    jars = glob.glob(os.path.join(REPO, "target", "corgipile-spark_*.jar"))
    if len(jars) != 1:
        raise RuntimeError(
            f"Cannot find the jar to test: expected one target/corgipile-spark_*.jar,"
            f" found {len(jars)}; run mvn package"
        )
    return jars[0]


@pytest.fixture(scope="session")
def test_class_path() -> str:
    """The class path Maven resolved for the tests (Spark, Spark Connect, Delta Kernel, ...)."""
    path = os.environ.get("CORGIPILE_TEST_CLASSPATH", os.path.join(REPO, "target", "test-classpath.txt"))
    if not os.path.exists(path):
        raise RuntimeError(
            f"Cannot find the tests' class path: {path} is missing; mvn verify writes it"
            " (or mvn dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=...)"
        )
    with open(path) as f:
        return f.read().strip()


@pytest.fixture(scope="session")
def wheel() -> str:
    """The wheel scripts/python-tests built around the jar under test, else target's only one."""
    if os.environ.get("CORGIPILE_WHEEL"):
        return os.environ["CORGIPILE_WHEEL"]
    wheels = glob.glob(os.path.join(REPO, "target", "python", "dist", "corgipile-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(
            f"Cannot find the wheel to test: expected one target/python/dist/corgipile-*.whl,"
            f" found {len(wheels)}; run scripts/build-wheel"
        )
    return wheels[0]


def _points(n: int, seed: int):
    rnd = random.Random(seed)
    return [(rnd.gauss(0, 1), rnd.gauss(0, 1), rnd.gauss(0, 1)) for _ in range(n)]


@pytest.fixture(scope="session")
def binary_rows():
    """(label, x0, x1, x2), linearly separable with a margin: label 1 where x0 + 2 x1 - x2 > 0.5,
    points near that plane left out."""
    rows = []
    for x0, x1, x2 in _points(1200, 11):
        m = x0 + 2 * x1 - x2 - 0.5
        if abs(m) > 0.3:
            rows.append((float(m > 0), x0, x1, x2))
    return rows


@pytest.fixture(scope="session")
def regression_rows():
    """(label, x0, x1, x2): label = 3 x0 - 2 x1 + 0.5 x2 + 1, with small noise."""
    rnd = random.Random(5)
    return [(3 * x0 - 2 * x1 + 0.5 * x2 + 1 + rnd.gauss(0, 0.01), x0, x1, x2) for x0, x1, x2 in _points(1000, 7)]
