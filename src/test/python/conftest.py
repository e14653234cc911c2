"""One local Spark session for the whole run, started with the jar under test, and the small
generated data sets the tests train on."""

import glob
import os
import random

import pytest
from pyspark.ml.linalg import Vectors
from pyspark.sql import SparkSession

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def _jar() -> str:
    """The jar scripts/python-tests passes (the one `mvn package` just made), else target's only one."""
    if os.environ.get("CORGIPILE_JAR"):
        return os.environ["CORGIPILE_JAR"]
    jars = glob.glob(os.path.join(REPO, "target", "corgipile-spark_*.jar"))
    if len(jars) != 1:
        raise RuntimeError(f"Cannot start Spark for the tests: expected one target/corgipile-spark_*.jar,"
                           f" found {len(jars)}; run mvn package")
    return jars[0]


@pytest.fixture(scope="session")
def jar() -> str:
    return _jar()


@pytest.fixture(scope="session", autouse=True)
def spark(jar):
    """Autouse: every wrapper needs the JVM, also in tests that never touch the session."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    session = (SparkSession.builder.master("local[2]").appName("corgipile-python-tests")
               .config("spark.jars", jar)
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "2")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _points(n: int, seed: int):
    rnd = random.Random(seed)
    return [(rnd.gauss(0, 1), rnd.gauss(0, 1), rnd.gauss(0, 1)) for _ in range(n)]


@pytest.fixture(scope="session")
def binary_rows():
    """Linearly separable with a margin: label 1 where x0 + 2 x1 - x2 > 0.5, points near the plane dropped."""
    rows = []
    for x0, x1, x2 in _points(1200, 11):
        m = x0 + 2 * x1 - x2 - 0.5
        if abs(m) > 0.3:
            rows.append((float(m > 0), x0, x1, x2))
    return rows


@pytest.fixture(scope="session")
def binary_df(spark, binary_rows):
    """Columns label, x0, x1, x2 and their vector features; two partitions."""
    rows = [(label, x0, x1, x2, Vectors.dense([x0, x1, x2])) for label, x0, x1, x2 in binary_rows]
    return spark.createDataFrame(rows, ["label", "x0", "x1", "x2", "features"]).repartition(2).cache()


@pytest.fixture(scope="session")
def regression_df(spark):
    """label = 3 x0 - 2 x1 + 0.5 x2 + 1, with small noise; two partitions."""
    rnd = random.Random(5)
    rows = [(3 * x0 - 2 * x1 + 0.5 * x2 + 1 + rnd.gauss(0, 0.01), Vectors.dense([x0, x1, x2]))
            for x0, x1, x2 in _points(1000, 7)]
    return spark.createDataFrame(rows, ["label", "features"]).repartition(2).cache()
