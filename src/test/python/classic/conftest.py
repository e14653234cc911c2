"""One local Spark session (py4j) for the classic suite, started with the jar under test, Delta
Kernel's jars and Iceberg's (what docs/data-source.md tells users to add for tables)."""

import os
import re

import pytest
from pyspark.ml.linalg import Vectors
from pyspark.sql import SparkSession


# The jars a Delta table read needs beside Spark's own: Kernel's API and defaults, and delta-storage.
DELTA_JARS = re.compile(r"/(delta-kernel-api|delta-kernel-defaults|delta-storage)-[^/]*\.jar$")

# The jars an Iceberg table read needs beside Spark's own: Iceberg's API, core, its common classes,
# relocated Guava, data and Parquet modules, and what they use that Spark lacks.
ICEBERG_JARS = re.compile(r"/(iceberg-(api|core|common|bundled-guava|data|parquet)|caffeine|parquet-avro)-[^/]*\.jar$")


@pytest.fixture(scope="session", autouse=True)
def spark(jar, test_class_path):
    """Autouse: every wrapper needs the JVM, also in tests that never touch the session."""
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    delta = [p for p in test_class_path.split(os.pathsep) if DELTA_JARS.search(p)]
    if len(delta) != 3:
        raise RuntimeError(f"Cannot find Delta Kernel's 3 jars on the tests' class path: found {delta}")
    iceberg = [p for p in test_class_path.split(os.pathsep) if ICEBERG_JARS.search(p)]
    if len(iceberg) != 8:
        raise RuntimeError(f"Cannot find Iceberg's 8 jars on the tests' class path: found {iceberg}")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("corgipile-python-tests")
        .config("spark.jars", ",".join([jar, *delta, *iceberg]))
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
