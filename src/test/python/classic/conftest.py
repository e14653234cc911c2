"""One local Spark session (py4j) for the classic suite, started with the jar under test and Delta
Kernel's jars (what docs/data-source.md tells users to add for Delta tables)."""

import os
import re

import pytest
from pyspark.ml.linalg import Vectors
from pyspark.sql import SparkSession


# The jars a Delta table read needs beside Spark's own: Kernel's API and defaults, and delta-storage.
DELTA_JARS = re.compile(r"/(delta-kernel-api|delta-kernel-defaults|delta-storage)-[^/]*\.jar$")


@pytest.fixture(scope="session", autouse=True)
def spark(jar, test_class_path):
    """Autouse: every wrapper needs the JVM, also in tests that never touch the session."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    delta = [p for p in test_class_path.split(os.pathsep) if DELTA_JARS.search(p)]
    if len(delta) != 3:
        raise RuntimeError(f"Cannot find Delta Kernel's 3 jars on the tests' class path: found {delta}")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("corgipile-python-tests")
        .config("spark.jars", ",".join([jar, *delta]))
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def binary_df(spark, binary_rows):
    """Columns label, x0, x1, x2 and their vector features; two partitions."""
    rows = [(label, x0, x1, x2, Vectors.dense([x0, x1, x2])) for label, x0, x1, x2 in binary_rows]
    return spark.createDataFrame(rows, ["label", "x0", "x1", "x2", "features"]).repartition(2).cache()


@pytest.fixture(scope="session")
def regression_df(spark, regression_rows):
    """Columns label and features; two partitions."""
    rows = [(label, Vectors.dense([x0, x1, x2])) for label, x0, x1, x2 in regression_rows]
    return spark.createDataFrame(rows, ["label", "features"]).repartition(2).cache()
